/**
 * Email first: `GET /auth/options` says whether a password and/or SSO apply to it, then the
 * password field ("Sign in") and/or "Continue with SSO". Plain fields, no form library:
 * this is what a signed-out visit loads first.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import type { AuthStatus } from '../../../../contract/auth-status';
import { passwordSignInRequestSchema } from '../../../../contract/people';
import { Button } from '../../../components/button';
import { ErrorAlert } from '../../../components/error-alert';
import { TextField } from '../../../components/form-fields';
import { Spinner } from '../../../components/spinner';
import { isNotOffered } from '../../../lib/api-client';
import type { SignInOutcome } from '../../../lib/sign-in';
import {
  describeSignInFailure,
  signInOptionsQueryOptions,
  usePasswordSignIn,
} from '../api/sign-in';

interface PasswordSignInProps {
  /** Known when signing in again: the email is not asked. */
  email?: string | undefined;
  onSignedIn: (outcome: SignInOutcome, status: AuthStatus) => void;
  /** "Continue with SSO" for this email: a navigation, or a popup when signing in again. */
  onSso: (email: string) => void;
}

export function PasswordSignIn({ email: knownEmail, onSignedIn, onSso }: PasswordSignInProps) {
  const [email, setEmail] = useState<string | null>(knownEmail ?? null);
  if (email === null) return <EmailStep onEmail={setEmail} />;
  return (
    <MethodsStep
      email={email}
      onOtherEmail={knownEmail === undefined ? () => setEmail(null) : undefined}
      onSignedIn={onSignedIn}
      onSso={onSso}
    />
  );
}

function EmailStep({ onEmail }: { onEmail: (email: string) => void }) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = passwordSignInRequestSchema.shape.email.safeParse(typed);
    if (!parsed.success) {
      setError('Enter your work email address.');
      return;
    }
    onEmail(parsed.data);
  };
  return (
    <form className="form" noValidate onSubmit={submit}>
      <TextField
        label="Email"
        type="email"
        name="email"
        autoComplete="username"
        spellCheck={false}
        value={typed}
        error={error}
        onChange={(event) => {
          setTyped(event.target.value);
          setError(undefined);
        }}
      />
      <div className="form-actions">
        <Button type="submit" variant="primary">
          Continue
        </Button>
      </div>
    </form>
  );
}

function MethodsStep({
  email,
  onOtherEmail,
  onSignedIn,
  onSso,
}: {
  email: string;
  onOtherEmail: (() => void) | undefined;
  onSignedIn: PasswordSignInProps['onSignedIn'];
  onSso: (email: string) => void;
}) {
  const options = useQuery(signInOptionsQueryOptions(email));
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string>();
  const signIn = usePasswordSignIn(onSignedIn);
  const whoId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password === '') {
      setPasswordError('Enter your password.');
      return;
    }
    signIn.mutate({ email, password });
  };

  return (
    <div className="sign-in-methods" aria-busy={options.isPending || undefined}>
      <p id={whoId}>
        Signing in as <strong>{email}</strong>
        {onOtherEmail && (
          <>
            {' '}
            <Button className="button-link" onClick={onOtherEmail}>
              Use another email
            </Button>
          </>
        )}
      </p>
      {options.isPending ? (
        <Spinner label="Finding how you sign in…" />
      ) : options.isError ? (
        isNotOffered(options.error) ? (
          <p>This server offers no sign-in with an email. Use an API key instead.</p>
        ) : (
          <div className="alert alert-error" role="alert">
            <p>{describeSignInFailure(options.error)}</p>
            <Button onClick={() => void options.refetch()}>Try again</Button>
          </div>
        )
      ) : (
        <>
          {options.data.password && (
            <form className="form" noValidate onSubmit={submit} aria-describedby={whoId}>
              {/* For password managers: the account the password belongs to. */}
              <input type="hidden" name="email" autoComplete="username" value={email} />
              <TextField
                label="Password"
                type="password"
                name="password"
                autoComplete="current-password"
                value={password}
                error={passwordError}
                onChange={(event) => {
                  setPassword(event.target.value);
                  setPasswordError(undefined);
                }}
              />
              <ErrorAlert>{signIn.isError && describeSignInFailure(signIn.error)}</ErrorAlert>
              <div className="form-actions">
                <Button type="submit" variant="primary" pending={signIn.isPending}>
                  Sign in
                </Button>
              </div>
            </form>
          )}
          {options.data.sso && (
            <div className="form-actions">
              <Button
                variant={options.data.password ? 'secondary' : 'primary'}
                onClick={() => onSso(email)}
              >
                Continue with SSO
              </Button>
            </div>
          )}
          {!options.data.password && !options.data.sso && (
            <p>
              There is no way to sign in with this email here. Ask an administrator of your account
              for an invitation, or use an API key.
            </p>
          )}
        </>
      )}
    </div>
  );
}
