/** "Delete <name>?": warns, by name, of the tests that use the metric. */
import type { Metric } from '../../../../contract/experiments';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { notify } from '../../../lib/notices';
import { useDeleteMetric } from '../api/delete-metric';
import { usedByWords } from './metric-table';

export function DeleteMetricDialog({ metric, onClose }: { metric: Metric; onClose: () => void }) {
  const remove = useDeleteMetric();
  const close = () => {
    remove.reset();
    onClose();
  };
  const tests = metric.used_by.length;

  return (
    <ConfirmDialog
      open
      title={`Delete ${metric.name}?`}
      confirmLabel="Delete"
      onConfirm={() =>
        remove.mutate(metric.id, {
          onSuccess: () => {
            notify(`Deleted the metric ${metric.name}.`);
            close();
          },
        })
      }
      onClose={close}
      pending={remove.isPending}
      error={remove.error}
      failure="The metric was not deleted."
    >
      {tests === 0 ? (
        <p>
          No A/B test of the live config uses <code>{metric.id}</code>. This cannot be undone.
        </p>
      ) : (
        <div className="alert alert-warning">
          <p>
            {tests === 1 ? 'One A/B test uses' : `${tests} A/B tests use`} this metric:{' '}
            {usedByWords(metric)}.
          </p>
          <p>
            Their configs will warn that <code>{metric.id}</code> is not a metric, and their results
            will leave it out. This cannot be undone.
          </p>
        </div>
      )}
    </ConfirmDialog>
  );
}
