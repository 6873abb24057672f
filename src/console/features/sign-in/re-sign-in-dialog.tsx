/**
 * The session ended while the person was working (it expired, or was ended elsewhere): a
 * modal over the page, which stays mounted with everything unsaved in it. The requests that
 * met the 401 wait (lib/api-client.ts) and go on once the same person has signed in again,
 * with a password, an API key, or SSO in a popup window (the page must not navigate away).
 * Another person signing in here does not inherit the page: the console reloads.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useState } from 'react';
import type { AuthStatus } from '../../../contract/auth-status';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { authKeys, authStatusQueryOptions, getAuthStatus } from '../../lib/auth';
import { useFinishSignIn, useSignOut, type SignInOutcome } from '../../lib/sign-in';
import { useConnectionState, type AuthFailure } from '../../lib/connection';
import { notify } from '../../lib/notices';
import { ssoSignInUrl } from './api/sign-in';
import { KeySignInForm } from './components/key-sign-in-form';
import { PasswordSignIn } from './components/password-sign-in';
import { isSignedInMessage, SIGNED_IN_CHANNEL } from './signed-in-message';

const ENDED_BECAUSE: Record<AuthFailure, string> = {
  expired: 'Your session has expired.',
  revoked: 'Your session was ended.',
  invalid: 'Your session is no longer valid.',
};

type PopupState = 'closed' | 'open' | 'blocked' | 'not-yet';

export function ReSignInDialog() {
  const { interrupted, connection } = useConnectionState();
  const queryClient = useQueryClient();
  const finish = useFinishSignIn();
  const signOut = useSignOut();
  const [otherPerson, setOtherPerson] = useState<AuthStatus | null>(null);
  const [popup, setPopup] = useState<PopupState>('closed');
  const keyTitle = useId();
  const previous = queryClient.getQueryData(authStatusQueryOptions().queryKey);

  const onSignedIn = useCallback(
    (outcome: SignInOutcome, status: AuthStatus) => {
      setPopup('closed');
      if (outcome === 'other-person') {
        setOtherPerson(status);
        return;
      }
      void queryClient.invalidateQueries({ queryKey: authKeys.all });
      notify('You are signed in again.');
    },
    [queryClient],
  );

  // SSO in the popup ended on /signed-in: ask who holds the session cookie now.
  const checkSession = useCallback(async () => {
    if (!connection) return;
    const session = { baseUrl: connection.baseUrl, apiKey: null };
    try {
      const status = await getAuthStatus({ connection: session });
      onSignedIn(finish(status, session), status);
    } catch {
      setPopup('not-yet');
    }
  }, [connection, finish, onSignedIn]);

  useEffect(() => {
    if (interrupted === null) return;
    const onMessage = (event: MessageEvent) => {
      if (event.origin === window.location.origin && isSignedInMessage(event.data)) {
        void checkSession();
      }
    };
    window.addEventListener('message', onMessage);
    const channel =
      typeof BroadcastChannel === 'function' ? new BroadcastChannel(SIGNED_IN_CHANNEL) : null;
    if (channel) {
      channel.onmessage = (event: MessageEvent) => {
        if (isSignedInMessage(event.data)) void checkSession();
      };
    }
    return () => {
      window.removeEventListener('message', onMessage);
      channel?.close();
    };
  }, [interrupted, checkSession]);

  if (interrupted === null || connection === null) return null;

  const openSso = (email: string) => {
    const opened = window.open(
      ssoSignInUrl({ email, returnTo: '/signed-in' }),
      'provisioning-sign-in',
      'popup=yes,width=520,height=680',
    );
    setPopup(opened ? 'open' : 'blocked');
  };

  return (
    // Not closed by Escape: behind it, every request waits for the person to be back.
    <Dialog open onClose={() => undefined} title="Your session ended — sign in again">
      {otherPerson ? (
        <>
          <p role="alert">
            You signed in as {otherPerson.email ?? 'someone else'}, but this page was{' '}
            {previous?.email ?? 'another person'}&rsquo;s. The console reloads to show your own
            account.
          </p>
          <div className="form-actions">
            <Button variant="primary" onClick={() => window.location.assign('/')}>
              Reload
            </Button>
          </div>
        </>
      ) : (
        <>
          <p>
            {ENDED_BECAUSE[interrupted]} Sign in again to carry on: what you have not saved is still
            here, behind this dialog.
          </p>
          <PasswordSignIn email={previous?.email} onSignedIn={onSignedIn} onSso={openSso} />
          {popup !== 'closed' && (
            <div role="status" className="sso-popup-state">
              {popup === 'blocked' ? (
                <p>
                  The browser blocked the sign-in window. Allow pop-ups for this site, or sign in
                  with a password or an API key.
                </p>
              ) : (
                <>
                  <p>
                    {popup === 'open'
                      ? 'Sign in in the window that opened; this page carries on when you are back.'
                      : 'You are not signed in yet. Finish signing in in the other window.'}
                  </p>
                  <Button onClick={() => void checkSession()}>I have signed in</Button>
                </>
              )}
            </div>
          )}
          <h3 id={keyTitle}>Use an API key</h3>
          <KeySignInForm baseUrl={connection.baseUrl} onSignedIn={onSignedIn} />
          <div className="form-actions">
            <Button onClick={() => void signOut()}>Sign out</Button>
          </div>
        </>
      )}
    </Dialog>
  );
}
