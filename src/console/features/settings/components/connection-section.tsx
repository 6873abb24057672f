import { useId } from 'react';
import { describeError } from '../../../lib/api-client';
import { useAuthStatus } from '../../../lib/auth';
import { useConnection } from '../../../lib/connection';

/** Who is signed in, to which API and how (Sign out is in the whoami panel, on every page). */
export function ConnectionSection() {
  const connection = useConnection();
  const status = useAuthStatus();
  const titleId = useId();
  if (!connection) return null;

  const who = status.data
    ? (status.data.email ?? status.data.api_key_name ?? status.data.idp_organization_id)
    : undefined;

  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId}>Connection</h2>
      <div className="connected">
        <p role="status" className="connected-as">
          {who !== undefined
            ? `Signed in as ${who}`
            : status.isError
              ? `Signed in, but who you are could not be loaded: ${describeError(status.error)}`
              : 'Checking the connection…'}
        </p>
        <p className="muted">
          To <code>{connection.baseUrl}</code>.{' '}
          {connection.apiKey === null
            ? 'The browser holds a session, never a key.'
            : 'The key is held in memory and forgotten when this tab closes.'}
        </p>
      </div>
    </section>
  );
}
