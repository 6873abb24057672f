/**
 * `/audit`: the account's audit trail, newest first, filtered on the server (what happened,
 * on what, by which key, between which days), page by page; and the same records exported
 * as NDJSON for a security team's tools.
 */
import { useId, useState } from 'react';
import type { AuditEntry } from '../../../contract/audit';
import { AUDIT_EXPORT_CONTENT_TYPE } from '../../../contract/audit';
import { API_BASE_PATH } from '../../../contract/endpoint-kit';
import { Button } from '../../components/button';
import { DataTable } from '../../components/data-table';
import { LoadMore } from '../../components/load-more';
import { Spinner } from '../../components/spinner';
import { describeError } from '../../lib/api-client';
import { useConnection } from '../../lib/connection';
import { useListPages } from '../../lib/list-pages';
import { usePageTitle } from '../../lib/page-title';
import { queryKeysOf } from '../../lib/resource-queries';
import { formatAbsolute } from '../../lib/time';
import { auditEndpoints } from '../../../contract/audit-endpoints';

const auditKeys = queryKeysOf('audit');

/** The families of actions, as the `action` filter takes them (a prefix ending in a dot). */
const ACTION_FAMILIES: Readonly<Record<string, string>> = {
  '': 'Everything',
  'config.': 'Configs (edits, publishes, reviews, A/B steps)',
  'api_key.': 'API keys',
  'client_key.': 'Client keys',
  'webhook.': 'Webhooks',
  'metric.': 'Metrics',
  'account.': 'Account and policy',
  'user.': 'Users',
};

interface Filters {
  readonly action: string;
  readonly target: string;
  readonly from: string;
  readonly to: string;
}

const NO_FILTERS: Filters = { action: '', target: '', from: '', to: '' };

/** The query the filters make: dates are whole days, `to` included (the API's is excluded). */
function queryOf(filters: Filters) {
  const dayAfter = (day: string) =>
    new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString();
  return {
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.target.trim() ? { target: filters.target.trim() } : {}),
    ...(filters.from ? { from: `${filters.from}T00:00:00.000Z` } : {}),
    ...(filters.to ? { to: dayAfter(filters.to) } : {}),
  };
}

function actorOf(entry: AuditEntry): string {
  if (entry.actor.type === 'system') return 'The operator or the service';
  const names = [entry.actor.email, entry.actor.name && `(${entry.actor.name})`].filter(Boolean);
  return names.length > 0 ? names.join(' ') : (entry.actor.id ?? 'Unknown');
}

export function AuditPage() {
  usePageTitle('Audit trail');
  const connection = useConnection();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [exportError, setExportError] = useState<string | null>(null);
  const query = queryOf(filters);
  const trail = useListPages(auditEndpoints.getAudit, {
    key: auditKeys.pages(),
    query,
    keepPrevious: true,
  });
  const ids = { action: useId(), target: useId(), from: useId(), to: useId(), list: useId() };
  const set = (change: Partial<Filters>) => setFilters({ ...filters, ...change });

  const exportTrail = async () => {
    if (!connection) return;
    setExportError(null);
    const params = new URLSearchParams(query);
    try {
      const answer = await fetch(`${connection.baseUrl}${API_BASE_PATH}/audit/export?${params}`, {
        // The key held in memory, or else the session cookie (same origin only).
        headers:
          connection.apiKey === null
            ? { accept: AUDIT_EXPORT_CONTENT_TYPE }
            : { authorization: `Bearer ${connection.apiKey}`, accept: AUDIT_EXPORT_CONTENT_TYPE },
        credentials: 'same-origin',
      });
      if (!answer.ok) throw new Error(`the server answered ${answer.status}`);
      const url = URL.createObjectURL(await answer.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = 'audit.ndjson';
      link.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      setExportError(`The export failed: ${describeError(error)}`);
    }
  };

  return (
    <div className="page">
      <h1>Audit trail</h1>
      <p>
        Every change to this account: who made it, from which address, on what. Secrets never
        appear; webhook URLs show their host only.
      </p>
      <section
        aria-labelledby={ids.list}
        aria-busy={trail.isFetching || undefined}
        className="card"
      >
        <h2 id={ids.list} className="visually-hidden">
          Records
        </h2>
        <div className="list-filters" role="search" aria-label="Filter the audit trail">
          <div className="field">
            <label htmlFor={ids.action}>What</label>
            <select
              id={ids.action}
              value={filters.action}
              onChange={(event) => set({ action: event.target.value })}
            >
              {Object.entries(ACTION_FAMILIES).map(([value, words]) => (
                <option key={value} value={value}>
                  {words}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={ids.target}>On (an id)</label>
            <input
              id={ids.target}
              type="search"
              value={filters.target}
              maxLength={100}
              placeholder="cfg_…, key_…, wh_…"
              autoComplete="off"
              onChange={(event) => set({ target: event.target.value })}
            />
          </div>
          <div className="field">
            <label htmlFor={ids.from}>From</label>
            <input
              id={ids.from}
              type="date"
              value={filters.from}
              onChange={(event) => set({ from: event.target.value })}
            />
          </div>
          <div className="field">
            <label htmlFor={ids.to}>To</label>
            <input
              id={ids.to}
              type="date"
              value={filters.to}
              onChange={(event) => set({ to: event.target.value })}
            />
          </div>
        </div>
        <p>
          <Button onClick={() => void exportTrail()}>Export as NDJSON</Button>
        </p>
        {exportError && (
          <div className="alert alert-error" role="alert">
            <p>{exportError}</p>
          </div>
        )}
        {trail.isPending ? (
          <Spinner label="Loading the audit trail…" />
        ) : trail.isError ? (
          <div className="alert alert-error" role="alert">
            <p>The audit trail could not be loaded. {describeError(trail.error)}</p>
            <Button onClick={() => void trail.refetch()}>Try again</Button>
          </div>
        ) : (
          <>
            <DataTable
              caption="Audit trail"
              columns={['When', 'Who', 'What', 'On', 'From']}
              rows={trail.data ?? []}
              empty="Nothing recorded that matches."
            >
              {(entry) => (
                <tr key={entry.id}>
                  <td>
                    <time dateTime={entry.at} className="nowrap">
                      {formatAbsolute(entry.at)}
                    </time>
                  </td>
                  <td>{actorOf(entry)}</td>
                  <td>
                    <code>{entry.action}</code>
                  </td>
                  <td>
                    {entry.target ? (
                      <code>{entry.target.id}</code>
                    ) : (
                      <span className="muted">None</span>
                    )}
                  </td>
                  <td>{entry.ip ?? <span className="muted">The command line</span>}</td>
                </tr>
              )}
            </DataTable>
            <LoadMore more={trail.more} what="records" />
          </>
        )}
      </section>
    </div>
  );
}
