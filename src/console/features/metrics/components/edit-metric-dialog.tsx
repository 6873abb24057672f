/** "Edit <name>": sends only the fields that changed; results use them from their next computation. */
import { useRef, useState } from 'react';
import type { Metric, UpdateMetricRequest } from '../../../../contract/experiments';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { ErrorAlert } from '../../../components/error-alert';
import { Form, type FormMethods } from '../../../components/form';
import { placeServerErrors } from '../../../components/form-rules';
import { describeError } from '../../../lib/api-client';
import { notify } from '../../../lib/notices';
import { useUpdateMetric } from '../api/update-metric';
import {
  METRIC_FIELDS,
  updateMetricFormSchema,
  valuesOfMetric,
  type MetricFormValues,
} from '../metric-form';
import { MetricFields } from './metric-fields';

export const NOTHING_CHANGED = 'Nothing changed: change a field, or Cancel.';

export function EditMetricDialog({ metric, onClose }: { metric: Metric; onClose: () => void }) {
  const update = useUpdateMetric();
  const [failure, setFailure] = useState<string | null>(null);
  const cancel = useRef<HTMLButtonElement>(null);

  const onSubmit = (
    change: UpdateMetricRequest,
    { setError }: FormMethods<MetricFormValues, UpdateMetricRequest>,
  ) => {
    setFailure(null);
    if (Object.keys(change).length === 0) {
      setFailure(NOTHING_CHANGED);
      return;
    }
    update.mutate(
      { id: metric.id, change },
      {
        onSuccess: (saved) => {
          notify(`Saved the metric ${saved.name}.`);
          onClose();
        },
        onError: (error) => {
          if (!placeServerErrors(error, METRIC_FIELDS, setError)) {
            setFailure(`The metric was not saved. ${describeError(error)}`);
          }
        },
      },
    );
  };

  return (
    <Dialog open onClose={onClose} title={`Edit ${metric.name}`}>
      <Form
        schema={updateMetricFormSchema(metric)}
        defaultValues={valuesOfMetric(metric)}
        onSubmit={onSubmit}
      >
        <p>
          Id <code>{metric.id}</code> (tests name it by this id, so it does not change). Results use
          the new definition from their next computation.
        </p>
        <MetricFields withId={false} />
        <ErrorAlert>{failure}</ErrorAlert>
        <DialogActions
          confirmLabel="Save"
          confirmVariant="primary"
          onCancel={onClose}
          pending={update.isPending}
          cancelRef={cancel}
        />
      </Form>
    </Dialog>
  );
}
