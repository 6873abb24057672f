/**
 * What must hold for any input: no NaN or Infinity anywhere, intervals around their
 * estimate, "lower is better" mirroring the chance to win, corrections only ever raising
 * p-values and widening intervals.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CORRECTIONS, ENGINES, METRIC_KINDS } from '../../../contract/experiments';
import { analyzeTest } from './analyze';
import type { AnalysisInput, VariantAnalysis } from './analyze';
import { bayesianTest } from './bayesian';
import { adjustPValues } from './corrections';
import { sequentialTest, welchTest } from './frequentist';
import { sampleRatioMismatch } from './health';
import { isLift, relativeLift } from './moments';
import type { SufficientStats } from './moments';
import normalCdf from '@stdlib/stats-base-dists-normal-cdf';

const anyNumber = fc.double({ noNaN: true, noDefaultInfinity: true });

/** Sufficient statistics of values someone could send, and of values no one would. */
const realistic: fc.Arbitrary<SufficientStats> = fc
  .tuple(
    fc.integer({ min: 0, max: 1_000_000 }),
    fc.double({ min: -1e6, max: 1e6, noNaN: true }),
    fc.double({ min: 0, max: 1e6, noNaN: true }),
  )
  .map(([n, mean, sd]) => ({
    n,
    sum: n * mean,
    sumSquares: Math.max(n - 1, 0) * sd ** 2 + n * mean ** 2,
  }));
const converted: fc.Arbitrary<SufficientStats> = fc
  .integer({ min: 0, max: 1_000_000 })
  .chain((n) => fc.integer({ min: 0, max: n }).map((k) => ({ n, sum: k, sumSquares: k })));
const arbitrary: fc.Arbitrary<SufficientStats> = fc.record({
  n: fc.oneof(fc.integer({ min: -2, max: 1_000_000 }), anyNumber),
  sum: anyNumber,
  sumSquares: anyNumber,
});
const special = fc.constantFrom<SufficientStats>(
  { n: 0, sum: 0, sumSquares: 0 },
  { n: 1, sum: 5, sumSquares: 25 },
  { n: 100, sum: 0, sumSquares: 0 },
  { n: 100, sum: 300, sumSquares: 900 },
  { n: 100, sum: 100, sumSquares: 100 },
);
const anyStats = fc.oneof(realistic, converted, arbitrary, special);

const input: fc.Arbitrary<AnalysisInput> = fc.record({
  metrics: fc.array(
    fc.record({
      id: fc.constantFrom('a', 'b', 'c'),
      role: fc.constantFrom('goal' as const, 'guardrail' as const),
      kind: fc.constantFrom(...METRIC_KINDS),
      inverse: fc.boolean(),
      variants: fc.array(anyStats, { minLength: 0, maxLength: 4 }),
    }),
    { maxLength: 4 },
  ),
  engine: fc.constantFrom(...ENGINES),
  sequential: fc.boolean(),
  sequentialTuning: fc.option(fc.double({ min: 1, max: 1e7, noNaN: true }), { nil: undefined }),
  correction: fc.constantFrom(...CORRECTIONS),
});

function numbersOf(row: VariantAnalysis): (number | null | undefined)[] {
  return [
    row.value,
    row.chance_to_win,
    row.risk,
    row.p_value,
    row.lift?.estimate,
    ...(row.lift?.interval ?? []),
  ];
}

