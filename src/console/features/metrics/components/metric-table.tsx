/** The account's metrics, with the tests that use each, and Edit and Delete for editors. */
import { Fragment } from 'react';
import { Link } from 'react-router';
import type { Metric } from '../../../../contract/experiments';
import { Button } from '../../../components/button';
import { DataTable } from '../../../components/data-table';
import { KIND_WORDS } from '../metric-form';

/** "checkout-flow (goal), speed-test (guardrail)". */
export function usedByWords(metric: Metric): string {
  return metric.used_by.map((use) => `${use.test_id} (${use.role})`).join(', ');
}

interface MetricTableProps {
  metrics: readonly Metric[];
  /** Given (the key may change metrics): each row offers Edit and Delete. */
  onEdit: ((metric: Metric) => void) | undefined;
  onDelete: ((metric: Metric) => void) | undefined;
}

export function MetricTable({ metrics, onEdit, onDelete }: MetricTableProps) {
  const changes = onEdit !== undefined && onDelete !== undefined;
  return (
    <DataTable
      caption="Metrics"
      columns={[
        'Metric',
        'Measures',
        'Event',
        'Window',
        'Lower is better',
        'Cap',
        'Used by',
        ...(changes ? ['Actions'] : []),
      ]}
      rows={metrics}
      empty="No metrics yet."
    >
      {(metric) => (
        <tr key={metric.id}>
          <th scope="row">
            {metric.name}
            <p className="muted cell-note">
              <code>{metric.id}</code>
            </p>
          </th>
          <td>{KIND_WORDS[metric.kind]}</td>
          <td>
            <code>{metric.event}</code>
          </td>
          <td>{metric.window_hours} h</td>
          <td>{metric.inverse ? 'Yes' : 'No'}</td>
          <td>{metric.cap ?? '—'}</td>
          <td>
            {metric.used_by.length === 0
              ? 'No test'
              : metric.used_by.map((use, index) => (
                  <Fragment key={`${use.test_id} ${use.role}`}>
                    {index > 0 && ', '}
                    <Link to={`/ab-tests/live/${encodeURIComponent(use.test_id)}`}>
                      {use.test_id}
                    </Link>{' '}
                    ({use.role})
                  </Fragment>
                ))}
          </td>
          {changes && (
            <td>
              <div className="row-actions">
                <Button onClick={() => onEdit(metric)} aria-label={`Edit ${metric.name}`}>
                  Edit
                </Button>
                <Button
                  variant="danger"
                  onClick={() => onDelete(metric)}
                  aria-label={`Delete ${metric.name}`}
                >
                  Delete
                </Button>
              </div>
            </td>
          )}
        </tr>
      )}
    </DataTable>
  );
}
