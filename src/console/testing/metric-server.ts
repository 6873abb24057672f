/**
 * An account's metrics in memory, over the contract's handlers (msw-contract.ts), for the
 * Metrics page's tests: it keeps the bodies it received, and refuses as the service does
 * when told to (a field error, a taken id).
 */
import type { HttpHandler } from 'msw';
import type { CreateMetricRequest, Metric, MetricRole } from '../../contract/experiments';
import { problemOf } from '../../contract/problem';
import { handle } from './msw-contract';

const AT = '2026-11-22T10:00:00.000Z';

export class MetricServer {
  readonly metrics: Metric[] = [];
  /** What each change request carried, in order. */
  readonly created: CreateMetricRequest[] = [];
  readonly updated: { id: string; body: unknown }[] = [];
  readonly deleted: string[] = [];
  /** When set, the next create or update is refused with a 400 at this field. */
  refuseField: { path: string; message: string } | null = null;
  readonly handlers: readonly HttpHandler[];

  constructor(metrics: readonly (CreateMetricRequest & { used_by?: Metric['used_by'] })[] = []) {
    for (const metric of metrics) this.add(metric, metric.used_by ?? []);
    this.handlers = [
      handle('listMetrics', () => ({ status: 200, body: this.metrics })),
      handle('createMetric', ({ body }) => {
        this.created.push(body);
        const refused = this.refusal();
        if (refused) return refused;
        if (this.metrics.some((metric) => metric.id === body.id)) {
          return {
            problem: problemOf('conflict', `A metric with the id ${body.id} exists already`),
          };
        }
        return { status: 201, body: this.add(body, []) };
      }),
      handle('updateMetric', ({ params, body }) => {
        this.updated.push({ id: params.metric_id, body });
        const refused = this.refusal();
        if (refused) return refused;
        const metric = this.metrics.find((candidate) => candidate.id === params.metric_id);
        if (!metric) return { problem: problemOf('not_found', `No metric ${params.metric_id}`) };
        Object.assign(metric, body, { updated_at: AT });
        return { status: 200, body: metric };
      }),
      handle('deleteMetric', ({ params }) => {
        this.deleted.push(params.metric_id);
        const index = this.metrics.findIndex((metric) => metric.id === params.metric_id);
        if (index < 0) return { problem: problemOf('not_found', `No metric ${params.metric_id}`) };
        this.metrics.splice(index, 1);
        return { status: 204 };
      }),
    ];
  }

  private refusal() {
    const field = this.refuseField;
    if (field === null) return null;
    this.refuseField = null;
    return {
      problem: problemOf('invalid_request', `${field.path.slice(1)} ${field.message}`, {
        errors: [field],
      }),
    };
  }

  add(request: CreateMetricRequest, usedBy: { test_id: string; role: MetricRole }[]): Metric {
    const metric: Metric = {
      id: request.id,
      name: request.name,
      kind: request.kind,
      event: request.event,
      window_hours: request.window_hours ?? 72,
      inverse: request.inverse ?? false,
      cap: request.cap ?? null,
      used_by: usedBy,
      created_at: AT,
      updated_at: AT,
    };
    this.metrics.push(metric);
    return metric;
  }
}
