/**
 * `/sign-in`: shown whenever nobody is signed in. Email first, then a password or "Continue
 * with SSO"; "Use an API key" below. `?error=` (a failed SSO sign-in, sent back by the
 * service) is said in words with a way back; `?return_to=` is where signing in leads.
 */
import { useId } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { Spinner } from '../../components/spinner';
import { useAuthStatus } from '../../lib/auth';
import { describeSignOutReason } from '../../lib/sign-in';
import { connectionStore, useConnectionState } from '../../lib/connection';
import { usePageTitle } from '../../lib/page-title';
import { describeSignInError, ssoSignInUrl } from './api/sign-in';
import { KeySignInForm } from './components/key-sign-in-form';
import { PasswordSignIn } from './components/password-sign-in';

/** A console path to go back to; anything else (another site, the sign-in page) is `/`. */
export function returnPathOf(value: string | null): string {
  if (value === null || !/^\/(?![/\\])/.test(value)) return '/';
  return value.startsWith('/sign-in') ? '/' : value;
}

export function SignInPage() {
  usePageTitle('Sign in');
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const { connection, confirmed, signOutReason } = useConnectionState();
  const status = useAuthStatus();
  const returnTo = returnPathOf(search.get('return_to'));
  const error = search.get('error');
  const passwordTitle = useId();
  const keyTitle = useId();

  // Already signed in (the cookie still holds): go where the person was going.
  if (connection && confirmed && status.data) return <Navigate to={returnTo} replace />;
  if (connection && status.isPending) {
    return (
      <div className="page" aria-busy="true">
        <Spinner label="Checking whether you are signed in…" />
      </div>
    );
  }

  const signedIn = () => void navigate(returnTo, { replace: true });
  const why = signOutReason ? describeSignOutReason(signOutReason) : null;

  return (
    <div className="page sign-in-page">
      <h1>Sign in</h1>
      {error !== null && (
        <div role="alert" className="alert alert-error">
          <p>{describeSignInError(error)}</p>
          <p>
            <Link
              to={
                returnTo === '/' ? '/sign-in' : `/sign-in?return_to=${encodeURIComponent(returnTo)}`
              }
            >
              Try signing in again
            </Link>
          </p>
        </div>
      )}
      {why && error === null && (
        <div role="status" className="alert alert-warning">
          <p>{why}</p>
          {signOutReason?.kind === 'signed-out' && signOutReason.idpLogoutUrl && (
            <p>
              <a href={signOutReason.idpLogoutUrl}>
                Also sign out of {signOutReason.idpName ?? 'your identity provider'}
              </a>
            </p>
          )}
        </div>
      )}
      <section className="card" aria-labelledby={passwordTitle}>
        <h2 id={passwordTitle}>With your work account</h2>
        <PasswordSignIn
          onSignedIn={signedIn}
          onSso={(email) => window.location.assign(ssoSignInUrl({ email, returnTo }))}
        />
      </section>
      <section className="card" aria-labelledby={keyTitle}>
        <h2 id={keyTitle}>Use an API key</h2>
        <p className="muted">
          On this server the key is exchanged for a session and not kept; for another server it is
          held in memory until this tab closes.
        </p>
        <KeySignInForm
          onAttempt={() => connectionStore.dismissSignOutReason()}
          onSignedIn={signedIn}
        />
      </section>
    </div>
  );
}
