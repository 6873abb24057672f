import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../../components/button';
import { useAuthStatus, useSignOut } from '../../../lib/auth';
import { describeError } from '../../../lib/api-client';
import { useConnection, type Connection } from '../../../lib/connection';
import { notify } from '../../../lib/notices';
import { ConnectionForm } from './connection-form';

/** The connection: the form while not connected, "Connected as ..." and Sign out after. */
export function ConnectionSection({ onAttempt }: { onAttempt: () => void }) {
  const connection = useConnection();
  const titleId = useId();
  // Focus follows a change of connection made while this page is open (connect, sign out,
  // a 401), not the state found on arrival.
  const [seen, setSeen] = useState(connection);
  const [changedHere, setChangedHere] = useState(false);
  if (seen !== connection) {
    setSeen(connection);
    setChangedHere(true);
  }

  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId}>Connection</h2>
      {connection ? (
        <ConnectedStatus connection={connection} focusOnMount={changedHere} />
      ) : (
        <ConnectionForm onAttempt={onAttempt} focusOnMount={changedHere} />
      )}
    </section>
  );
}

function ConnectedStatus({
  connection,
  focusOnMount,
}: {
  connection: Connection;
  focusOnMount: boolean;
}) {
  const status = useAuthStatus();
  const signOut = useSignOut();
  const statusLine = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (focusOnMount) statusLine.current?.focus();
  }, [focusOnMount]);

  const who = status.data
    ? (status.data.email ?? status.data.api_key_name ?? status.data.idp_organization_id)
    : undefined;

  return (
    <div className="connected">
      <p role="status" ref={statusLine} tabIndex={-1} className="connected-as">
        {who !== undefined
          ? `Connected as ${who}`
          : status.isError
            ? `Connected, but who you are could not be loaded: ${describeError(status.error)}`
            : 'Checking the connection…'}
      </p>
      <p className="muted">
        To <code>{connection.baseUrl}</code>.{' '}
        {connection.remembered
          ? 'The key is remembered on this device.'
          : 'The key is forgotten when this tab closes.'}
      </p>
      <div className="form-actions">
        <Button
          onClick={() => {
            signOut();
            notify('Signed out.');
          }}
        >
          Sign out
        </Button>
      </div>
    </div>
  );
}
