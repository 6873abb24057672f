/**
 * `npm run bench`: every performance figure of docs/benchmarks.md, printed as one table and
 * written to bench/results.json. `npm run bench -- service` (or `console`) runs one part.
 * docs/benchmarks.md says what each figure means.
 */
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { benchBrowser } from './console/browser';
import { benchEditorOperations } from './console/editor-operations';
import { benchSizes } from './console/sizes';
import { benchAuthStatus } from './service/auth-status';
import { benchConfigEdit } from './service/config-edit';
import { benchDeliveryStream } from './service/delivery-stream';
import { benchDeliveryView } from './service/delivery-view';
import { benchEditUnderLoad } from './service/edit-under-load';
import { benchExperiments } from './service/experiments';
import { benchMergeEdit } from './service/merge-edit';
import { benchListPages } from './service/list-pages';
import { benchStoredText } from './service/stored-text';
import { judged, round, type Figure } from './lib/figures';

const RESULTS_FILE = fileURLToPath(new URL('./results.json', import.meta.url));
const GROWTH_BAR = { max: 12, text: '≤ 12×' };

/** Parts by name; `service` and `console` name their groups. */
const GROUPS: Record<string, readonly string[]> = {
  service: [
    'edit',
    'merge',
    'load',
    'auth',
    'delivery',
    'stream',
    'storage',
    'lists',
    'experiments',
  ],
  console: ['sizes', 'ops', 'browser'],
};
const asked = process.argv.slice(2).flatMap((part) => GROUPS[part] ?? [part]);
const runs = (part: string) => asked.length === 0 || asked.includes(part);

function growth(figure: string, byApps: ReadonlyMap<number, number>): Figure {
  const small = byApps.get(1_000);
  const large = byApps.get(10_000);
  if (small === undefined || large === undefined) throw new Error(`${figure}: sizes missing`);
  return judged(figure, round(large / small, 1), '×', GROWTH_BAR);
}

function printTable(figures: readonly Figure[]): void {
  const verdict = (pass: boolean | null) => (pass === null ? '' : pass ? 'pass' : 'FAIL');
  console.table(
    figures.map(({ figure, value, unit, bar, pass }) => ({
      figure,
      value: `${value.toLocaleString('en')} ${unit}`,
      bar,
      '': verdict(pass),
    })),
  );
}

const figures: Figure[] = [];
const section = async (name: string, run: () => Promise<Figure[]>) => {
  process.stderr.write(`bench: ${name}…\n`);
  figures.push(...(await run()));
};

if (
  runs('edit') ||
  runs('merge') ||
  runs('load') ||
  runs('auth') ||
  runs('delivery') ||
  runs('stream') ||
  runs('lists') ||
  runs('experiments')
) {
  // The service as `npm start` runs it: bin/provisioning.js runs this bundle while it is
  // newer than every source, else the TypeScript through tsx, which is slower (auth-status.ts).
  process.stderr.write('bench: bundling the service…\n');
  execFileSync(process.execPath, ['scripts/build-server.mjs'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
if (runs('edit')) {
  await section('POST /config/edit', async () => {
    const { figures: edit, medians } = await benchConfigEdit();
    return [...edit, growth('POST /config/edit growth, 1,000 → 10,000 apps', medians.byApps)];
  });
}
if (runs('merge')) await section('merged edits', benchMergeEdit);
if (runs('load')) await section('the service under edit load', benchEditUnderLoad);
if (runs('auth')) await section('GET /auth/status', benchAuthStatus);
if (runs('delivery')) await section('GET /delivery/{key}/apps/{app}, 304', benchDeliveryView);
if (runs('stream')) await section('push: publish → SSE event', benchDeliveryStream);
if (runs('storage')) await section('config text at rest', benchStoredText);
if (runs('lists')) await section('first pages after years of use', benchListPages);
if (runs('experiments')) await section('experiment events and results', benchExperiments);
if (runs('sizes') || runs('browser')) {
  // The console as it ships: built now, so that a clean clone can run the bench.
  process.stderr.write('bench: building the console…\n');
  execFileSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
}
if (runs('sizes')) await section('console sizes', async () => benchSizes());
if (runs('browser')) await section('console in Chromium', benchBrowser);
if (runs('ops')) {
  await section('editor text → operations', async () => {
    const { figures: operations, medians } = benchEditorOperations();
    return [
      ...operations,
      growth('editor text → operations growth, 1,000 → 10,000 apps', medians.byApps),
    ];
  });
}

printTable(figures);
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, ${process.platform}`;
writeFileSync(
  RESULTS_FILE,
  `${JSON.stringify({ date: new Date().toISOString(), machine, figures }, null, 2)}\n`,
);
const failed = figures.filter((figure) => figure.pass === false);
console.log(
  `${machine}\n${failed.length === 0 ? 'Every bar is met.' : `${failed.length} bar(s) missed.`}`,
);
