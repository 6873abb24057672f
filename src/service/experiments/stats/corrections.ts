/** How p-values of many comparisons are adjusted together. */
export type PValueCorrection = 'holm' | 'bh';

/**
 * Holm's step-down (controls the chance of any false winner) or Benjamini–Hochberg's
 * step-up (controls the share of false winners among the winners). Returns the adjusted
 * p-values in the order given; each is at least its raw p-value and at most 1.
 */
export function adjustPValues(pValues: readonly number[], correction: PValueCorrection): number[] {
  const m = pValues.length;
  const order = pValues.map((_, index) => index);
  const adjusted = new Array<number>(m).fill(1);
  if (correction === 'holm') {
    order.sort((i, j) => (pValues[i] ?? 1) - (pValues[j] ?? 1));
    let running = 0;
    order.forEach((index, rank) => {
      running = Math.max(running, Math.min(1, (m - rank) * (pValues[index] ?? 1)));
      adjusted[index] = running;
    });
  } else {
    order.sort((i, j) => (pValues[j] ?? 1) - (pValues[i] ?? 1));
    let running = 1;
    order.forEach((index, reverseRank) => {
      const p = pValues[index] ?? 1;
      // max(p, …): p·m/k rounds to just below p when k = m.
      running = Math.min(running, Math.max(p, (p * m) / (m - reverseRank)));
      adjusted[index] = running;
    });
  }
  return adjusted;
}

/**
 * The level at which to draw an interval so that it leaves out zero exactly when the adjusted
 * p-value is below alpha: alpha · p / adjusted p. Both corrections keep p ≤ adjusted ≤ m·p,
 * so the level lies between alpha / m and alpha (the interval only ever widens).
 */
export function adjustedLevel(
  alpha: number,
  pValue: number,
  adjustedPValue: number,
  m: number,
): number {
  if (!(adjustedPValue > 0)) return alpha;
  return alpha * Math.min(1, Math.max(1 / m, pValue / adjustedPValue));
}
