/**
 * The crash harness (docs/reliability.md): the real server as a child
 * process on a data directory, edit load from many clients, SIGKILL at a random moment,
 * then the database checked while nothing runs and the server restarted. Used by
 * reliability-tests/crash.test.ts (a few kills) and by `scripts/stress-kill.ts` (20 kills). Test-only.
 *
 * Each edit creates a pair of apps (`<id>` and `<id>-pair`) in one draft, so an edit that
 * landed half is visible: one app of a pair without the other, or a revision that does not
 * match the number of apps and history rows.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { storedText } from '../store/configs/stored-text';
import { DATABASE_FILE } from '../store/database';
import { runCli, spawnService, type ServiceProcess } from './service-process';

export interface CrashRunOptions {
  readonly kills: number;
  readonly clients: number;
  /**
   * Each round, the server is killed at a random moment in this range, counted from when it
   * has acknowledged `warmUpEdits` edits of the round (so every kill lands under real load,
   * however slow a loaded machine makes a fresh server).
   */
  readonly killAfterMs: readonly [min: number, max: number];
  readonly warmUpEdits: number;
  /** Also time a start after a clean shutdown, for comparison (the stress script). */
  readonly measureCleanRestart?: boolean;
  /** Prints progress (the stress script); quiet in vitest. */
  readonly log?: (line: string) => void;
}

/** What the database holds for the stressed draft, read with the server down. */
export interface DatabaseCheck {
  readonly integrity: string;
  readonly revision: number;
  readonly historyRows: number;
  readonly apps: readonly string[];
  /** Acknowledged edits whose apps are not both there. */
  readonly missing: readonly string[];
  /** Apps whose pair is missing: an edit applied in part. */
  readonly halfApplied: readonly string[];
  readonly duplicates: number;
}

export interface CrashRound {
  readonly round: number;
  /** From spawning the server to its first authenticated 200 (reading the draft). */
  readonly restartMs: number;
  readonly check: DatabaseCheck;
}

export interface CrashRunReport {
  readonly rounds: readonly CrashRound[];
  readonly requests: number;
  readonly acknowledged: number;
  readonly unanswered: number;
  readonly serverErrors: number;
  /** The same measure after a clean shutdown (SIGTERM): what a start costs without a crash. */
  readonly cleanRestartMs: number | undefined;
  /** The server's own stdout (pino logs), for the secret check. */
  readonly serverOutput: string;
  readonly secrets: readonly string[];
  readonly dataDir: string;
}

/** A data directory with one account and an admin key, made by the operator's CLI. */
function prepareDataDir(): { dataDir: string; key: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'provisioning-crash-'));
  const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);
  const account = cli('accounts', 'create', '--name', 'Crash');
  const key = cli('keys', 'create', '--user', String(account.user_id), '--name', 'crash').secret;
  if (typeof key !== 'string') throw new Error('no key was created');
  return { dataDir, key };
}

function spawnServer(dataDir: string, output: string[]): Promise<ServiceProcess> {
  // info: the request lines are logged, so the secret check has real logs to read.
  return spawnService(['--data-dir', dataDir], { RATE_LIMIT_RPS: '0', LOG_LEVEL: 'info' }, output);
}

/** Reads the draft straight from the SQLite file (the server is down). */
export function checkDatabase(
  dataDir: string,
  draftId: string,
  acknowledged: ReadonlySet<string>,
): DatabaseCheck {
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    const integrity = String(db.pragma('integrity_check', { simple: true }));
    const row = db
      .prepare('SELECT yaml, yaml_packed, revision FROM configs WHERE id = ?')
      .get(draftId) as { yaml: string; yaml_packed: Buffer | null; revision: number } | undefined;
    const historyRows = (
      db.prepare('SELECT COUNT(*) AS n FROM history WHERE config_id = ?').get(draftId) as {
        n: number;
      }
    ).n;
    return checkDraft(
      {
        integrity,
        yaml: row && storedText(row.yaml, row.yaml_packed),
        revision: row?.revision,
        historyRows,
      },
      acknowledged,
    );
  } finally {
    db.close();
  }
}

/** The check of a draft as any store holds it: its YAML, revision and history rows. */
/**
 * The edit the load sends: apps `id` and `id-pair` in one request, so that a draft holding
 * one without the other shows an edit half applied (checkDraft).
 */
export function pairEdit(draftId: string, id: string) {
  return {
    config_id: draftId,
    summary: `add ${id}`,
    operations: [
      {
        create_app: [
          { id, name: id, platform: 'web' },
          { id: `${id}-pair`, name: id, platform: 'ios' },
        ],
      },
    ],
  };
}

export function checkDraft(
  stored: {
    readonly integrity: string;
    readonly yaml: string | undefined;
    readonly revision: number | undefined;
    readonly historyRows: number;
  },
  acknowledged: ReadonlySet<string>,
): DatabaseCheck {
  const data = (stored.yaml ? parse(stored.yaml) : {}) as { apps?: { id: string }[] } | null;
  const apps = (data?.apps ?? []).map((app) => app.id);
  const present = new Set(apps);
  const partner = (id: string) => (id.endsWith('-pair') ? id.slice(0, -5) : `${id}-pair`);
  return {
    integrity: stored.integrity,
    revision: stored.revision ?? 0,
    historyRows: stored.historyRows,
    apps,
    missing: [...acknowledged].filter((id) => !present.has(id) || !present.has(`${id}-pair`)),
    halfApplied: apps.filter((id) => !present.has(partner(id))),
    duplicates: apps.length - present.size,
  };
}

