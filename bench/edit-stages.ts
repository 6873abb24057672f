/**
 * What each stage of `POST /config/edit` costs in one process, on 1,000- and 10,000-app
 * configs: the one-app `update_app` of a draft that the bench makes over HTTP, edit after
 * edit on the same document, as the service does with its cached document. Prints a table
 * (median of runs after warm-up, milliseconds). Run with `npx tsx bench/edit-stages.ts`.
 * Timings are printed, never asserted; docs/benchmarks.md keeps the figures.
 */
import { applyOperations, EditChanges, parseConfig, type EditableConfig } from '../src/configs';
import { editBaseOf, parseEdited } from '../src/configs/incremental-parse';
import { writeEdited } from '../src/configs/incremental-stringify';
import { validateEdited } from '../src/configs/validation/validate-edited';
import { largeConfigText } from '../src/configs/testing/large-config';

const WARM_UP = 5;
const RUNS = 15;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const rows: Record<string, number>[] = [];
for (const apps of [1_000, 10_000]) {
  let config: EditableConfig = { parsed: parseConfig(largeConfigText(apps)) };
  const stages = ['base', 'apply', 'write', 'parse', 'validate', 'edit'] as const;
  const samples = Object.fromEntries(stages.map((stage) => [stage, [] as number[]]));
  for (let run = 0; run < WARM_UP + RUNS; run++) {
    const times = [performance.now()];
    // The steps of applyEdit (src/configs/edit.ts), timed one by one.
    const { document } = config.parsed;
    const base = editBaseOf(config.parsed, config.written);
    times.push(performance.now());
    const changes = new EditChanges();
    const operations = [{ update_app: [{ id: 'app-5', name: `Bench name ${run}` }] }];
    if (!applyOperations(document, operations, { changes }).ok) throw new Error('refused');
    times.push(performance.now());
    const { text, written } = writeEdited(base?.write, document, changes);
    times.push(performance.now());
    const next = parseEdited(base, document, text, changes);
    times.push(performance.now());
    const previous = next.reusedItemsUnchanged ? config.findings : undefined;
    const { findings } = validateEdited(next.parsed, undefined, previous);
    times.push(performance.now());
    config = { parsed: next.parsed, written, findings };
    if (run < WARM_UP) continue;
    stages.slice(0, -1).forEach((stage, at) => {
      samples[stage]?.push((times[at + 1] as number) - (times[at] as number));
    });
    samples.edit?.push((times[times.length - 1] as number) - (times[0] as number));
  }
  const row: Record<string, number> = { apps };
  for (const stage of stages) row[stage] = Math.round(median(samples[stage] ?? []) * 10) / 10;
  rows.push(row);
}
console.table(rows);
