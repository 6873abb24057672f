import normalCdf from '@stdlib/stats-base-dists-normal-cdf';
import normalPdf from '@stdlib/stats-base-dists-normal-pdf';
import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import type { Lift } from './moments';

export interface BayesianResult {
  /** The posterior probability that the variant is better than the control. */
  chanceToWin: number;
  /** The expected relative loss should the variant be chosen (0 when it cannot lose). */
  risk: number;
  /** The central credible interval of the relative lift at the given level. */
  interval: [number, number];
}

/**
 * With a flat prior the posterior of the lift is N(estimate, SE²). `inverse` (lower is
 * better) mirrors what "winning" and "losing" mean, never the lift itself.
 */
export function bayesianTest(lift: Lift, inverse: boolean, level = 0.95): BayesianResult {
  const { estimate, standardError } = lift;
  const z = estimate / standardError;
  const gain = inverse ? -estimate : estimate;
  const halfWidth = normalQuantile(1 - (1 - level) / 2, 0, 1) * standardError;
  return {
    chanceToWin: normalCdf(inverse ? -z : z, 0, 1),
    risk: expectedPositivePart(-gain, standardError),
    interval: [estimate - halfWidth, estimate + halfWidth],
  };
}

/**
 * E[max(X, 0)] for X ~ N(μ, σ²): μΦ(μ/σ) + σφ(μ/σ). Far in the lower tail the two terms
 * cancel to rounding noise, which is clamped to 0.
 */
export function expectedPositivePart(mean: number, sd: number): number {
  const z = mean / sd;
  return Math.max(0, mean * normalCdf(z, 0, 1) + sd * normalPdf(z, 0, 1));
}
