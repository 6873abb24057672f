import type { ApiKey } from '../../../../contract/api-keys';
import { KeyStatus, type KeyState } from '../../../components/key-status';
import { Time } from '../../../components/time';
import { DataTable } from '../../../components/data-table';

export function stateOf(key: ApiKey, now: number): KeyState {
  if (key.revoked_at !== null) return 'Revoked';
  if (key.expires_at !== null && Date.parse(key.expires_at) <= now) return 'Expired';
  return 'Active';
}

interface ApiKeyTableProps {
  keys: readonly ApiKey[];
  now: number;
  onRevoke: (key: ApiKey) => void;
}

/** The account's keys; an active key has its Revoke button in the Status cell. */
export function ApiKeyTable({ keys, now, onRevoke }: ApiKeyTableProps) {
  return (
    <DataTable
      caption="API keys"
      columns={['Name', 'Key', 'Permissions', 'Created', 'Last used', 'Expires', 'Status']}
      rows={keys}
      empty="No API keys yet."
    >
      {(key) => (
        <tr key={key.id}>
          <td>{key.name}</td>
          <td>
            <code>{key.obfuscated_value}</code>
          </td>
          <td>{key.permissions.length > 0 ? key.permissions.join(', ') : 'None'}</td>
          <td>
            <Time value={key.created_at} empty="Unknown" />
          </td>
          <td>
            <Time value={key.last_used_at} empty="Never" />
          </td>
          <td>
            <Time value={key.expires_at} empty="Never" />
          </td>
          <td>
            <KeyStatus state={stateOf(key, now)} name={key.name} onRevoke={() => onRevoke(key)} />
          </td>
        </tr>
      )}
    </DataTable>
  );
}
