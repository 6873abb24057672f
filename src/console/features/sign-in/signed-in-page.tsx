/**
 * `/signed-in`: where SSO comes back to in the popup opened to sign in again. It tells the
 * page that opened it (a message to the opener, and a broadcast for when the opener was cut
 * off by the cross-origin trip) and closes itself.
 */
import { useEffect } from 'react';
import { usePageTitle } from '../../lib/page-title';
import { SIGNED_IN_CHANNEL, SIGNED_IN_MESSAGE } from './signed-in-message';

export function SignedInPage() {
  usePageTitle('Signed in');
  useEffect(() => {
    const message = { type: SIGNED_IN_MESSAGE };
    try {
      (window.opener as Window | null)?.postMessage(message, window.location.origin);
    } catch {
      // An opener of another origin cannot be told; the broadcast below still is.
    }
    if (typeof BroadcastChannel === 'function') {
      const channel = new BroadcastChannel(SIGNED_IN_CHANNEL);
      channel.postMessage(message);
      channel.close();
    }
    window.close();
  }, []);
  return (
    <div className="page">
      <h1>You are signed in</h1>
      <p>You can close this window and carry on where you were.</p>
    </div>
  );
}
