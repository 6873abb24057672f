/** Numbers of the results in words and figures a person reads (English, as the console is). */
import type { MetricKind, Verdict } from '../../../../contract/experiments';

const percent = new Intl.NumberFormat('en', {
  style: 'percent',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});
const signedPercent = new Intl.NumberFormat('en', {
  style: 'percent',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
  signDisplay: 'exceptZero',
});
const number = new Intl.NumberFormat('en', { maximumFractionDigits: 3 });
const count = new Intl.NumberFormat('en');

export function formatPercent(share: number): string {
  return percent.format(share);
}

/** A relative lift: "+4.1%", "-0.9%". */
export function formatLift(lift: number): string {
  return signedPercent.format(lift);
}

export function formatInterval([lower, upper]: readonly [number, number]): string {
  return `${formatLift(lower)} to ${formatLift(upper)}`;
}

export function formatCount(units: number): string {
  return count.format(units);
}

/** A variant's value: a conversion rate for a binomial metric, else the mean per unit. */
export function formatValue(value: number | null, kind: MetricKind | null): string {
  if (value === null) return '—';
  return kind === 'binomial' ? formatPercent(value) : number.format(value);
}

/**
 * A risk (the expected relative loss of choosing a variant) as a share of the control's
 * value: "0.3%"; one too small to show at one decimal as "< 0.1%", never a bare "0.0%".
 */
export function formatRisk(risk: number): string {
  return risk < 0.0005 ? '< 0.1%' : formatPercent(risk);
}

/** A p-value as people quote it; tiny ones as "< 0.001". */
export function formatPValue(p: number): string {
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}

export const VERDICT_WORDS: Record<Verdict, string> = {
  control: 'Control',
  winning: 'Winning',
  losing: 'Losing',
  inconclusive: 'Inconclusive',
  not_enough_data: 'Not enough data yet',
  no_result: 'No result',
};
