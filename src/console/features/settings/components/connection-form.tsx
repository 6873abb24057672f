/**
 * Connect: checks the key with GET /auth/status and stores it only when that succeeds; a
 * failure is said in words in the form, and nothing is stored.
 */
import { useEffect, useRef, useState } from 'react';
import { z } from '../../../../contract/zod';
import { Button } from '../../../components/button';
import { Form, FormCheckboxField, FormTextField } from '../../../components/form';
import { describeConnectFailure, useConnect } from '../../../lib/auth';
import { defaultBaseUrl, normalizeBaseUrl } from '../../../lib/connection';

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const connectionFormSchema = z.object({
  baseUrl: z.pipe(
    z
      .string()
      .check(
        z.trim(),
        z.minLength(1, 'Enter the API base URL.'),
        z.refine(isHttpUrl, 'Enter a URL that starts with http:// or https://.'),
      ),
    z.transform(normalizeBaseUrl),
  ),
  // Whether a key is well formed is the server's to say: it answers in words we show.
  apiKey: z.string().check(z.trim(), z.minLength(1, 'Enter an API key.')),
  remember: z.boolean(),
});

type ConnectionFormValues = z.output<typeof connectionFormSchema>;

interface ConnectionFormProps {
  /** Called when Connect is pressed: the reason the person was sent here is now stale. */
  onAttempt: () => void;
  /** Focus the key field on mount (after signing out). */
  focusOnMount: boolean;
}

export function ConnectionForm({ onAttempt, focusOnMount }: ConnectionFormProps) {
  const [showKey, setShowKey] = useState(false);
  const connect = useConnect();
  const keyInput = useRef<HTMLInputElement | null>(null);

  useEffect(() => {
    if (focusOnMount) keyInput.current?.focus();
  }, [focusOnMount]);

  const onSubmit = (values: ConnectionFormValues) => {
    onAttempt();
    // On success the form is replaced by "Connected as ...", a status that is announced.
    connect.mutate(values);
  };

  const failure =
    connect.isError && connect.variables
      ? describeConnectFailure(connect.error, connect.variables.baseUrl)
      : null;

  return (
    <Form
      schema={connectionFormSchema}
      defaultValues={{ baseUrl: defaultBaseUrl(), apiKey: '', remember: false }}
      onSubmit={onSubmit}
    >
      <FormTextField
        name="baseUrl"
        label="API base URL"
        type="url"
        autoComplete="url"
        spellCheck={false}
      />
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
      <FormCheckboxField
        name="remember"
        label="Remember on this device"
        hint="Unchecked, the key is forgotten when this tab closes."
      />
      {failure && (
        <p role="alert" className="alert alert-error">
          {failure}
        </p>
      )}
      <div className="form-actions">
        <Button type="submit" variant="primary" pending={connect.isPending}>
          Connect
        </Button>
      </div>
    </Form>
  );
}
