import { useId, useRef, useState } from 'react';
import type { ConfigContents } from '../../../../configs';
import type { AuthStatus } from '../../../../contract/auth-status';
import type { ClientKey } from '../../../../contract/delivery';
import { LoadMore } from '../../../components/load-more';
import { ManagedSection } from '../../../components/managed-section';
import { ShownOnce } from '../../../components/shown-once';
import { useConnection } from '../../../lib/connection';
import { offers } from '../../../lib/permissions';
import { useClientKeys } from '../api/get-client-keys';
import { absoluteBaseUrl, clientSnippet } from '../client-snippet';
import { ClientKeyTable } from './client-key-table';
import { ClientSnippetView } from './client-snippet-view';
import { CreateClientKeyForm } from './create-client-key-form';
import { RevokeClientKeyDialog } from './revoke-client-key-dialog';

export const CANNOT_MANAGE_CLIENT_KEYS =
  'You cannot manage client keys: that needs the client_keys:manage permission.';

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
 * client_keys:manage. Others are told why there is nothing to manage.
 */
export function ClientKeysSection({
  status,
  contents,
}: {
  status: AuthStatus;
  /** The live config's apps and tests; undefined while it loads. */
  contents: ConfigContents | null | undefined;
}) {
  const canManage = offers(status, 'client_keys:manage');
  const keys = useClientKeys({ enabled: canManage });
  const snippetsId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [revoking, setRevoking] = useState<ClientKey | null>(null);
  const [created, setCreated] = useState<ClientKey | null>(null);
  const snippetOf = useSnippetOf(contents);

  const active = canManage ? (keys.data ?? []).filter((key) => key.revoked_at === null) : [];
  return (
    <>
      <ManagedSection
        title="Client keys"
        allowed={canManage}
        notAllowed={CANNOT_MANAGE_CLIENT_KEYS}
        query={keys}
        notOffered="This server does not offer client keys."
        loading="Loading client keys…"
        failure="The client keys could not be loaded."
        intro={
          <p className="field-hint">
            Apps read their live settings with a client key. It is built into the apps, so it is not
            a secret: it reads nothing but the settings of its apps.
          </p>
        }
        headingRef={heading}
        dialog={
          <RevokeClientKeyDialog
            clientKey={revoking}
            onClose={() => setRevoking(null)}
            returnFocus={heading}
          />
        }
      >
        {(list) => (
          <>
            <ClientKeyTable keys={list} onRevoke={setRevoking} />
            <LoadMore more={keys.more} what="client keys" />
            <CreateClientKeyForm
              apps={contents === undefined ? undefined : (contents?.apps ?? [])}
              onCreated={setCreated}
            />
            {created && (
              // Not a secret (it stays in the list), but shown the same way as one.
              <ShownOnce
                intro={
                  <>
                    Created <strong>{created.name}</strong>. Build it into your apps: it only reads
                    their live settings, so it is not a secret.
                  </>
                }
                label="New client key"
                value={created.key}
                copyLabel="Copy key"
                copied="Client key"
                onDone={() => setCreated(null)}
              >
                <ClientSnippetView snippet={snippetOf(created)} keyName={created.name} />
              </ShownOnce>
            )}
          </>
        )}
      </ManagedSection>
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
