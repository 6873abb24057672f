/** "Define a metric": the server's field errors go beside their fields, a 409 is said in words. */
import { useId, useState } from 'react';
import type { CreateMetricRequest } from '../../../../contract/experiments';
import { Form, FormActions, type FormMethods } from '../../../components/form';
import { placeServerErrors } from '../../../components/form-rules';
import { describeError } from '../../../lib/api-client';
import { notify } from '../../../lib/notices';
import { useCreateMetric } from '../api/create-metric';
import {
  createMetricFormSchema,
  METRIC_FIELDS,
  NEW_METRIC,
  type MetricFormValues,
} from '../metric-form';
import { MetricFields } from './metric-fields';

export function CreateMetricForm() {
  const titleId = useId();
  const create = useCreateMetric();
  const [failure, setFailure] = useState<string | null>(null);

  const onSubmit = (
    request: CreateMetricRequest,
    { reset, setError }: FormMethods<MetricFormValues, CreateMetricRequest>,
  ) => {
    setFailure(null);
    create.mutate(request, {
      onSuccess: (metric) => {
        reset();
        notify(`Defined the metric ${metric.name} (${metric.id}).`);
      },
      onError: (error) => {
        if (!placeServerErrors(error, METRIC_FIELDS, setError)) {
          setFailure(`The metric was not defined. ${describeError(error)}`);
        }
      },
    });
  };

  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId}>Define a metric</h2>
      <Form
        schema={createMetricFormSchema}
        defaultValues={NEW_METRIC}
        onSubmit={onSubmit}
        aria-labelledby={titleId}
      >
        <MetricFields withId />
        <FormActions failure={failure} submitLabel="Define metric" pending={create.isPending} />
      </Form>
    </section>
  );
}
