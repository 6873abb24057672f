/**
 * "Who you are": the caller as GET /auth/status describes them, on every page while
 * connected. Only idp_organization_id is sure to be there; absent fields are left out.
 */
import { useId, type ReactNode } from 'react';
import type { AuthStatus } from '../../../../contract/auth-status';
import { Button } from '../../../components/button';
import { Spinner } from '../../../components/spinner';
import { describeError } from '../../../lib/api-client';
import { useAuthStatus } from '../../../lib/auth';
import { describeExpiry, useNow } from '../../../lib/time';

export function WhoamiPanel() {
  const titleId = useId();
  const status = useAuthStatus();
  return (
    <aside className="whoami" aria-labelledby={titleId} aria-busy={status.isPending || undefined}>
      <h2 id={titleId}>Who you are</h2>
      {status.isPending ? (
        <Spinner label="Loading…" />
      ) : status.isError ? (
        <div className="whoami-error">
          <p>Who you are could not be loaded. {describeError(status.error)}</p>
          <Button onClick={() => void status.refetch()}>Try again</Button>
        </div>
      ) : (
        <WhoamiDetails status={status.data} />
      )}
    </aside>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="whoami-row">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function WhoamiDetails({ status }: { status: AuthStatus }) {
  const now = useNow();
  const expiry = status.expires_at === undefined ? null : describeExpiry(status.expires_at, now);
  const hasKey = status.api_key_name !== undefined || status.api_key_obfuscated_value !== undefined;
  // Without an expiry, a key never expires; a status that names no key says nothing of it.
  const isKey = hasKey || status.api_key_id !== undefined || status.auth_type === 'api_key';

  return (
    <>
      <dl className="whoami-fields">
        {status.email !== undefined && <Row term="Email">{status.email}</Row>}
        {status.role !== undefined && <Row term="Role">{status.role}</Row>}
        {status.account_id !== undefined && (
          <Row term="Account">
            <code>{status.account_id}</code>
          </Row>
        )}
        {status.account_type !== undefined && <Row term="Account type">{status.account_type}</Row>}
        <Row term="Organization">
          <code>{status.idp_organization_id}</code>
        </Row>
        {hasKey && (
          <Row term="Key">
            {status.api_key_name}
            {status.api_key_name !== undefined &&
              status.api_key_obfuscated_value !== undefined &&
              ' '}
            {status.api_key_obfuscated_value !== undefined && (
              <code>{status.api_key_obfuscated_value}</code>
            )}
          </Row>
        )}
        {status.permissions !== undefined && (
          <Row term="Permissions">
            {status.permissions.length === 0 ? (
              'None'
            ) : (
              <ul className="permission-list">
                {status.permissions.map((permission) => (
                  <li key={permission}>
                    <code>{permission}</code>
                  </li>
                ))}
              </ul>
            )}
          </Row>
        )}
      </dl>
      {expiry && (
        <p className={expiry.expired ? 'expiry expiry-expired' : 'expiry'}>
          {expiry.relative} · <time dateTime={status.expires_at}>{expiry.absolute}</time>
        </p>
      )}
      {!expiry && isKey && <p className="expiry">Never expires</p>}
      {expiry?.expired && <p className="warning-text">This key has expired.</p>}
      {expiry?.warning && <p className="warning-text">{expiry.warning}</p>}
    </>
  );
}
