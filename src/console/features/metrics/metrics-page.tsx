/**
 * `/metrics`: what an event means for an A/B test. Everyone reads the list and which tests
 * use each metric; defining, editing and deleting need `config:write`.
 */
import { useState } from 'react';
import type { Metric } from '../../../contract/experiments';
import { ManagedSection } from '../../components/managed-section';
import { useAuthStatus } from '../../lib/auth';
import { usePageTitle } from '../../lib/page-title';
import { offers } from '../../lib/permissions';
import { useMetrics } from './api/get-metrics';
import { CreateMetricForm } from './components/create-metric-form';
import { DeleteMetricDialog } from './components/delete-metric-dialog';
import { EditMetricDialog } from './components/edit-metric-dialog';
import { MetricTable } from './components/metric-table';

export const CANNOT_CHANGE_METRICS =
  'Defining, editing and deleting metrics needs the config:write permission.';

export function MetricsPage() {
  usePageTitle('Metrics');
  const auth = useAuthStatus();
  const metrics = useMetrics();
  const [editing, setEditing] = useState<Metric | null>(null);
  const [deleting, setDeleting] = useState<Metric | null>(null);
  const writes = offers(auth.data, 'config:write');

  return (
    <div className="page">
      <h1>Metrics</h1>
      <p>
        A metric says what an event means for an A/B test: whether a unit did it (a conversion), how
        often, or the sum of its values. A test names its goals in its config&rsquo;s{' '}
        <code>metrics:</code> list (the first is the primary goal) and its guardrails in{' '}
        <code>guardrails:</code>, by id.
      </p>
      <ManagedSection
        title="All metrics"
        allowed
        query={metrics}
        notOffered="This server does not offer metrics."
        loading="Loading the metrics…"
        failure="The metrics could not be loaded."
        intro={writes ? undefined : <p className="muted">{CANNOT_CHANGE_METRICS}</p>}
        dialog={
          <>
            {editing && <EditMetricDialog metric={editing} onClose={() => setEditing(null)} />}
            {deleting && <DeleteMetricDialog metric={deleting} onClose={() => setDeleting(null)} />}
          </>
        }
      >
        {(list) => (
          <MetricTable
            metrics={list}
            onEdit={writes ? setEditing : undefined}
            onDelete={writes ? setDeleting : undefined}
          />
        )}
      </ManagedSection>
      {writes && metrics.data !== null && <CreateMetricForm />}
    </div>
  );
}
