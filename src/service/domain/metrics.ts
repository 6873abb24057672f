/**
 * What the metric endpoints do (docs/experiments.md, Metrics): an account's metrics, each
 * with the A/B tests of its live config that name it. Every change is audited with it.
 */
import {
  DEFAULT_WINDOW_HOURS,
  type CreateMetricRequest,
  type Metric,
  type MetricRole,
  type UpdateMetricRequest,
} from '../../contract/experiments';
import type { MetricChange } from '../store/metrics/metrics';
import type { MetricRecord, Principal } from '../store/records';
import type { Store } from '../store/store';
import { audit } from './audit';
import type { Clock } from './clock';
import type { LiveTest, LiveTestsReader } from './experiments/live-tests';
import { limitReached, LIMITS } from './limits';
import { notFound, Refused } from './refusals';

/** The tests naming each metric id, in the config's order, goals before guardrails. */
type Usage = ReadonlyMap<string, readonly { test_id: string; role: MetricRole }[]>;

export class Metrics {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    /** The live config's tests, read once per live config for events, results and this. */
    private readonly liveTests: LiveTestsReader,
  ) {}

  async list(principal: Principal): Promise<Metric[]> {
    const accountId = principal.account.id;
    const [records, usage] = await Promise.all([
      this.store.listMetrics(accountId),
      this.usageOf(accountId),
    ]);
    return records.map((record) => publicMetric(record, usage));
  }

  async create(principal: Principal, request: CreateMetricRequest): Promise<Metric> {
    const at = this.clock().toISOString();
    const metric: MetricRecord = {
      account_id: principal.account.id,
      id: request.id,
      name: request.name,
      kind: request.kind,
      event: request.event,
      window_hours: request.window_hours ?? DEFAULT_WINDOW_HOURS,
      inverse: request.inverse ?? false,
      cap: request.cap ?? null,
      created_at: at,
      updated_at: at,
    };
    const {
      account_id: _account,
      id,
      created_at: _created,
      updated_at: _updated,
      ...detail
    } = metric;
    const entry = audit(metric.account_id, at, 'metric.created', principal, id, detail);
    const outcome = await this.store.createMetric(metric, entry, LIMITS.metrics);
    if (outcome === 'id_taken') {
      throw new Refused('conflict', `The account already has a metric with the id "${id}"`);
    }
    if (outcome === 'limit_reached') throw limitReached('metrics');
    return publicMetric(metric, await this.usageOf(metric.account_id));
  }

  async update(principal: Principal, id: string, request: UpdateMetricRequest): Promise<Metric> {
    const accountId = principal.account.id;
    const at = this.clock().toISOString();
    const change: MetricChange = Object.fromEntries(
      Object.entries(request).filter(([, value]) => value !== undefined),
    );
    const entry = audit(accountId, at, 'metric.updated', principal, id, { ...change });
    const updated = await this.store.updateMetric(accountId, id, change, at, entry);
    if (!updated) throw notFound(`The metric ${id}`);
    return publicMetric(updated, await this.usageOf(accountId));
  }

  async delete(principal: Principal, id: string): Promise<void> {
    const accountId = principal.account.id;
    const at = this.clock().toISOString();
    const entry = audit(accountId, at, 'metric.deleted', principal, id, {});
    if (!(await this.store.deleteMetric(accountId, id, entry))) throw notFound(`The metric ${id}`);
  }

  /** Which tests of the account's live config name which metrics. */
  private async usageOf(accountId: string): Promise<Usage> {
    return usageIn((await this.liveTests.currentTests(accountId)).values());
  }
}

/** The account's metric ids, what validating its configs checks tests' metric lists against. */
export async function metricIdsOf(store: Store, accountId: string): Promise<string[]> {
  return (await store.listMetrics(accountId)).map((metric) => metric.id);
}

function usageIn(tests: Iterable<LiveTest>): Usage {
  const usage = new Map<string, { test_id: string; role: MetricRole }[]>();
  for (const test of tests) {
    const named = [
      ...test.metrics.map((id) => ({ id, role: 'goal' as const })),
      ...test.guardrails.map((id) => ({ id, role: 'guardrail' as const })),
    ];
    for (const { id, role } of named) {
      const users = usage.get(id) ?? [];
      // A metric named twice by one test (an error the live config cannot hold) counts once.
      if (!users.some((user) => user.test_id === test.id && user.role === role)) {
        users.push({ test_id: test.id, role });
      }
      usage.set(id, users);
    }
  }
  return usage;
}

function publicMetric(record: MetricRecord, usage: Usage): Metric {
  return {
    id: record.id,
    name: record.name,
    kind: record.kind,
    event: record.event,
    window_hours: record.window_hours,
    inverse: record.inverse,
    cap: record.cap,
    used_by: [...(usage.get(record.id) ?? [])],
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}
