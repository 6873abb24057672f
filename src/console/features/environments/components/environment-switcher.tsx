/**
 * The environment in the banner, on every page: "Acme · Production", coloured by type (the
 * production colour unmistakable), and the choice of another account of the organization,
 * which opens in this tab at the same section. The account is part of the address
 * (lib/environment.ts), so another tab keeps its own.
 */
import { useEffect, useId } from 'react';
import { useLocation } from 'react-router';
import { useAuthStatus } from '../../../lib/auth';
import { useConnection } from '../../../lib/connection';
import { accountOfPath, pathInAccount } from '../../../lib/environment';
import { typeLabel, useAccounts } from '../../../api/accounts';

export function EnvironmentSwitcher() {
  const selectId = useId();
  const status = useAuthStatus().data;
  const accounts = useAccounts().data;
  const connection = useConnection();
  // Read from the whole address (the router sees it without the account); heard on each move.
  useLocation();
  const fullPath = window.location.pathname;
  const named = accountOfPath(fullPath);
  const currentId = named ?? status?.account_id;
  const current = accounts?.find((account) => account.id === currentId);

  // A person in several accounts names one in every request: an address without one moves
  // to the account signed in to (a session only: a key held in memory would not survive).
  const several = (accounts?.length ?? 0) > 1;
  useEffect(() => {
    if (named === null && several && status?.account_id && connection?.apiKey === null) {
      window.location.replace(pathInAccount(status.account_id, fullPath) + window.location.search);
    }
  }, [named, several, status?.account_id, connection?.apiKey, fullPath]);

  if (!accounts || !current) return null;
  const organization = status?.organization_name;
  return (
    <div className={`environment environment-${current.account_type}`}>
      <span className="environment-name" aria-live="polite">
        {organization ? `${organization} · ` : ''}
        {current.name}
        <span className="environment-type">{typeLabel(current.account_type)}</span>
      </span>
      {several && (
        <>
          <label htmlFor={selectId} className="visually-hidden">
            Environment
          </label>
          <select
            id={selectId}
            value={current.id}
            onChange={(event) => {
              window.location.assign(pathInAccount(event.target.value, fullPath));
            }}
          >
            {accounts.map((account) => (
              <option key={account.id} value={account.id}>
                {account.name} ({typeLabel(account.account_type)})
              </option>
            ))}
          </select>
        </>
      )}
    </div>
  );
}
