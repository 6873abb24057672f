/**
 * An edit merged across newer edits, through real HTTP on the real service: a draft of 1,000
 * and 10,000 apps is edited 50 times, then the same one-app edit is posted alternately with
 * `base_revision` 50 revisions behind (merged with those 50 edits) and at the current revision
 * (no merge). The figures are ratios of medians: a rename by id (as the console's editor
 * sends it) and by list position (`set /apps/N/name`) are judged; a rename by position
 * across an edit that created an app, which makes the service rebuild the config at the
 * base revision, is printed.
 */
import type { Operation } from '../../src/contract/operations';
import { largeConfigText } from '../../src/configs/testing/large-config';
import { judged, median, printed, round, type Figure } from '../lib/figures';
import { benchDataDir, seedAccounts, type SeededAccount } from '../lib/seed';
import { startService } from '../lib/service-process';

const SIZES = [
  { apps: 1_000, runs: 9 },
  { apps: 10_000, runs: 5 },
] as const;
const AHEAD = 50;
const MERGE_RATIO_BAR = { max: 2, text: '≤ 2' };

interface Posted {
  readonly id: string;
  readonly revision: number;
  readonly merged: readonly number[];
  readonly ms: number;
}

async function post(
  url: string,
  account: SeededAccount,
  body: Readonly<Record<string, unknown>>,
): Promise<Posted> {
  await new Promise((resolve) => setTimeout(resolve, 20));
  const start = performance.now();
  const response = await fetch(`${url}/api/v1/config/edit`, {
    method: 'POST',
    headers: { authorization: `Bearer ${account.adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const result = (await response.json()) as {
    id?: string;
    revision?: number;
    merged_revisions?: number[];
  };
  const ms = performance.now() - start;
  if (!response.ok || typeof result.id !== 'string' || typeof result.revision !== 'number') {
    throw new Error(`POST /config/edit answered ${response.status}: ${JSON.stringify(result)}`);
  }
  return { id: result.id, revision: result.revision, merged: result.merged_revisions ?? [], ms };
}

/**
 * A rename, by id or by position, of an app no other edit touches (theirs rename apps 100 to
 * 899), on the draft as it was at `revision`.
 */
function rename(
  draftId: string,
  revision: number,
  app: number,
  byPosition: boolean,
): Record<string, unknown> {
  const name = `Merged name ${app}`;
  const operation: Operation = byPosition
    ? { set: [{ path: `/apps/${app}/name`, value: name }] }
    : { update_app: [{ id: `app-${app}`, name }] };
  return {
    config_id: draftId,
    base_revision: revision,
    summary: `Bench merge ${app}`,
    operations: [operation],
  };
}

export async function benchMergeEdit(): Promise<Figure[]> {
  const texts = SIZES.map(({ apps }) => largeConfigText(apps));
  const dataDir = benchDataDir();
  const accounts = await seedAccounts(dataDir, texts);
  const service = await startService(dataDir);
  const figures: Figure[] = [];
  try {
    for (const [index, { apps, runs }] of SIZES.entries()) {
      const account = accounts[index] as SeededAccount;
      let { id, revision } = await post(service.url, account, {
        summary: 'Bench draft',
        operations: [{ update_app: [{ id: 'app-1', name: 'Bench draft' }] }],
      });
      // Other people's edits, each on an app of its own.
      const others = async (count: number) => {
        for (let other = 0; other < count; other++) {
          ({ revision } = await post(service.url, account, {
            config_id: id,
            base_revision: revision,
            summary: `Someone else ${other}`,
            operations: [
              { update_app: [{ id: `app-${100 + (other % 800)}`, name: `Other ${other}` }] },
            ],
          }));
        }
      };
      await others(AHEAD);
      const samples = {
        plain: [] as number[],
        merged: [] as number[],
        positional: [] as number[],
        rebuilt: [] as number[],
      };
      let app = 900;
      // Last, merges across an edit that created an app: positions must then be read on
      // the config rebuilt at the base revision.
      for (const kinds of [['plain', 'merged', 'positional'], ['rebuilt']] as const) {
        if (kinds[0] === 'rebuilt') {
          ({ revision } = await post(service.url, account, {
            config_id: id,
            base_revision: revision,
            summary: 'Someone else adds an app',
            operations: [{ create_app: [{ id: 'bench-new', name: 'New', platform: 'web' }] }],
          }));
        }
        for (let run = 0; run < runs; run++) {
          for (const kind of kinds) {
            const base = kind === 'plain' ? revision : revision - AHEAD;
            const posted = await post(
              service.url,
              account,
              rename(id, base, app++, kind !== 'plain' && kind !== 'merged'),
            );
            if (kind !== 'plain' && posted.merged.length !== AHEAD) {
              throw new Error(`the ${kind} edit merged ${posted.merged.length} revisions`);
            }
            ({ id, revision } = posted);
            samples[kind].push(posted.ms);
            // One more of theirs between samples, so each merge meets work it has not seen.
            await others(1);
          }
        }
      }
      const label = `${apps.toLocaleString('en')} apps`;
      const plain = median(samples.plain);
      const merged = median(samples.merged);
      const positional = median(samples.positional);
      const rebuilt = median(samples.rebuilt);
      figures.push(
        printed(`POST /config/edit, no merge, ${label}: median latency`, round(plain, 1), 'ms'),
        printed(
          `POST /config/edit merged across ${AHEAD} revisions, ${label}: median latency`,
          round(merged, 1),
          'ms',
        ),
        judged(
          `merged edit ÷ the same edit without a merge, ${label}`,
          round(merged / plain),
          '×',
          MERGE_RATIO_BAR,
        ),
        judged(
          `merged edit by list position ÷ without a merge, ${label}`,
          round(positional / plain),
          '×',
          MERGE_RATIO_BAR,
        ),
        printed(
          `merged edit by list position, across an app created meanwhile, ÷ without a merge, ${label}`,
          round(rebuilt / plain),
          '×',
        ),
      );
    }
  } finally {
    await service.stop();
  }
  return figures;
}
