import { describe, expect, it } from 'vitest';
import type { Correction, Engine, MetricKind } from '../../../contract/experiments';
import { analyzeTest } from './analyze';
import type { AnalysisInput, MetricData, VariantAnalysis } from './analyze';
import type { SufficientStats } from './moments';

/** Sufficient statistics of n values with this mean and sample standard deviation. */
function stats(n: number, mean: number, sd: number): SufficientStats {
  return { n, sum: n * mean, sumSquares: (n - 1) * sd ** 2 + n * mean ** 2 };
}

function conversions(n: number, converted: number): SufficientStats {
  return { n, sum: converted, sumSquares: converted };
}

function metric(variants: SufficientStats[], more: Partial<MetricData> = {}): MetricData {
  return { id: 'm', role: 'goal', kind: 'mean', inverse: false, variants, ...more };
}

function analyze(
  metrics: MetricData[],
  options: Partial<Omit<AnalysisInput, 'metrics'>> = {},
): VariantAnalysis[][] {
  return analyzeTest({
    metrics,
    engine: 'bayesian',
    sequential: false,
    correction: 'none',
    ...options,
  }).map((m) => m.variants);
}

/** The one variant row of a control-and-variant metric. */
function row(
  variants: SufficientStats[],
  more: Partial<MetricData> = {},
  engine: Engine = 'bayesian',
) {
  const result = analyze([metric(variants, more)], { engine })[0]?.[1];
  if (!result) throw new Error('no row');
  return result;
}

const CONTROL = stats(10_000, 10, 5);

/**
 * A variant whose figure (chance to win or p-value) lands on the target: the variant's mean
 * found by bisection, the figure being monotone in it.
 */
function variantWhere(
  figure: (result: VariantAnalysis) => number,
  target: number,
  low: number,
  high: number,
  more: Partial<MetricData> = {},
  engine: Engine = 'bayesian',
): VariantAnalysis {
  const at = (mean: number) => figure(row([CONTROL, stats(10_000, mean, 5)], more, engine));
  const rising = at(high) > at(low);
  for (let i = 0; i < 80; i++) {
    const middle = (low + high) / 2;
    if (at(middle) < target === rising) low = middle;
    else high = middle;
  }
  return row([CONTROL, stats(10_000, (low + high) / 2, 5)], more, engine);
}

const chance = (r: VariantAnalysis) => r.chance_to_win ?? NaN;
const pValue = (r: VariantAnalysis) => r.p_value ?? NaN;

describe('the Bayesian verdict', () => {
  it.each([
    [0.9501, 'winning'],
    [0.9499, 'inconclusive'],
    [0.0501, 'inconclusive'],
    [0.0499, 'losing'],
  ])('a chance to win of %f is %s', (target, verdict) => {
    const result = variantWhere(chance, target, 9.5, 10.5);
    expect(result.chance_to_win).toBeCloseTo(target, 6);
    expect(result.verdict).toBe(verdict);
  });

  it('mirrors "lower is better": a lower mean wins an inverse metric', () => {
    const lower = row([CONTROL, stats(10_000, 9.8, 5)], { inverse: true });
    expect(lower.lift?.estimate).toBeLessThan(0);
    expect(lower.chance_to_win).toBeGreaterThan(0.95);
    expect(lower.verdict).toBe('winning');
    const higher = row([CONTROL, stats(10_000, 10.2, 5)], { inverse: true });
    expect(higher.verdict).toBe('losing');
  });

  it('gives the risk, and no p-value', () => {
    const result = row([CONTROL, stats(10_000, 10.05, 5)]);
    expect(result.risk).toBeGreaterThan(0);
    expect(result.p_value).toBeUndefined();
  });
});

