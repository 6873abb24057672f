import tCdf from '@stdlib/stats-base-dists-t-cdf';
import tQuantile from '@stdlib/stats-base-dists-t-quantile';
import type { Lift } from './moments';

/** The frequentist engine's significance level. */
export const ALPHA = 0.05;

export interface FrequentistResult {
  /** Two-sided p-value of "no lift". */
  pValue: number;
  /** The interval of the lift at the level asked for. */
  interval: [number, number];
}

/**
 * Welch's t on the relative lift: the statistic estimate / SE against Student's t with the
 * Welch–Satterthwaite degrees of freedom. The p-value comes from the lower tail, never
 * 1 − cdf, so that tiny p-values keep their digits.
 */
export function welchTest(lift: Lift, alpha = ALPHA): FrequentistResult {
  const { estimate, standardError, degreesOfFreedom } = lift;
  const pValue = Math.min(1, 2 * tCdf(-Math.abs(estimate / standardError), degreesOfFreedom));
  const halfWidth = tQuantile(1 - alpha / 2, degreesOfFreedom) * standardError;
  return { pValue, interval: [estimate - halfWidth, estimate + halfWidth] };
}

/** How many units the sequential bounds are tightest at, unless the test says otherwise. */
export const DEFAULT_SEQUENTIAL_TUNING = 5_000;

/**
 * ρ of the asymptotic confidence sequence (Waudby-Smith et al., "Time-uniform central limit
 * theory"), chosen so that the two-sided bound at `alpha` is tightest after `tuning` units.
 * It stays the one of ALPHA when an interval is drawn at another level (corrections), so that
 * the interval and the p-value keep agreeing.
 */
export function sequentialRho(alpha: number, tuning: number): number {
  const l = -2 * Math.log(alpha);
  return Math.sqrt((l + Math.log(l + 1)) / tuning);
}

/**
 * The always-valid counterpart of welchTest: an interval that holds at every look at once,
 * and the p-value that falls below α exactly when the interval at α leaves out zero. n is
 * both arms' units and σ² = SE²·n the per-unit variance of the lift.
 */
export function sequentialTest(
  lift: Lift,
  tuning = DEFAULT_SEQUENTIAL_TUNING,
  alpha = ALPHA,
): FrequentistResult {
  const { estimate, standardError, sampleSize: n } = lift;
  const rho = sequentialRho(ALPHA, tuning);
  const growth = n * rho ** 2 + 1;
  const halfWidth =
    standardError * Math.sqrt((2 * growth * Math.log(Math.sqrt(growth) / alpha)) / (n * rho ** 2));
  // p = min(1, √growth · exp(−ρ²·n·z² / (2·growth))) with z = estimate / SE, in logs.
  const z = estimate / standardError;
  const logP = 0.5 * Math.log(growth) - (rho ** 2 * n * z ** 2) / (2 * growth);
  return {
    pValue: Math.min(1, Math.exp(logP)),
    interval: [estimate - halfWidth, estimate + halfWidth],
  };
}
