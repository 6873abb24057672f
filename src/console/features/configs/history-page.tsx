import { useId } from 'react';
import { Link, useParams } from 'react-router';
import type { HistoryEntry } from '../../../contract/configs';
import { Button } from '../../components/button';
import { Spinner } from '../../components/spinner';
import { ApiProblem, describeError } from '../../lib/api-client';
import { usePageTitle } from '../../lib/page-title';
import { formatAbsolute } from '../../lib/time';
import { useConfigHistory } from './api/get-config-history';
import { LIVE, useConfig } from '../../api/get-config';
import { DataTable } from '../../components/data-table';
import { LoadMore } from '../../components/load-more';

const ACTION_WORDS: Record<HistoryEntry['action'], string> = {
  create: 'Created',
  edit: 'Edited',
  publish: 'Published',
  activate: 'Made live',
  lifecycle: 'A/B test step',
  review_request: 'Review requested',
  approve: 'Approved',
  request_changes: 'Changes requested',
  publish_on_approval: 'Published on approval',
};

function whoOf(entry: HistoryEntry): string {
  if (entry.actor_email && entry.api_key_name)
    return `${entry.actor_email} (${entry.api_key_name})`;
  return entry.actor_email ?? entry.api_key_name ?? 'The operator';
}

/** "create_app ×2, set ×1", with the operations themselves on request. */
function Operations({ entry }: { entry: HistoryEntry }) {
  if (entry.operations.length === 0) return <span className="muted">None</span>;
  const counts = new Map<string, number>();
  for (const operation of entry.operations) {
    for (const [action, items] of Object.entries(operation)) {
      counts.set(action, (counts.get(action) ?? 0) + (Array.isArray(items) ? items.length : 0));
    }
  }
  const summary = [...counts].map(([action, count]) => `${action} ×${count}`).join(', ');
  return (
    <details className="history-operations">
      <summary>{summary}</summary>
      <pre>{JSON.stringify(entry.operations, null, 2)}</pre>
    </details>
  );
}

/** `/configs/:id/history`: who changed the config (and the configs it descends from), when. */
export function HistoryPage() {
  const { id = '' } = useParams();
  const config = useConfig(id);
  // `/configs/live/history` reads the live config's history.
  const configId = id === LIVE ? (config.data?.id ?? null) : id;
  const history = useConfigHistory(configId);
  const label = config.data?.label;
  usePageTitle(label ? `History of ${label}` : 'History');
  const tableId = useId();

  const error = config.error ?? history.error;
  return (
    <div className="page">
      <h1>{label ? `History of ${label}` : 'History'}</h1>
      {config.data && (
        <p>
          <Link to={`/configs/${encodeURIComponent(config.data.id)}`}>
            Back to {config.data.label}
          </Link>
        </p>
      )}
      {error ? (
        <div className="alert alert-error" role="alert">
          <p>
            {error instanceof ApiProblem && error.status === 404
              ? `There is no config ${id} in this account, or this server does not offer its history.`
              : `The history could not be loaded. ${describeError(error)}`}
          </p>
          <Button
            onClick={() => {
              void config.refetch();
              void history.refetch();
            }}
          >
            Try again
          </Button>
        </div>
      ) : history.isPending || !history.data ? (
        <Spinner label="Loading the history…" />
      ) : (
        <section className="card" aria-labelledby={tableId}>
          <h2 id={tableId} className="visually-hidden">
            Changes
          </h2>
          <DataTable
            caption="History"
            columns={['When', 'Who', 'Action', 'Summary', 'Operations']}
            rows={history.data}
            empty="No changes yet."
          >
            {(entry, index) => (
              <tr key={`${entry.at}-${entry.config_id}-${entry.revision}-${index}`}>
                <td>
                  <time dateTime={entry.at} className="nowrap">
                    {formatAbsolute(entry.at)}
                  </time>
                </td>
                <td>{whoOf(entry)}</td>
                <td>{`${ACTION_WORDS[entry.action]} (revision ${entry.revision})`}</td>
                <td>{entry.summary ?? <span className="muted">None</span>}</td>
                <td>
                  <Operations entry={entry} />
                </td>
              </tr>
            )}
          </DataTable>
          <LoadMore more={history.more} what="changes" />
        </section>
      )}
    </div>
  );
}
