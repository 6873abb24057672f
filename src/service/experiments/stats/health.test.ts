import { describe, expect, it } from 'vitest';
import { multipleExposuresWarning, sampleRatioMismatch } from './health';

describe('sample ratio mismatch', () => {
  it('warns below p = 0.001 and not above', () => {
    // 50/50 over 1,000 units: 552/448 gives p ≈ 0.00101, 553/447 p ≈ 0.00080.
    const above = sampleRatioMismatch([552, 448], [50, 50]);
    expect(above.p).toBeGreaterThan(0.001);
    expect(above.warning).toBe(false);
    const below = sampleRatioMismatch([553, 447], [50, 50]);
    expect(below.p).toBeLessThan(0.001);
    expect(below.warning).toBe(true);
  });

  it('is not judged while a variant of nonzero weight has fewer than 8 units', () => {
    expect(sampleRatioMismatch([7, 60], [50, 50])).toEqual({ p: null, warning: false });
    const judged = sampleRatioMismatch([8, 60], [50, 50]);
    expect(judged.p).toBeLessThan(0.001);
    expect(judged.warning).toBe(true);
  });

  it('leaves out variants of weight 0, their units and their degree of freedom', () => {
    expect(sampleRatioMismatch([800, 3, 820], [50, 0, 50])).toEqual(
      sampleRatioMismatch([800, 820], [50, 50]),
    );
    expect(sampleRatioMismatch([800, 400, 820], [50, 0, 50]).warning).toBe(false);
  });

  it('is 1 for a perfect split and keeps tiny p-values', () => {
    expect(sampleRatioMismatch([250, 500, 250], [25, 50, 25]).p).toBe(1);
    const p = sampleRatioMismatch([10_000, 11_500, 10_200], [1, 1, 1]).p ?? 1;
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1e-20);
  });

  it('has nothing to judge with fewer than two weighted variants', () => {
    expect(sampleRatioMismatch([900], [100])).toEqual({ p: null, warning: false });
    expect(sampleRatioMismatch([900, 100], [100, 0])).toEqual({ p: null, warning: false });
    expect(sampleRatioMismatch([], [])).toEqual({ p: null, warning: false });
  });

  it('needs one weight per variant', () => {
    expect(() => sampleRatioMismatch([10, 10], [50])).toThrow(RangeError);
  });
});

describe('multiple exposures', () => {
  it.each([
    [10, 1_000, true],
    [9, 1_000, false],
    [1, 100, true],
    [99, 10_000, false],
    [100, 10_000, true],
    [0, 0, false],
  ])('%i of %i exposed units: warning %s', (multiple, exposed, warning) => {
    expect(multipleExposuresWarning(multiple, exposed)).toBe(warning);
  });
});
