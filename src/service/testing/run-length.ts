/**
 * How long the reliability tests run: short in `npm test`, long in `npm run test:stress`
 * (which sets `RELIABILITY_RUN=long`). The same tests, only more runs. Test-only.
 */
export const LONG_RUN = process.env.RELIABILITY_RUN === 'long';

export function runLength<T>(short: T, long: T): T {
  return LONG_RUN ? long : short;
}

/** Prints a figure for docs/reliability.md in the long run; quiet in `npm test`. */
export function reportFigure(line: string): void {
  if (LONG_RUN) console.log(`figure: ${line}`);
}
