import type {
  Correction,
  Engine,
  MetricKind,
  MetricRole,
  ResultsVariant,
} from '../../../contract/experiments';
import { bayesianTest } from './bayesian';
import { adjustedLevel, adjustPValues } from './corrections';
import { ALPHA, DEFAULT_SEQUENTIAL_TUNING, sequentialTest, welchTest } from './frequentist';
import type { FrequentistResult } from './frequentist';
import { isLift, relativeLift } from './moments';
import type { Lift, SufficientStats } from './moments';

/** Bayesian: a variant wins above WIN_CHANCE to beat the control, and loses below LOSE_CHANCE. */
export const WIN_CHANCE = 0.95;
export const LOSE_CHANCE = 0.05;
/** A verdict needs at least this much in the larger arm's Σx (conversions, events or value). */
export const MIN_TOTAL_FOR_VERDICT = 150;

export interface MetricData {
  id: string;
  role: MetricRole;
  kind: MetricKind;
  /** Lower is better. */
  inverse: boolean;
  /** One per variant, the control first. */
  variants: SufficientStats[];
}

export interface AnalysisInput {
  metrics: MetricData[];
  engine: Engine;
  /** Frequentist only: confidence sequences and always-valid p-values. */
  sequential: boolean;
  /** The sequential bounds are tightest at this many units; default 5,000. */
  sequentialTuning?: number;
  /** Frequentist only, over the goal metrics × variants. */
  correction: Correction;
}

/** One row of the results: the contract's variant without what the service adds (id, units). */
export type VariantAnalysis = Omit<ResultsVariant, 'id' | 'units'>;

export interface MetricAnalysis {
  id: string;
  variants: VariantAnalysis[];
}

/** A comparison with a lift, waiting for the engine's last word (corrections, verdict). */
interface Comparison {
  metric: MetricData;
  row: VariantAnalysis;
  lift: Lift;
  enoughData: boolean;
  rawPValue?: number;
}

/**
 * Every metric's variants against the control (variant 0), by the chosen engine. Pure: the
 * same input always gives the same rows, and no number in them is NaN or infinite.
 */
export function analyzeTest(input: AnalysisInput): MetricAnalysis[] {
  const tuning = input.sequentialTuning ?? DEFAULT_SEQUENTIAL_TUNING;
  if (!(tuning > 0) || !Number.isFinite(tuning)) {
    throw new RangeError('sequentialTuning must be a positive number of units.');
  }
  const frequentistTest = (lift: Lift, alpha: number): FrequentistResult =>
    input.sequential ? sequentialTest(lift, tuning, alpha) : welchTest(lift, alpha);

  const comparisons: Comparison[] = [];
  const results = input.metrics.map((metric): MetricAnalysis => {
    const [control, ...others] = metric.variants;
    if (!control) return { id: metric.id, variants: [] };
    const variants: VariantAnalysis[] = [{ value: valueOf(control), verdict: 'control' }];
    for (const variant of others) {
      const value = valueOf(variant);
      const lift = relativeLift(metric.kind, control, variant);
      if (!isLift(lift)) {
        variants.push({ value, verdict: 'no_result', note: lift.reason });
        continue;
      }
      const row: VariantAnalysis = { value, verdict: 'inconclusive' };
      const comparison: Comparison = {
        metric,
        row,
        lift,
        enoughData: Math.max(Math.abs(control.sum), Math.abs(variant.sum)) >= MIN_TOTAL_FOR_VERDICT,
      };
      if (input.engine === 'bayesian') {
        const bayesian = bayesianTest(lift, metric.inverse);
        row.lift = { estimate: lift.estimate, interval: bayesian.interval };
        row.chance_to_win = bayesian.chanceToWin;
        row.risk = bayesian.risk;
        row.verdict =
          bayesian.chanceToWin > WIN_CHANCE
            ? 'winning'
            : bayesian.chanceToWin < LOSE_CHANCE
              ? 'losing'
              : 'inconclusive';
      } else {
        const frequentist = frequentistTest(lift, ALPHA);
        row.lift = { estimate: lift.estimate, interval: frequentist.interval };
        row.p_value = frequentist.pValue;
        comparison.rawPValue = frequentist.pValue;
      }
      if (allFinite(row)) comparisons.push(comparison);
      else giveUp(row);
      variants.push(row);
    }
    return { id: metric.id, variants };
  });

  if (input.engine === 'frequentist') {
    if (input.correction !== 'none') {
      const goals = comparisons.filter((c) => c.metric.role === 'goal');
      const raw = goals.map((c) => c.rawPValue ?? 1);
      const adjusted = adjustPValues(raw, input.correction);
      goals.forEach(({ row, lift }, index) => {
        const pValue = raw[index] ?? 1;
        const adjustedPValue = adjusted[index] ?? 1;
        const level = adjustedLevel(ALPHA, pValue, adjustedPValue, goals.length);
        row.lift = { estimate: lift.estimate, interval: frequentistTest(lift, level).interval };
        row.p_value = adjustedPValue;
      });
    }
    for (const { row, lift, metric } of comparisons) {
      const gain = metric.inverse ? -lift.estimate : lift.estimate;
      const significant = (row.p_value ?? 1) < ALPHA;
      row.verdict = !significant ? 'inconclusive' : gain > 0 ? 'winning' : 'losing';
    }
  }

  for (const { row, enoughData, metric } of comparisons) {
    if (!allFinite(row)) {
      giveUp(row);
    } else if (!enoughData) {
      row.verdict = 'not_enough_data';
      row.note = notEnoughDataNote(metric.kind);
    }
  }
  return results;
}

function valueOf(stats: SufficientStats): number | null {
  if (!(stats.n > 0)) return null;
  const mean = stats.sum / stats.n;
  return Number.isFinite(mean) ? mean : null;
}

function allFinite(row: VariantAnalysis): boolean {
  const numbers = [row.chance_to_win, row.risk, row.p_value, row.lift?.estimate];
  if (row.lift) numbers.push(...row.lift.interval);
  return numbers.every((number) => number === undefined || Number.isFinite(number));
}

/** Far out of range (values near the largest double) a figure can overflow: no result then. */
function giveUp(row: VariantAnalysis): void {
  delete row.lift;
  delete row.chance_to_win;
  delete row.risk;
  delete row.p_value;
  row.verdict = 'no_result';
  row.note = 'The values are too large or too small to compute with.';
}

function notEnoughDataNote(kind: MetricKind): string {
  const what =
    kind === 'binomial'
      ? `${MIN_TOTAL_FOR_VERDICT} conversions`
      : kind === 'count'
        ? `${MIN_TOTAL_FOR_VERDICT} events`
        : `a total value of ${MIN_TOTAL_FOR_VERDICT}`;
  return `Not enough data yet: a verdict needs at least ${what} in the control or this variant.`;
}
