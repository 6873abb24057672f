import gammainc from '@stdlib/math-base-special-gammainc';

/** Below this p-value the split of units is reported as a sample ratio mismatch. */
export const SRM_P_THRESHOLD = 0.001;
/** The χ² approximation is not trusted while a variant has fewer units than this. */
export const SRM_MIN_UNITS = 8;
/** Units exposed to several variants are worth a warning from this percentage of exposed units. */
export const MULTIPLE_EXPOSURES_PERCENT = 1;

export interface SampleRatioMismatch {
  /** χ² p-value of the units against the weights; null when not judged. */
  p: number | null;
  warning: boolean;
}

/**
 * Pearson's χ² of the units per variant against the split the weights promise. Variants of
 * weight 0 are left out (they get no traffic by design); the p-value is the upper regularized
 * incomplete gamma, which keeps its digits far below 1e-16.
 */
export function sampleRatioMismatch(
  units: readonly number[],
  weights: readonly number[],
): SampleRatioMismatch {
  if (units.length !== weights.length) {
    throw new RangeError('sampleRatioMismatch needs one weight per variant.');
  }
  const judged = units
    .map((count, index) => ({ count, weight: weights[index] ?? 0 }))
    .filter(({ weight }) => weight > 0 && Number.isFinite(weight));
  if (judged.length < 2 || judged.some(({ count }) => !(count >= SRM_MIN_UNITS))) {
    return { p: null, warning: false };
  }
  const total = judged.reduce((sum, { count }) => sum + count, 0);
  const totalWeight = judged.reduce((sum, { weight }) => sum + weight, 0);
  let chiSquare = 0;
  for (const { count, weight } of judged) {
    const expected = (total * weight) / totalWeight;
    chiSquare += (count - expected) ** 2 / expected;
  }
  const p = gammainc(chiSquare / 2, (judged.length - 1) / 2, true, true);
  if (!Number.isFinite(p)) return { p: null, warning: false };
  return { p, warning: p < SRM_P_THRESHOLD };
}

/**
 * Whether units exposed to more than one variant (left out of the results) are many enough to
 * worry about; `exposedUnits` counts every unit exposed, those included.
 */
export function multipleExposuresWarning(multipleExposures: number, exposedUnits: number): boolean {
  return exposedUnits > 0 && 100 * multipleExposures >= MULTIPLE_EXPOSURES_PERCENT * exposedUnits;
}