describe('analyzeTest for any input', () => {
  it('never gives NaN or Infinity, and keeps figures in their ranges', () => {
    fc.assert(
      fc.property(input, (analysis) => {
        for (const metric of analyzeTest(analysis)) {
          for (const row of metric.variants) {
            for (const number of numbersOf(row)) {
              if (typeof number === 'number') expect(Number.isFinite(number)).toBe(true);
            }
            if (row.chance_to_win !== undefined) {
              expect(row.chance_to_win).toBeGreaterThanOrEqual(0);
              expect(row.chance_to_win).toBeLessThanOrEqual(1);
            }
            if (row.p_value !== undefined) {
              expect(row.p_value).toBeGreaterThanOrEqual(0);
              expect(row.p_value).toBeLessThanOrEqual(1);
            }
            if (row.risk !== undefined) expect(row.risk).toBeGreaterThanOrEqual(0);
            if (row.lift) {
              expect(row.lift.interval[0]).toBeLessThanOrEqual(row.lift.estimate);
              expect(row.lift.interval[1]).toBeGreaterThanOrEqual(row.lift.estimate);
            }
            if (row.verdict === 'no_result' || row.verdict === 'not_enough_data') {
              expect(row.note).toBeTruthy();
            }
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('gives one row per variant, the control first', () => {
    fc.assert(
      fc.property(input, (analysis) => {
        const results = analyzeTest(analysis);
        results.forEach((metric, index) => {
          expect(metric.variants).toHaveLength(analysis.metrics[index]?.variants.length ?? -1);
          if (metric.variants.length > 0) expect(metric.variants[0]?.verdict).toBe('control');
        });
      }),
    );
  });

  it('corrections only raise p-values and widen intervals', () => {
    fc.assert(
      fc.property(
        input,
        fc.constantFrom('holm' as const, 'bh' as const),
        (analysis, correction) => {
          const frequentist = { ...analysis, engine: 'frequentist' as const };
          const raw = analyzeTest({ ...frequentist, correction: 'none' });
          const corrected = analyzeTest({ ...frequentist, correction });
          raw.forEach((metric, m) =>
            metric.variants.forEach((row, v) => {
              const other = corrected[m]?.variants[v];
              if (!row.lift || !other?.lift) return;
              expect(other.p_value ?? NaN).toBeGreaterThanOrEqual(row.p_value ?? NaN);
              expect(other.lift.interval[0]).toBeLessThanOrEqual(row.lift.interval[0]);
              expect(other.lift.interval[1]).toBeGreaterThanOrEqual(row.lift.interval[1]);
            }),
          );
        },
      ),
    );
  });
});

const liftArbitrary = fc
  .tuple(
    fc.constantFrom(...METRIC_KINDS),
    fc.oneof(realistic, converted),
    fc.oneof(realistic, converted),
  )
  .map(([kind, a, b]) => relativeLift(kind, a, b))
  .filter(isLift);

describe('the engines for any lift', () => {
  it('"lower is better" mirrors the chance to win and swaps the risks', () => {
    fc.assert(
      fc.property(liftArbitrary, (lift) => {
        const higher = bayesianTest(lift, false);
        const lower = bayesianTest(lift, true);
        expect(lower.chanceToWin + higher.chanceToWin).toBeCloseTo(1, 12);
        expect(lower.interval).toEqual(higher.interval);
        const mirrored = bayesianTest({ ...lift, estimate: -lift.estimate }, false);
        expect(lower.risk).toBeCloseTo(mirrored.risk, 12);
      }),
    );
  });

  it('the interval leaves out 0 exactly when p < 0.05, for Welch and sequential alike', () => {
    fc.assert(
      fc.property(liftArbitrary, (lift) => {
        for (const test of [welchTest(lift), sequentialTest(lift)]) {
          const excludesZero = test.interval[0] > 0 || test.interval[1] < 0;
          // Away from the boundary itself, where rounding may fall either way.
          if (Math.abs(test.pValue - 0.05) > 1e-9) expect(excludesZero).toBe(test.pValue < 0.05);
        }
      }),
    );
  });

  it('the sequential p-value is never below the single-look normal one', () => {
    fc.assert(
      fc.property(liftArbitrary, (lift) => {
        const z = Math.abs(lift.estimate / lift.standardError);
        expect(sequentialTest(lift).pValue).toBeGreaterThanOrEqual(
          2 * normalCdf(-z, 0, 1) * (1 - 1e-12),
        );
      }),
    );
  });
});

describe('corrections for any p-values', () => {
  const pValues = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), {
    minLength: 1,
    maxLength: 30,
  });

  it('each adjusted p lies between the raw p and 1; Benjamini–Hochberg never above Holm', () => {
    fc.assert(
      fc.property(pValues, (ps) => {
        const holm = adjustPValues(ps, 'holm');
        const bh = adjustPValues(ps, 'bh');
        ps.forEach((p, i) => {
          expect(holm[i]).toBeGreaterThanOrEqual(p);
          expect(bh[i]).toBeGreaterThanOrEqual(p);
          expect(holm[i]).toBeLessThanOrEqual(Math.min(1, ps.length * p));
          expect(bh[i]).toBeLessThanOrEqual((holm[i] ?? NaN) * (1 + 1e-12));
        });
      }),
    );
  });

  it('keep the order of the raw p-values', () => {
    fc.assert(
      fc.property(pValues, fc.constantFrom('holm' as const, 'bh' as const), (ps, correction) => {
        const adjusted = adjustPValues(ps, correction);
        ps.forEach((p, i) =>
          ps.forEach((q, j) => {
            if (p < q) expect(adjusted[i]).toBeLessThanOrEqual(adjusted[j] ?? NaN);
          }),
        );
      }),
    );
  });
});

describe('sample ratio mismatch for any split', () => {
  it('gives a p-value in [0, 1] or null, never NaN', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.integer({ min: 0, max: 10_000_000 }),
            fc.oneof(anyNumber, fc.integer({ min: 0, max: 100 })),
          ),
          {
            maxLength: 6,
          },
        ),
        (variants) => {
          const { p, warning } = sampleRatioMismatch(
            variants.map(([units]) => units),
            variants.map(([, weight]) => weight),
          );
          if (p === null) expect(warning).toBe(false);
          else {
            expect(p).toBeGreaterThanOrEqual(0);
            expect(p).toBeLessThanOrEqual(1);
            expect(warning).toBe(p < 0.001);
          }
        },
      ),
    );
  });
});
