/**
 * `POST /config/edit` through real HTTP on the real service, on configs of 100, 1,000 and
 * 10,000 apps: the median latency of a one-app edit of a draft, divided by the median of
 * what the edit cannot do without in the same run (the `yaml` parse, validation and
 * stringify of that config, in this process). Samples alternate between the two, so that
 * a neighbour's load on the shared cores hits both alike. Cold edits are the first edit
 * after a restart of the service, when nothing is cached.
 */
import { parseConfig, stringifyConfig, validateParsedConfig } from '../../src/configs';
import { textChangesBetween } from '../../src/configs/text-edit';
import { operations, type Operation } from '../../src/contract/operations';
import { largeConfigText } from '../../src/configs/testing/large-config';
import { judged, median, printed, round, type Figure } from '../lib/figures';
import { benchDataDir, seedAccounts, type SeededAccount } from '../lib/seed';
import { startService } from '../lib/service-process';

const SIZES = [
  { apps: 100, runs: 31, coldRuns: 0 },
  { apps: 1_000, runs: 15, coldRuns: 5 },
  { apps: 10_000, runs: 7, coldRuns: 3 },
] as const;

/** Edit ÷ (parse + validate + stringify), for 1,000 and 10,000 apps (docs/benchmarks.md). */
const EDIT_RATIO_BAR = { max: 1.5, text: '≤ 1.5' };

export interface EditMedians {
  readonly byApps: ReadonlyMap<number, number>;
}

async function postEdit(
  url: string,
  account: SeededAccount,
  configId: string | undefined,
  run: number,
  typedText?: (saved: string, name: string) => Operation,
): Promise<{ id: string; ms: number }> {
  const name = `Bench name ${run}`;
  const operations: Operation[] = [{ update_app: [{ id: 'app-5', name }] }];
  if (typedText && configId)
    operations.push(typedText(await savedText(url, account, configId), name));
  const body = JSON.stringify({
    ...(configId ? { config_id: configId } : {}),
    summary: `Bench edit ${run}`,
    operations,
  });
  // A turn of I/O first: after a baseline that held this process for seconds, fetch would
  // otherwise reuse a kept-alive connection the service has closed meanwhile.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const start = performance.now();
  const response = await fetch(`${url}/api/v1/config/edit`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.adminKey}`, 'content-type': 'application/json' },
    body,
  });
  const result = (await response.json()) as { id?: string };
  const ms = performance.now() - start;
  if (!response.ok || typeof result.id !== 'string') {
    throw new Error(`POST /config/edit answered ${response.status}: ${JSON.stringify(result)}`);
  }
  return { id: result.id, ms };
}

async function savedText(url: string, account: SeededAccount, id: string): Promise<string> {
  const response = await fetch(`${url}/api/v1/configs/${id}`, {
    headers: { authorization: `Bearer ${account.adminKey}` },
  });
  const record = (await response.json()) as { yaml?: string };
  if (!response.ok || typeof record.yaml !== 'string') {
    throw new Error(`GET /configs/${id} answered ${response.status}`);
  }
  return record.yaml;
}

/** The rename typed as a person would: quoted, with a comment above it (`edit_text`). */
function typedRename(saved: string, name: string): Operation {
  const typed = saved.replace(
    /( {2}- id: app-5\n)(?: {4}# .*\n)? {4}name: .*\n/,
    (_line, head: string) => `${head}    # renamed in the bench\n    name: "${name}"\n`,
  );
  return operations.editText(...textChangesBetween(saved, typed));
}

/**
 * A service just started: answering, and given two seconds for what it does as it starts
 * (its edit workers compile the edit's code on a made-up config, about a second).
 */
async function settle(url: string): Promise<void> {
  const response = await fetch(`${url}/api/v1/health`);
  if (!response.ok) throw new Error(`GET /health answered ${response.status}`);
  await new Promise((resolve) => setTimeout(resolve, 2_000));
}

function baselineMs(text: string): number {
  const start = performance.now();
  const parsed = parseConfig(text);
  validateParsedConfig(parsed);
  stringifyConfig(parsed.document);
  return performance.now() - start;
}

export async function benchConfigEdit(): Promise<{ figures: Figure[]; medians: EditMedians }> {
  const texts = SIZES.map(({ apps }) => largeConfigText(apps));
  const dataDir = benchDataDir();
  const accounts = await seedAccounts(dataDir, texts);
  let service = await startService(dataDir);
  const figures: Figure[] = [];
  const byApps = new Map<number, number>();
  try {
    for (const [index, { apps, runs, coldRuns }] of SIZES.entries()) {
      const account = accounts[index] as SeededAccount;
      const text = texts[index] as string;
      // The first edit of the live config makes the draft; two more warm the service up.
      let draftId = (await postEdit(service.url, account, undefined, 0)).id;
      for (let run = 1; run <= 2; run++) {
        draftId = (await postEdit(service.url, account, draftId, run)).id;
      }
      baselineMs(text);
      const edits: number[] = [];
      const baselines: number[] = [];
      for (let run = 0; run < runs; run++) {
        baselines.push(baselineMs(text));
        edits.push((await postEdit(service.url, account, draftId, run + 3)).ms);
      }
      // As the console saves: the operations and the text as typed.
      const typedEdits: number[] = [];
      for (let run = 0; run < runs; run++) {
        baselines.push(baselineMs(text));
        const number = runs + 3 + run;
        typedEdits.push((await postEdit(service.url, account, draftId, number, typedRename)).ms);
      }
      // The next plain edit writes the typed text afresh once; not part of the figures.
      await postEdit(service.url, account, draftId, 2 * runs + 3);
      // Cold: the first edit after a restart, when nothing is cached.
      const colds: number[] = [];
      for (let run = 0; run < coldRuns; run++) {
        await service.stop();
        service = await startService(dataDir);
        await settle(service.url);
        baselines.push(baselineMs(text));
        colds.push((await postEdit(service.url, account, draftId, 2 * runs + 4 + run)).ms);
      }
      const edit = median(edits);
      const typedEdit = median(typedEdits);
      const baseline = median(baselines);
      byApps.set(apps, edit);
      const label = `${apps.toLocaleString('en')} apps`;
      figures.push(
        printed(`POST /config/edit, ${label}: median latency`, round(edit, 1), 'ms'),
        printed(`parse + validate + stringify, ${label} (baseline)`, round(baseline, 1), 'ms'),
        apps >= 1_000
          ? judged(
              `POST /config/edit ÷ baseline, ${label}`,
              round(edit / baseline),
              '×',
              EDIT_RATIO_BAR,
            )
          : printed(`POST /config/edit ÷ baseline, ${label}`, round(edit / baseline), '×'),
        printed(
          `POST /config/edit with edit_text, ${label}: median latency`,
          round(typedEdit, 1),
          'ms',
        ),
        apps >= 1_000
          ? judged(
              `POST /config/edit with edit_text ÷ baseline, ${label}`,
              round(typedEdit / baseline),
              '×',
              EDIT_RATIO_BAR,
            )
          : printed(
              `POST /config/edit with edit_text ÷ baseline, ${label}`,
              round(typedEdit / baseline),
              '×',
            ),
      );
      if (coldRuns > 0) {
        const cold = median(colds);
        figures.push(
          printed(`POST /config/edit cold, ${label}: median latency`, round(cold, 1), 'ms'),
          judged(
            `POST /config/edit cold ÷ baseline, ${label}`,
            round(cold / baseline),
            '×',
            EDIT_RATIO_BAR,
          ),
        );
      }
    }
  } finally {
    await service.stop();
  }
  return { figures, medians: { byApps } };
}
