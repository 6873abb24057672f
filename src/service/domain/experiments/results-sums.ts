/**
 * What the background job keeps of a computation: per variant the units, and per metric the
 * sufficient statistics (n, Σx, Σx²) of the units' values. Engines, corrections and
 * intervals are applied to these on reading, which costs microseconds; the sums are what
 * takes reading every exposed unit and its events.
 */
import type { MetricKind, MetricRole } from '../../../contract/experiments';
import type { MetricRecord } from '../../store/records';

export interface Sums {
  readonly n: number;
  readonly sum: number;
  readonly sumSquares: number;
}

export interface MetricSums {
  readonly id: string;
  readonly role: MetricRole;
  /** The definition as it was computed with; null when no metric had this id. */
  readonly name: string | null;
  readonly kind: MetricKind | null;
  readonly inverse: boolean;
  /** By variant id, in the phase's order. */
  readonly variants: Readonly<Record<string, Sums>>;
}

export interface ResultsSums {
  /** Units per variant, in the phase's order, those exposed to several variants left out. */
  readonly units: Readonly<Record<string, number>>;
  readonly multipleExposures: number;
  readonly mismatches: number;
  readonly metrics: readonly MetricSums[];
  /** The events were made up (the demo's simulated results). */
  readonly simulated: boolean;
}

export const EMPTY_SUMS: Sums = { n: 0, sum: 0, sumSquares: 0 };

export function parseSums(json: string): ResultsSums {
  return JSON.parse(json) as ResultsSums;
}

/** A metric as an account defines it (the metrics endpoints), what counting needs of it. */
export type MetricDefinition = Pick<
  MetricRecord,
  'id' | 'name' | 'kind' | 'event' | 'window_hours' | 'inverse' | 'cap'
>;

/** A unit's value for a metric, from its events in the window. */
export function unitValue(
  metric: Pick<MetricDefinition, 'kind' | 'cap'>,
  count: number,
  sum: number,
): number {
  const raw =
    metric.kind === 'binomial' ? (count > 0 ? 1 : 0) : metric.kind === 'count' ? count : sum;
  return metric.cap !== null && raw > metric.cap ? metric.cap : raw;
}
