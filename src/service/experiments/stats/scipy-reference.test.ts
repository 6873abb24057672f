/**
 * The engine against scipy.stats. The figures in scipy-reference.cases.ts were made by
 * scripts/stats-reference.py (scipy and numpy, from simulated per-unit values; the header of
 * the script says which scipy function gave each figure) and pasted here: the tests never run
 * Python. Each figure must agree to within RELATIVE_TOLERANCE of scipy's.
 */
import { describe, expect, it } from 'vitest';
import { bayesianTest } from './bayesian';
import { adjustPValues } from './corrections';
import { sequentialTest, welchTest } from './frequentist';
import { sampleRatioMismatch } from './health';
import { isLift, relativeLift } from './moments';
import { CORRECTION_CASES, LIFT_CASES, SRM_CASES, T_CASES } from './scipy-reference.cases';

const RELATIVE_TOLERANCE = 1e-11;

/** Relative difference, absolute for figures too small for a relative one to mean anything. */
function difference(actual: number, expected: number): number {
  return Math.abs(actual - expected) / Math.max(Math.abs(expected), 1e-12);
}

function expectClose(actual: number | null | undefined, expected: number, what: string): void {
  expect(actual, what).toBeTypeOf('number');
  expect(difference(actual ?? NaN, expected), `${what}: ${actual} vs ${expected}`).toBeLessThan(
    RELATIVE_TOLERANCE,
  );
}

describe('relative lift, Welch, Bayesian and sequential against scipy', () => {
  it.each(LIFT_CASES.map((c) => [c.name, c] as const))('%s', (_, c) => {
    const lift = relativeLift(c.kind, c.control, c.variant);
    if (!isLift(lift)) throw new Error(lift.reason);
    expectClose(lift.estimate, c.estimate, 'estimate');
    expectClose(lift.standardError, c.standardError, 'standard error');
    expectClose(lift.degreesOfFreedom, c.degreesOfFreedom, 'degrees of freedom');

    const welch = welchTest(lift);
    expectClose(welch.pValue, c.pValue, 'p-value');
    expectClose(welch.interval[0], c.interval[0], 'interval low');
    expectClose(welch.interval[1], c.interval[1], 'interval high');

    const bayesian = bayesianTest(lift, c.inverse);
    expectClose(bayesian.chanceToWin, c.chanceToWin, 'chance to win');
    expectClose(bayesian.interval[0], c.credible[0], 'credible low');
    expectClose(bayesian.interval[1], c.credible[1], 'credible high');
    expectClose(bayesian.risk, c.risk, 'risk');

    const sequential = sequentialTest(lift, c.tuning);
    expectClose(sequential.pValue, c.sequentialPValue, 'sequential p-value');
    expectClose(sequential.interval[0], c.sequentialInterval[0], 'sequential low');
    expectClose(sequential.interval[1], c.sequentialInterval[1], 'sequential high');
  });

  it('has tiny p-values among the cases, kept to their digits', () => {
    expect(Math.min(...LIFT_CASES.map((c) => c.pValue))).toBeLessThan(1e-30);
  });
});

describe("Student's t against scipy.stats.t", () => {
  it.each(T_CASES)('t = $t with $degreesOfFreedom degrees of freedom', (c) => {
    const lift = {
      estimate: c.t,
      standardError: 1,
      degreesOfFreedom: c.degreesOfFreedom,
      sampleSize: 2,
    };
    const welch = welchTest(lift);
    expectClose(welch.pValue, c.pValue, 'p-value');
    expectClose(welch.interval[1] - c.t, c.quantile975, '97.5% quantile');
  });
});

describe('sample ratio mismatch against scipy.stats.chisquare', () => {
  it.each(SRM_CASES)('$units against $weights', (c) => {
    expectClose(sampleRatioMismatch(c.units, c.weights).p, c.p, 'p');
  });
});

describe('corrections against a written-out Holm and scipy.stats.false_discovery_control', () => {
  it.each(CORRECTION_CASES)('$pValues', (c) => {
    adjustPValues(c.pValues, 'holm').forEach((p, i) => expectClose(p, c.holm[i] ?? NaN, 'holm'));
    adjustPValues(c.pValues, 'bh').forEach((p, i) => expectClose(p, c.bh[i] ?? NaN, 'bh'));
  });
});
