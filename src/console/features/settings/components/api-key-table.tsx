import type { ApiKey } from '../../../../contract/api-keys';
import { formatAbsolute } from '../../../lib/time';

export type ApiKeyState = 'Active' | 'Revoked' | 'Expired';

export function stateOf(key: ApiKey, now: number): ApiKeyState {
  if (key.revoked_at !== null) return 'Revoked';
  if (key.expires_at !== null && Date.parse(key.expires_at) <= now) return 'Expired';
  return 'Active';
}

/** Date and time wrap between them, never inside. */
function Time({ value, empty }: { value: string | null; empty: string }) {
  if (value === null) return empty;
  const [date, ...rest] = formatAbsolute(value).split(' ');
  return (
    <time dateTime={value}>
      <span className="nowrap">{date}</span> <span className="nowrap">{rest.join(' ')}</span>
    </time>
  );
}

interface ApiKeyTableProps {
  keys: readonly ApiKey[];
  now: number;
  onRevoke: (key: ApiKey) => void;
}

/** The account's keys; an active key has its Revoke button in the Status cell. */
export function ApiKeyTable({ keys, now, onRevoke }: ApiKeyTableProps) {
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">API keys</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Permissions</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {keys.length === 0 && (
            <tr>
              <td colSpan={7}>No API keys yet.</td>
            </tr>
          )}
          {keys.map((key) => {
            const state = stateOf(key, now);
            return (
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
                  <span className={`key-state key-state-${state.toLowerCase()}`}>{state}</span>
                  {state === 'Active' && (
                    <button
                      type="button"
                      className="button button-danger button-small"
                      onClick={() => onRevoke(key)}
                      // The row shows the name; the accessible name carries it too.
                      aria-label={`Revoke ${key.name}`}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