describe('the frequentist verdict', () => {
  it.each([
    [0.0499, 10.05, 10.5, 'winning'],
    [0.0501, 10.05, 10.5, 'inconclusive'],
    [0.0499, 9.5, 9.95, 'losing'],
    [0.0501, 9.5, 9.95, 'inconclusive'],
  ])('a p-value of %f (mean between %f and %f) is %s', (target, low, high, verdict) => {
    const result = variantWhere(pValue, target, low, high, {}, 'frequentist');
    expect(result.p_value).toBeCloseTo(target, 6);
    expect(result.verdict).toBe(verdict);
    expect(result.chance_to_win).toBeUndefined();
    expect(result.risk).toBeUndefined();
  });

  it('mirrors "lower is better"', () => {
    const lower = row([CONTROL, stats(10_000, 9.7, 5)], { inverse: true }, 'frequentist');
    expect(lower.verdict).toBe('winning');
    const higher = row([CONTROL, stats(10_000, 10.3, 5)], { inverse: true }, 'frequentist');
    expect(higher.verdict).toBe('losing');
  });

  it('the interval leaves out zero exactly when the verdict is given', () => {
    for (const mean of [9.7, 9.85, 9.9, 10, 10.1, 10.15, 10.3]) {
      const result = row([CONTROL, stats(10_000, mean, 5)], {}, 'frequentist');
      const [low, high] = result.lift?.interval ?? [NaN, NaN];
      expect(low > 0 || high < 0).toBe(result.verdict !== 'inconclusive');
    }
  });
});

describe('the minimum data for a verdict', () => {
  it('needs 150 conversions in the larger arm: 149 gives the numbers without a verdict', () => {
    const result = row([conversions(1000, 60), conversions(1000, 149)], { kind: 'binomial' });
    expect(result.verdict).toBe('not_enough_data');
    expect(result.note).toMatch(/at least 150 conversions/);
    expect(result.chance_to_win).toBeGreaterThan(0.95);
    expect(result.lift?.estimate).toBeCloseTo(149 / 60 - 1, 10);
  });

  it('150 conversions are enough, in either arm', () => {
    expect(row([conversions(1000, 60), conversions(1000, 150)], { kind: 'binomial' }).verdict).toBe(
      'winning',
    );
    expect(row([conversions(1000, 150), conversions(1000, 60)], { kind: 'binomial' }).verdict).toBe(
      'losing',
    );
  });

  it('holds for the frequentist engine too, and says so per kind', () => {
    const few = row([stats(50, 1, 0.5), stats(50, 2.9, 0.5)], { kind: 'count' }, 'frequentist');
    expect(few.verdict).toBe('not_enough_data');
    expect(few.p_value).toBeLessThan(0.05);
    expect(few.note).toMatch(/150 events/);
    const value = row([stats(50, 1, 0.5), stats(50, 2.9, 0.5)], { kind: 'mean' });
    expect(value.note).toMatch(/total value of 150/);
    expect(
      row([stats(50, 1, 0.5), stats(50, 3, 0.5)], { kind: 'count' }, 'frequentist').verdict,
    ).toBe('winning');
  });

  it('counts a negative total by its size (refunds, losses)', () => {
    const result = row([stats(100, -1, 0.5), stats(100, -1.6, 0.5)]);
    expect(result.verdict).toBe('losing');
  });
});

describe('no result, said in words', () => {
  it.each<[string, SufficientStats[], MetricKind, RegExp]>([
    ['no units in the variant', [CONTROL, { n: 0, sum: 0, sumSquares: 0 }], 'mean', /fewer than 2/],
    [
      'one unit in the control',
      [{ n: 1, sum: 3, sumSquares: 9 }, CONTROL],
      'mean',
      /control has fewer/,
    ],
    ['a control mean of 0', [conversions(500, 0), conversions(500, 20)], 'binomial', /mean is 0/],
    ['no spread in the variant', [CONTROL, stats(100, 4, 0)], 'count', /same value/],
    [
      'every unit converted',
      [conversions(300, 200), conversions(300, 300)],
      'binomial',
      /same value/,
    ],
  ])('%s', (_, variants, kind, note) => {
    for (const engine of ['bayesian', 'frequentist'] as const) {
      const result = row(variants, { kind }, engine);
      expect(result.verdict).toBe('no_result');
      expect(result.note).toMatch(note);
      expect(result.lift).toBeUndefined();
      expect(result.chance_to_win).toBeUndefined();
      expect(result.p_value).toBeUndefined();
    }
  });

  it('the value is the mean per unit, null with no units', () => {
    const [control, empty] =
      analyze([metric([stats(4, 2.5, 1), { n: 0, sum: 0, sumSquares: 0 }])])[0] ?? [];
    expect(control).toEqual({ value: 2.5, verdict: 'control' });
    expect(empty?.value).toBeNull();
  });

  it('values too large to square give no result rather than Infinity', () => {
    const result = row([
      { n: 10, sum: 1e300, sumSquares: 1e300 },
      { n: 10, sum: 2e300, sumSquares: 1e300 },
    ]);
    expect(result.verdict).toBe('no_result');
    expect(result.note).toMatch(/too large/);
  });
});

