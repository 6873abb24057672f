/**
 * The reference figures GrowthBook's gbstats publishes in its own tests, reproduced to the
 * digits printed there, so that our results can be read side by side with theirs.
 */
import { describe, expect, it } from 'vitest';
import { analyzeTest } from './analyze';
import { bayesianTest } from './bayesian';
import { welchTest } from './frequentist';
import { isLift, relativeLift } from './moments';
import type { Lift } from './moments';

function liftOf(...args: Parameters<typeof relativeLift>): Lift {
  const lift = relativeLift(...args);
  if (!isLift(lift)) throw new Error(lift.reason);
  return lift;
}

describe('gbstats reference values', () => {
  it('a mean metric, frequentist: lift, standard error, interval and p-value', () => {
    const lift = liftOf(
      'mean',
      { n: 3407, sum: 1396.87, sumSquares: 52377.9767 },
      { n: 3461, sum: 2422.7, sumSquares: 134698.29 },
    );
    expect(lift.estimate).toBeCloseTo(0.70732, 5);
    expect(lift.standardError).toBeCloseTo(0.37879, 5);
    const test = welchTest(lift);
    expect(test.interval[0]).toBeCloseTo(-0.03526, 5);
    expect(test.interval[1]).toBeCloseTo(1.44989, 5);
    expect(test.pValue).toBeCloseTo(0.06191, 5);
  });

  it('a binomial metric, Bayesian with a flat prior: lift, interval and chance to win', () => {
    const lift = liftOf(
      'binomial',
      { n: 100, sum: 49, sumSquares: 49 },
      { n: 100, sum: 51, sumSquares: 51 },
    );
    expect(lift.estimate).toBeCloseTo(0.04082, 5);
    expect(lift.standardError).toBeCloseTo(0.14725, 5);
    const test = bayesianTest(lift, false);
    expect(test.interval[0]).toBeCloseTo(-0.24779, 5);
    expect(test.interval[1]).toBeCloseTo(0.32943, 5);
    expect(test.chanceToWin).toBeCloseTo(0.60918, 5);
  });

  it('the same figures come out of analyzeTest', () => {
    const [mean, binomial] = analyzeTest({
      engine: 'frequentist',
      sequential: false,
      correction: 'none',
      metrics: [
        {
          id: 'revenue',
          role: 'goal',
          kind: 'mean',
          inverse: false,
          variants: [
            { n: 3407, sum: 1396.87, sumSquares: 52377.9767 },
            { n: 3461, sum: 2422.7, sumSquares: 134698.29 },
          ],
        },
        {
          id: 'signup',
          role: 'goal',
          kind: 'binomial',
          inverse: false,
          variants: [
            { n: 100, sum: 49, sumSquares: 49 },
            { n: 100, sum: 51, sumSquares: 51 },
          ],
        },
      ],
    });
    const row = mean?.variants[1];
    expect(row?.lift?.estimate).toBeCloseTo(0.70732, 5);
    expect(row?.lift?.interval[0]).toBeCloseTo(-0.03526, 5);
    expect(row?.lift?.interval[1]).toBeCloseTo(1.44989, 5);
    expect(row?.p_value).toBeCloseTo(0.06191, 5);
    expect(row?.verdict).toBe('inconclusive');
    expect(binomial?.variants[1]?.verdict).toBe('not_enough_data');
  });
});
