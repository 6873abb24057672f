import { useId, useRef, useState } from 'react';
import type { ConfigContents } from '../../../../configs';
import type { AuthStatus } from '../../../../contract/auth-status';
import type { ClientKey } from '../../../../contract/delivery';
import { Button } from '../../../components/button';
import { Spinner } from '../../../components/spinner';
import { describeError } from '../../../lib/api-client';
import { useConnection } from '../../../lib/connection';
import { offers } from '../../../lib/permissions';
import { useClientKeys } from '../api/get-client-keys';
import { absoluteBaseUrl, clientSnippet } from '../client-snippet';
import { ClientKeyTable } from './client-key-table';
import { ClientSnippetView } from './client-snippet-view';
import { CreateClientKeyForm } from './create-client-key-form';
import { NewClientKey } from './new-client-key';
import { RevokeClientKeyDialog } from './revoke-client-key-dialog';

export const CANNOT_MANAGE_CLIENT_KEYS =
  'Your API key cannot manage client keys: that needs the api_keys:manage permission.';

/** The snippet of `key`: its first app (or the live config's first), that app's first running test. */
export function useSnippetOf(contents: ConfigContents | null | undefined) {
  const connection = useConnection();
  const baseUrl = absoluteBaseUrl(connection?.baseUrl ?? '/', window.location.origin);
  return (key: ClientKey) => {
    const app = key.apps?.[0] ?? contents?.apps[0]?.id;
    const test = contents?.abTests.find(
      (candidate) => candidate.app === app && candidate.status === 'running',
    )?.id;
    return clientSnippet({ baseUrl, clientKey: key.key, app, test });
  };
}

/**
 * The account's client keys, their snippets, Create and Revoke: for a key that holds
 * api_keys:manage. Others are told why there is nothing to manage.
 */
export function ClientKeysSection({
  status,
  contents,
}: {
  status: AuthStatus;
  /** The live config's apps and tests; undefined while it loads. */
  contents: ConfigContents | null | undefined;
}) {
  const canManage = offers(status, 'api_keys:manage');
  const keys = useClientKeys({ enabled: canManage });
  const titleId = useId();
  const snippetsId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [revoking, setRevoking] = useState<ClientKey | null>(null);
  const [created, setCreated] = useState<ClientKey | null>(null);
  const snippetOf = useSnippetOf(contents);

  if (!canManage) {
    return (
      <section className="card" aria-labelledby={titleId}>
        <h2 id={titleId}>Client keys</h2>
        <p>{CANNOT_MANAGE_CLIENT_KEYS}</p>
      </section>
    );
  }

  const active = (keys.data ?? []).filter((key) => key.revoked_at === null);
  return (
    <>
      <section className="card" aria-labelledby={titleId} aria-busy={keys.isPending || undefined}>
        <h2 id={titleId} ref={heading} tabIndex={-1}>
          Client keys
        </h2>
        <p className="field-hint">
          Apps read their live settings with a client key. It is built into the apps, so it is not a
          secret: it reads nothing but the settings of its apps.
        </p>
        {keys.isPending ? (
          <Spinner label="Loading client keys…" />
        ) : keys.isError ? (
          <div className="alert alert-error" role="alert">
            <p>The client keys could not be loaded. {describeError(keys.error)}</p>
            <Button onClick={() => void keys.refetch()}>Try again</Button>
          </div>
        ) : keys.data === null ? (
          <p>This server does not offer client keys.</p>
        ) : (
          <>
            <ClientKeyTable keys={keys.data} onRevoke={setRevoking} />
            <CreateClientKeyForm
              apps={contents === undefined ? undefined : (contents?.apps ?? [])}
              onCreated={setCreated}
            />
            {created && (
              <NewClientKey
                created={created}
                snippet={snippetOf(created)}
                onDone={() => setCreated(null)}
              />
            )}
          </>
        )}
        <RevokeClientKeyDialog
          clientKey={revoking}
          onClose={() => setRevoking(null)}
          returnFocus={heading}
        />
      </section>
      {active.length > 0 && (
        <section className="card" aria-labelledby={snippetsId}>
          <h2 id={snippetsId}>Use a key in an app</h2>
          <p className="field-hint">
            The client library, ready to paste: it reads the app&apos;s view once, assigns units
            where it runs (no request per lookup), and hears of each publish.
          </p>
          {active.map((key) => (
            <details key={key.id} className="snippet-details">
              <summary>Snippet for {key.name}</summary>
              <ClientSnippetView snippet={snippetOf(key)} keyName={key.name} />
            </details>
          ))}
        </section>
      )}
    </>
  );
}