describe('corrections', () => {
  const goals = [
    metric([CONTROL, stats(10_000, 10.155, 5)], { id: 'a' }),
    metric([CONTROL, stats(10_000, 10.12, 5), stats(10_000, 10.5, 5)], { id: 'b' }),
  ];
  const guardrail = metric([CONTROL, stats(10_000, 10.16, 5)], { id: 'g', role: 'guardrail' });
  const run = (correction: Correction, engine: Engine = 'frequentist', sequential = false) =>
    analyze([...goals, guardrail], { engine, correction, sequential });

  it('Holm adjusts the goals × variants together and leaves guardrails alone', () => {
    const raw = run('none');
    const holm = run('holm');
    const p = (rows: VariantAnalysis[][], m: number, v: number) => rows[m]?.[v]?.p_value ?? NaN;
    // Three goal comparisons: the smallest p times 3, the next times 2 (Holm's step-down).
    expect(p(holm, 1, 2)).toBeCloseTo(Math.min(1, 3 * p(raw, 1, 2)), 12);
    expect(p(holm, 0, 1)).toBeCloseTo(2 * p(raw, 0, 1), 12);
    expect(p(holm, 1, 1)).toBeCloseTo(Math.max(p(raw, 1, 1), 2 * p(raw, 0, 1)), 12);
    expect(p(raw, 0, 1)).toBeLessThan(0.05);
    expect(p(holm, 0, 1)).toBeGreaterThan(0.05);
    expect(holm[0]?.[1]?.verdict).toBe('inconclusive');
    expect(holm[2]?.[1]).toEqual(raw[2]?.[1]);
    expect(holm[2]?.[1]?.verdict).toBe('winning');
  });

  it('Benjamini–Hochberg adjusts less than Holm', () => {
    const raw = run('none');
    const bh = run('bh');
    expect(bh[0]?.[1]?.p_value).toBeCloseTo(((raw[0]?.[1]?.p_value ?? NaN) * 3) / 2, 12);
    expect(bh[0]?.[1]?.verdict).toBe('winning');
  });

  it.each([false, true])(
    'widens the intervals to the adjusted level (sequential: %s)',
    (sequential) => {
      const raw = run('none', 'frequentist', sequential);
      const holm = run('holm', 'frequentist', sequential);
      for (const [m, v] of [
        [0, 1],
        [1, 1],
        [1, 2],
      ] as const) {
        const [rawLow, rawHigh] = raw[m]?.[v]?.lift?.interval ?? [NaN, NaN];
        const [low, high] = holm[m]?.[v]?.lift?.interval ?? [NaN, NaN];
        expect(low).toBeLessThanOrEqual(rawLow);
        expect(high).toBeGreaterThanOrEqual(rawHigh);
        expect(low > 0).toBe((holm[m]?.[v]?.p_value ?? 1) < 0.05);
      }
    },
  );

  it('the Bayesian engine ignores corrections', () => {
    expect(run('holm', 'bayesian')).toEqual(run('none', 'bayesian'));
  });
});

describe('sequential testing', () => {
  const variants = [CONTROL, stats(10_000, 10.15, 5)];
  const sequentialRow = (sequentialTuning?: number) =>
    analyze([metric(variants)], {
      engine: 'frequentist',
      sequential: true,
      sequentialTuning,
    })[0]?.[1];

  it('is more cautious than a single look: a larger p-value and a wider interval', () => {
    const once = row(variants, {}, 'frequentist');
    const always = sequentialRow();
    expect(always?.p_value).toBeGreaterThan(once.p_value ?? NaN);
    expect(always?.lift?.interval[0]).toBeLessThan(once.lift?.interval[0] ?? NaN);
    expect(once.verdict).toBe('winning');
    expect(always?.verdict).toBe('inconclusive');
  });

  it('tunes its bounds to N* = 5,000 unless told otherwise', () => {
    expect(sequentialRow()).toEqual(sequentialRow(5_000));
    expect(sequentialRow(20_000)).not.toEqual(sequentialRow(5_000));
  });

  it('refuses a tuning that is not a positive number of units', () => {
    expect(() => sequentialRow(0)).toThrow(RangeError);
    expect(() => sequentialRow(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('leaves the Bayesian engine alone', () => {
    expect(analyze([metric(variants)], { sequential: true })).toEqual(analyze([metric(variants)]));
  });
});
