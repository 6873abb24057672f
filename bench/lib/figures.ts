/**
 * A figure of the benchmark table (docs/benchmarks.md): a value, its unit, and the
 * bar it is judged against. Absolute times are printed with no bar (`pass: null`): on a
 * shared 2-core machine only ratios against a baseline of the same run, and sizes, are fair.
 */
export interface Figure {
  readonly figure: string;
  readonly value: number;
  readonly unit: string;
  /** The bar as docs/benchmarks.md writes it, e.g. "≤ 1.5"; empty for a printed-only figure. */
  readonly bar: string;
  readonly pass: boolean | null;
}

export function judged(
  figure: string,
  value: number,
  unit: string,
  bar: { readonly max?: number; readonly min?: number; readonly text: string },
): Figure {
  const pass =
    (bar.max === undefined || value <= bar.max) && (bar.min === undefined || value >= bar.min);
  return { figure, value, unit, bar: bar.text, pass };
}

export function printed(figure: string, value: number, unit: string): Figure {
  return { figure, value, unit, bar: '', pass: null };
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

export const KIB = 1024;
export const MIB = 1024 * 1024;
