import type { MetricKind } from '../../../contract/experiments';

/** What the engine needs of one variant's per-unit values: their count, sum and sum of squares. */
export interface SufficientStats {
  n: number;
  sum: number;
  sumSquares: number;
}

export interface MeanAndVariance {
  mean: number;
  variance: number;
}

/**
 * Binomial values are 0 or 1, so their variance is p(1 − p); counts and means take the n − 1
 * sample variance. Rounding can make a true zero slightly negative: it is clamped to 0.
 * Null with fewer than 2 units (no variance to speak of) or when the figures overflow.
 */
export function meanAndVariance(kind: MetricKind, stats: SufficientStats): MeanAndVariance | null {
  const { n, sum, sumSquares } = stats;
  if (!(n >= 2)) return null;
  const mean = sum / n;
  const variance = kind === 'binomial' ? mean * (1 - mean) : (sumSquares - mean * sum) / (n - 1);
  if (!Number.isFinite(mean) || !Number.isFinite(variance)) return null;
  return { mean, variance: Math.max(variance, 0) };
}

/** The relative lift of a variant over the control with its standard error (delta method). */
export interface Lift {
  /** (μB − μA) / |μA| */
  estimate: number;
  standardError: number;
  /** Welch–Satterthwaite degrees of freedom of the per-unit variances. */
  degreesOfFreedom: number;
  /** nA + nB: the sample size the sequential bounds grow with. */
  sampleSize: number;
}

/** No lift can be computed, and why, in words a person reading the results understands. */
export interface NoLift {
  reason: string;
}

export function isLift(value: Lift | NoLift): value is Lift {
  return 'estimate' in value;
}

export function relativeLift(
  kind: MetricKind,
  control: SufficientStats,
  variant: SufficientStats,
): Lift | NoLift {
  if (!(control.n >= 2)) return { reason: 'The control has fewer than 2 units.' };
  if (!(variant.n >= 2)) return { reason: 'This variant has fewer than 2 units.' };
  const a = meanAndVariance(kind, control);
  const b = meanAndVariance(kind, variant);
  if (!a || !b) return { reason: 'The values are too large to compute with.' };
  if (a.mean === 0) {
    return { reason: 'The control\u2019s mean is 0, so a change relative to it has no meaning.' };
  }
  if (a.variance === 0 || b.variance === 0) {
    return {
      reason: `Every unit of ${a.variance === 0 ? 'the control' : 'this variant'} has the same value, so there is no spread to judge a difference by.`,
    };
  }
  const estimate = (b.mean - a.mean) / Math.abs(a.mean);
  const varianceOfMeanA = a.variance / control.n;
  const varianceOfMeanB = b.variance / variant.n;
  const variance = varianceOfMeanB / a.mean ** 2 + (varianceOfMeanA * b.mean ** 2) / a.mean ** 4;
  // Welch–Satterthwaite, written with shares of the summed variance so that neither squares
  // overflow nor tiny variances underflow.
  const shareA = varianceOfMeanA / (varianceOfMeanA + varianceOfMeanB);
  const shareB = 1 - shareA;
  const degreesOfFreedom = 1 / (shareA ** 2 / (control.n - 1) + shareB ** 2 / (variant.n - 1));
  const standardError = Math.sqrt(variance);
  if (
    !Number.isFinite(estimate) ||
    !(standardError > 0) ||
    !Number.isFinite(standardError) ||
    !(degreesOfFreedom > 0) ||
    !Number.isFinite(degreesOfFreedom)
  ) {
    return { reason: 'The values are too large or too small to compute with.' };
  }
  return { estimate, standardError, degreesOfFreedom, sampleSize: control.n + variant.n };
}
