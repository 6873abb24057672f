/**
 * What each step of the config domain costs on 1,000- and 10,000-app configs: parse,
 * validate, clone, apply one operation, stringify, and editor text -> operations.
 * Prints a table (median of runs, milliseconds). Run with `npm run bench:config`.
 * Timings are printed, never asserted; docs/config.md keeps the figures.
 */
import {
  applyOperations,
  editorTextToOperations,
  parseConfig,
  stringifyConfig,
  validateParsedConfig,
} from '../src/configs';
import { largeConfigText } from '../src/configs/testing/large-config';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function time(runs: number, step: () => void): number {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    step();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

const rows: Record<string, string | number>[] = [];
for (const apps of [1_000, 10_000]) {
  const text = largeConfigText(apps);
  const runs = apps > 5_000 ? 7 : 21;
  const parsed = parseConfig(text);
  const edited = text.replace('name: App number 5\n', 'name: App five\n');
  const operation = [{ update_app: [{ id: `app-${apps - 1}`, name: 'Renamed' }] }];
  const row: Record<string, string | number> = {
    apps,
    'size (KB)': Math.round(text.length / 1024),
    'parse (ms)': time(runs, () => parseConfig(text)),
    'validate (ms)': time(runs, () => validateParsedConfig(parsed)),
    'clone (ms)': time(runs, () => parsed.document.clone()),
    // In place, as the service does: a refused edit drops its cached document instead.
    'apply 1 op (ms)': time(runs, () => applyOperations(parsed.document, operation)),
    'stringify (ms)': time(runs, () => stringifyConfig(parsed.document)),
    'text -> ops (ms)': time(runs, () => editorTextToOperations(text, edited)),
    // What an edit costs the service with the base document cached: apply, write the text,
    // parse it again for positions, validate.
    'edit pipeline (ms)': time(runs, () => {
      applyOperations(parsed.document, operation);
      validateParsedConfig(parseConfig(stringifyConfig(parsed.document)));
    }),
  };
  for (const key of Object.keys(row)) {
    const value = row[key];
    if (typeof value === 'number' && key.includes('ms')) row[key] = Math.round(value * 10) / 10;
  }
  rows.push(row);
}
console.table(rows);