/** The problems a check shows, in words; empty when the database is whole. */
export function problemsOf(check: DatabaseCheck): string[] {
  const problems: string[] = [];
  if (check.integrity !== 'ok') problems.push(`integrity_check: ${check.integrity}`);
  if (check.missing.length > 0) problems.push(`acknowledged but missing: ${check.missing.length}`);
  if (check.halfApplied.length > 0) problems.push(`half applied: ${check.halfApplied.join(', ')}`);
  if (check.duplicates > 0) problems.push(`duplicate app ids: ${check.duplicates}`);
  // Revision 1 made the draft; each later revision added one pair and one history row.
  if (check.apps.length !== 2 * (check.revision - 1))
    problems.push(`${check.apps.length} apps at revision ${check.revision}`);
  if (check.historyRows !== check.revision)
    problems.push(`${check.historyRows} history rows at revision ${check.revision}`);
  return problems;
}

/** Polls until the server answers an authenticated read of the draft (or gives up). */
async function untilAnswering(url: string, headers: Record<string, string>, path: string) {
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      const response = await fetch(`${url}${path}`, { headers });
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`the server did not answer ${path}`);
}

export async function runCrashRounds(options: CrashRunOptions): Promise<CrashRunReport> {
  const { dataDir, key } = prepareDataDir();
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const output: string[] = [];
  const acknowledged = new Set<string>();
  const rounds: CrashRound[] = [];
  let draftId = '';
  let sequence = 0;
  let requests = 0;
  let unanswered = 0;
  let serverErrors = 0;
  let afterKill: DatabaseCheck | undefined;

  // One more start than kills: the last start proves the server answers after the last kill.
  for (let round = 0; round <= options.kills; round++) {
    const started = performance.now();
    const server = await spawnServer(dataDir, output);
    if (!draftId) {
      const response = await fetch(`${server.url}/api/v1/config/edit`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          summary: 'crash draft',
          operations: [{ set: [{ path: '/notes', value: 'crash' }] }],
        }),
      });
      if (response.status !== 200) throw new Error(`no draft: ${await response.text()}`);
      draftId = ((await response.json()) as { id: string }).id;
    }
    await untilAnswering(server.url, headers, `/api/v1/configs/${draftId}`);
    const restartMs = performance.now() - started;
    if (afterKill) {
      rounds.push({ round, restartMs, check: afterKill });
      const problems = problemsOf(afterKill);
      options.log?.(
        `kill ${round}: ${afterKill.revision - 1} edits in the draft, ${acknowledged.size} acknowledged, answered again in ${Math.round(restartMs)} ms${problems.length ? `; ${problems.join('; ')}` : ''}`,
      );
    }
    if (round === options.kills) {
      server.child.kill('SIGTERM');
      await server.exited;
      break;
    }

    let running = true;
    let roundAcknowledged = 0;
    const client = async () => {
      while (running) {
        const id = `app-${sequence++}`;
        requests++;
        try {
          const response = await fetch(`${server.url}/api/v1/config/edit`, {
            method: 'POST',
            headers,
            body: JSON.stringify(pairEdit(draftId, id)),
          });
          await response.arrayBuffer();
          if (response.status === 200) {
            acknowledged.add(id);
            roundAcknowledged++;
          }
          if (response.status >= 500) serverErrors++;
        } catch {
          unanswered++; // the server is gone: this edit may or may not have landed, whole
          return;
        }
      }
    };
    const clients = Array.from({ length: options.clients }, client);
    const warmUpUntil = performance.now() + 60_000;
    while (roundAcknowledged < options.warmUpEdits && performance.now() < warmUpUntil) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const [min, max] = options.killAfterMs;
    await new Promise((resolve) => setTimeout(resolve, min + Math.random() * (max - min)));
    server.child.kill('SIGKILL');
    running = false;
    await Promise.all(clients);
    await server.exited;
    // The database as the restart will find it, read-only while no process has it open (a
    // writable connection would fold the WAL in on close, sparing the restart its recovery).
    afterKill = checkDatabase(dataDir, draftId, acknowledged);
  }

  // A start after a clean shutdown, for comparison: the crash's share of a restart.
  let cleanRestartMs: number | undefined;
  if (options.measureCleanRestart) {
    const cleanStarted = performance.now();
    const clean = await spawnServer(dataDir, output);
    await untilAnswering(clean.url, headers, `/api/v1/configs/${draftId}`);
    cleanRestartMs = performance.now() - cleanStarted;
    clean.child.kill('SIGTERM');
    await clean.exited;
  }

  return {
    rounds,
    requests,
    cleanRestartMs,
    acknowledged: acknowledged.size,
    unanswered,
    serverErrors,
    serverOutput: output.join(''),
    secrets: [key],
    dataDir,
  };
}

export function removeDataDir(report: CrashRunReport): void {
  rmSync(report.dataDir, { recursive: true, force: true });
}
