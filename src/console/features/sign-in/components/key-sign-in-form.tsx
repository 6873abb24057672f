/**
 * "Use an API key": on this origin the key is exchanged for a session and dropped; another
 * origin (or a server without sessions) keeps it in memory for this tab, after
 * GET /auth/status checked it. Nothing is stored; a failure is said in words in the form. The
 * base URL field says which origins can be used, and one that cannot is refused before any
 * request.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { z } from '../../../../contract/zod';
import { Button } from '../../../components/button';
import type { AuthStatus } from '../../../../contract/auth-status';
import { Form, FormActions, FormTextField } from '../../../components/form';
import { NetworkError } from '../../../lib/api-client';
import { describeConnectFailure, useSignInWithKey, type SignInOutcome } from '../../../lib/sign-in';
import {
  allowedApiOrigins,
  defaultBaseUrl,
  normalizeBaseUrl,
  originOf,
} from '../../../lib/connection';

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Said beside the field before anything is tried: the browser would block any other. */
function describeAllowedOrigins(origins: readonly string[]): string {
  return origins.length === 1
    ? `Only this origin can be used: ${origins.join(', ')}.`
    : `Only these origins can be used: ${origins.join(', ')}.`;
}

function connectionFormSchema(allowedOrigins: readonly string[]) {
  const isAllowed = (text: string) => {
    const origin = originOf(text);
    return origin === undefined || allowedOrigins.includes(origin);
  };
  const refusal = allowedOrigins.length === 1 ? 'only this origin can' : 'only those listed can';
  return z.object({
    baseUrl: z.pipe(
      z.string().check(
        z.trim(),
        z.minLength(1, 'Enter the API base URL.'),
        z.refine(isHttpUrl, 'Enter a URL that starts with http:// or https://.'),
        z.superRefine((text, context) => {
          if (isAllowed(text)) return;
          context.issues.push({
            code: 'custom',
            input: text,
            message: `${originOf(text) ?? text} cannot be used from this console: ${refusal}.`,
          });
        }),
      ),
      z.transform(normalizeBaseUrl),
    ),
    // Whether a key is well formed is the server's to say: it answers in words we show.
    apiKey: z.string().check(z.trim(), z.minLength(1, 'Enter an API key.')),
  });
}

type ConnectionFormValues = z.output<ReturnType<typeof connectionFormSchema>>;

interface KeySignInFormProps {
  /** Called when Connect is pressed: the reason the person was sent here is now stale. */
  onAttempt?: () => void;
  onSignedIn: (outcome: SignInOutcome, status: AuthStatus) => void;
  /** Signing in again: the API stays the one in use, and is not asked. */
  baseUrl?: string | undefined;
  /** Focus the key field on mount. */
  focusOnMount?: boolean;
}

export function KeySignInForm({
  onAttempt,
  onSignedIn,
  baseUrl,
  focusOnMount = false,
}: KeySignInFormProps) {
  const [showKey, setShowKey] = useState(false);
  const connect = useSignInWithKey(onSignedIn);
  const keyInput = useRef<HTMLInputElement | null>(null);
  const allowedOrigins = useMemo(() => allowedApiOrigins(), []);
  const schema = useMemo(() => connectionFormSchema(allowedOrigins), [allowedOrigins]);

  useEffect(() => {
    if (focusOnMount) keyInput.current?.focus();
  }, [focusOnMount]);

  const onSubmit = (values: ConnectionFormValues) => {
    onAttempt?.();
    connect.mutate(values);
  };

  const failure =
    connect.isError && connect.variables
      ? describeFailure(connect.error, connect.variables.baseUrl)
      : null;

  return (
    <Form
      schema={schema}
      defaultValues={{ baseUrl: baseUrl ?? defaultBaseUrl(), apiKey: '' }}
      onSubmit={onSubmit}
    >
      {baseUrl === undefined && (
        <FormTextField
          name="baseUrl"
          label="API base URL"
          hint={describeAllowedOrigins(allowedOrigins)}
          type="url"
          autoComplete="url"
          spellCheck={false}
        />
      )}
      <FormTextField
        name="apiKey"
        label="API key"
        type={showKey ? 'text' : 'password'}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        inputRef={keyInput}
        after={
          <Button onClick={() => setShowKey((shown) => !shown)}>
            {showKey ? 'Hide key' : 'Show key'}
          </Button>
        }
      />
      <FormActions failure={failure} submitLabel="Connect" pending={connect.isPending} />
    </Form>
  );
}

/**
 * Another origin that answers nothing readable may be down, or may not list this console's
 * origin in its CORS_ORIGINS: the browser does not say which.
 */
function describeFailure(error: unknown, baseUrl: string): string {
  const own = window.location.origin;
  if (error instanceof NetworkError && originOf(baseUrl) !== own) {
    return `The server could not be reached at ${baseUrl}, or it does not allow this origin (${own}) in its CORS_ORIGINS.`;
  }
  return describeConnectFailure(error, baseUrl);
}
