import type { ClientKey } from '../../../../contract/delivery';
import { KeyStatus } from '../../../components/key-status';
import { Time } from '../../../components/time';
import { copyToClipboard } from '../../../lib/clipboard';
import { DataTable } from '../../../components/data-table';

/** "All apps" for a key of every app, else the apps it reads. */
export function describeApps(apps: readonly string[] | null): string {
  return apps === null ? 'All apps' : apps.join(', ');
}

interface ClientKeyTableProps {
  keys: readonly ClientKey[];
  /** Absent: the key cannot manage client keys; no Revoke buttons. */
  onRevoke?: ((key: ClientKey) => void) | undefined;
}

/** The account's client keys; a key is no secret, so it is shown whole with a Copy button. */
export function ClientKeyTable({ keys, onRevoke }: ClientKeyTableProps) {
  return (
    <DataTable
      caption="Client keys"
      columns={['Name', 'Key', 'Apps', 'Created', 'Status']}
      rows={keys}
      empty="No client keys yet."
    >
      {(key) => (
        <tr key={key.id}>
          <td>{key.name}</td>
          <td>
            <code className="client-key">{key.key}</code>{' '}
            <button
              type="button"
              className="button button-secondary button-small"
              onClick={() => void copyToClipboard(key.key, 'Client key')}
              aria-label={`Copy the key of ${key.name}`}
            >
              Copy
            </button>
          </td>
          <td>{describeApps(key.apps)}</td>
          <td>
            <Time value={key.created_at} />
          </td>
          <td>
            <KeyStatus
              state={key.revoked_at === null ? 'Active' : 'Revoked'}
              name={key.name}
              onRevoke={onRevoke && (() => onRevoke(key))}
            >
              <Time value={key.revoked_at} />
            </KeyStatus>
          </td>
        </tr>
      )}
    </DataTable>
  );
}
