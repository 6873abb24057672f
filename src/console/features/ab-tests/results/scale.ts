/** The one lift axis the charts share: a domain that holds every interval and 0, and its ticks. */

export interface LiftScale {
  readonly min: number;
  readonly max: number;
  readonly ticks: readonly number[];
  /** Where `lift` falls, 0 (left or bottom) to 1. */
  at(lift: number): number;
}

/** 1, 2 or 5 times a power of ten: a step a person reads at a glance. */
function niceStep(range: number, count: number): number {
  const rough = range / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].find((factor) => factor * power >= rough) ?? 10;
  return step * power;
}

/** A scale over the given bounds (intervals' ends and estimates), always holding 0. */
export function liftScale(bounds: readonly number[], tickCount = 4): LiftScale {
  const finite = bounds.filter(Number.isFinite);
  let low = Math.min(0, ...finite);
  let high = Math.max(0, ...finite);
  if (high - low < 1e-9) {
    low -= 0.1;
    high += 0.1;
  }
  const step = niceStep(high - low, tickCount);
  const min = Math.floor(low / step) * step;
  const max = Math.ceil(high / step) * step;
  const ticks: number[] = [];
  for (let tick = min; tick <= max + step / 2; tick += step) {
    // Whole multiples of the step, without the float drift of repeated adding.
    ticks.push(Math.round(tick / step) * step);
  }
  return { min, max, ticks, at: (lift) => (lift - min) / (max - min) };
}
