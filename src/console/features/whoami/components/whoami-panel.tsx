/**
 * "Who you are": the caller as GET /auth/status describes them, on every page while
 * signed in: the session (how they signed in, when it ends, a warning before it ends for
 * want of activity, with "Stay signed in"), and a key's fields when a key is in use. Only
 * idp_organization_id is sure to be there; absent fields are left out.
 */
import { useEffect, useId, useState, type ReactNode } from 'react';
import type { AuthStatus } from '../../../../contract/auth-status';
import { Button } from '../../../components/button';
import { Spinner } from '../../../components/spinner';
import { describeError } from '../../../lib/api-client';
import { useAuthStatus } from '../../../lib/auth';
import { useSignOut } from '../../../lib/sign-in';
import { describeExpiry, useNow } from '../../../lib/time';
import { useExtendSession } from '../api/extend-session';
import { clockOf, sessionTimes, signedInWith } from '../session-times';

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
        <>
          {status.data.session_id !== undefined && (
            <SessionSummary status={status.data} refetch={status.refetch} />
          )}
          <WhoamiDetails status={status.data} />
          <SignOutButton />
        </>
      )}
    </aside>
  );
}

function SignOutButton() {
  const signOut = useSignOut();
  const [pending, setPending] = useState(false);
  return (
    <div className="form-actions">
      <Button
        pending={pending}
        onClick={() => {
          setPending(true);
          void signOut();
        }}
      >
        Sign out
      </Button>
    </div>
  );
}

/** "Signed in as ana@acme.com with Acme SSO · session ends 18:40 UTC (in 7 hours)". */
/** `refetch` is the query's own (stable): the status is read again once per warning. */
function SessionSummary({
  status,
  refetch,
}: {
  status: AuthStatus;
  refetch: () => Promise<unknown>;
}) {
  const now = useNow(15_000);
  const times = sessionTimes(status, now);
  const extend = useExtendSession();
  const how = signedInWith(status);
  // Other requests may have pushed the idle end on since the status was read: read it again
  // once before warning (reading the status is not activity, so it keeps nothing alive).
  useEffect(() => {
    if (times.idleWarning) void refetch();
  }, [times.idleWarning, times.idleEndsAt, refetch]);

  return (
    <div className="session-summary">
      <p>
        Signed in as <strong>{status.email ?? status.name ?? status.user_id}</strong>
        {how && ` ${how}`}
        {times.ends && ` · session ends ${times.ends}`}
      </p>
      {times.idleWarning && times.idleEndsAt !== null && (
        <div role="alert" className="alert alert-warning">
          <p>Your session ends at {clockOf(times.idleEndsAt, now)} unless you carry on working.</p>
          <Button variant="primary" pending={extend.isPending} onClick={() => extend.mutate()}>
            Stay signed in
          </Button>
          {extend.isError && <p>{describeError(extend.error)}</p>}
        </div>
      )}
    </div>
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
  // A session's end is said above; the expiry below is a key's.
  const inSession = status.session_id !== undefined;
  const expiry =
    status.expires_at === undefined || inSession ? null : describeExpiry(status.expires_at, now);
  const hasKey = status.api_key_name !== undefined || status.api_key_obfuscated_value !== undefined;
  // Without an expiry, a key never expires; a status that names no key says nothing of it.
  const isKey =
    !inSession && (hasKey || status.api_key_id !== undefined || status.auth_type === 'api_key');

  return (
    <>
      <dl className="whoami-fields">
        {status.name !== undefined && <Row term="Name">{status.name}</Row>}
        {status.email !== undefined && <Row term="Email">{status.email}</Row>}
        {status.role !== undefined && <Row term="Role">{status.role}</Row>}
        {status.account_id !== undefined && (
          <Row term="Account">
            <code>{status.account_id}</code>
          </Row>
        )}
        {status.account_type !== undefined && <Row term="Account type">{status.account_type}</Row>}
        <Row term="Organization">
          {status.organization_name !== undefined && `${status.organization_name} `}
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
