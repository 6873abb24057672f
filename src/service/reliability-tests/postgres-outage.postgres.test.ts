/**
 * PostgreSQL going away under edit load: the real service as a child process on a cluster of
 * this test's own (the run's shared cluster must stay up for the other tests), several
 * clients editing one draft, then the service's connections killed from an admin session,
 * and then the whole server stopped and started again. The process must live through it,
 * answer 503 problem+json with Retry-After while the database is gone, report `degraded` on
 * /health, come back by itself, and keep every acknowledged edit, whole.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configEditResultSchema } from '../../contract/config-edit';
import { fetchEndpoint, problemOf, successOf, type Answer } from '../testing/http';
import { startPostgresCluster, type PostgresCluster } from '../testing/postgres-cluster';
import { runCli, spawnService, type ServiceProcess } from '../testing/service-process';
import { checkDraft, pairEdit, problemsOf } from '../testing/crash-harness';
import { reportFigure, runLength } from '../testing/run-length';

const CLIENTS = 6;
/** Rounds of pg_terminate_backend, and of stopping the server. */
const KILLS = runLength(4, 20);
const STOPS = runLength(2, 6);
/**
 * Liveness bounds: an answer to any request (/health's own probe gives up well before), and
 * the service coming back after the database.
 */
const ANSWER_WITHIN_MS = 15_000;
const HEALTH_WITHIN_MS = 5_000;
const BACK_WITHIN_MS = 30_000;

let cluster: PostgresCluster;
let service: ServiceProcess;
let key = '';
let draftId = '';
const output: string[] = [];
/** Every edit any load saw acknowledged (200), for the final check. */
const acknowledged = new Set<string>();
/** Numbers the apps of every load, so that no two edits add the same id. */
let sequence = 0;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `text` as the cluster's role on a connection of its own (not the service's). */
async function admin<R extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

function alive(): boolean {
  return service.child.exitCode === null && service.child.signalCode === null;
}

/** `answer`, or a failure once `ms` have passed without one. */
function within<T>(ms: number, answer: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

function health(): Promise<Answer> {
  return within(HEALTH_WITHIN_MS, fetchEndpoint(service.url, undefined, 'getHealth'));
}

/**
 * Clients that each add one pair of apps per edit (`<id>` and `<id>-pair`), as fast as they
 * are answered, so an edit applied in part would show as an app without its pair.
 */
class EditLoad {
  acknowledgedHere = 0;
  /** Answers that are neither a 200 nor a well-formed 503 (a 500, a hang, a reset). */
  readonly unexpected: string[] = [];
  unavailable = 0;
  private running = true;
  private readonly clients: Promise<void>[];

  constructor(clients: number) {
    this.clients = Array.from({ length: clients }, () => this.client());
  }

  private async client(): Promise<void> {
    while (this.running) {
      const id = `app-${sequence++}`;
      let answer: Answer;
      try {
        answer = await within(
          ANSWER_WITHIN_MS,
          fetchEndpoint(service.url, key, 'editConfig', {
            payload: pairEdit(draftId, id),
          }),
        );
      } catch (error) {
        this.unexpected.push(`${id}: ${String(error)}`);
        return;
      }
      if (answer.status === 200) {
        configEditResultSchema.parse(answer.body);
        acknowledged.add(id);
        this.acknowledgedHere++;
        continue;
      }
      try {
        expectUnavailable(answer);
        this.unavailable++;
      } catch (error) {
        this.unexpected.push(`${id}: ${String(error)}`);
      }
      await sleep(20);
    }
  }

  /** Resolves once `count` more edits have been acknowledged; throws after `withinMs`. */
  async acknowledges(count: number, withinMs = BACK_WITHIN_MS): Promise<void> {
    const target = this.acknowledgedHere + count;
    const deadline = performance.now() + withinMs;
    while (this.acknowledgedHere < target) {
      if (performance.now() > deadline || this.unexpected.length > 0 || !alive())
        throw new Error(
          `${this.acknowledgedHere} of ${target} edits acknowledged; ${this.unexpected.join('; ')}; alive: ${alive()}`,
        );
      await sleep(10);
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.clients);
  }
}

/** A 503 problem+json naming the database, with a Retry-After in seconds. */
function expectUnavailable(answer: Answer): void {
  const problem = problemOf(answer, 503);
  expect(problem.code).toBe('database_unavailable');
  expect(answer.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
}

async function untilHealth(status: 'ok' | 'degraded'): Promise<void> {
  const deadline = performance.now() + BACK_WITHIN_MS;
  for (;;) {
    const body = successOf('getHealth', await health());
    if (body.status === status) return;
    if (performance.now() > deadline) throw new Error(`/health still says ${body.status}`);
    await sleep(50);
  }
}

beforeAll(async () => {
  cluster = await startPostgresCluster();
  const env = { DATABASE_URL: cluster.url, RATE_LIMIT_RPS: '0', LOG_LEVEL: 'warn' };
  const account = runCli(['accounts', 'create', '--name', 'Outage'], env);
  key = String(
    runCli(['keys', 'create', '--user', String(account.user_id), '--name', 'outage'], env).secret,
  );
  service = await spawnService([], env, output);
  const draft = successOf(
    'editConfig',
    await fetchEndpoint(service.url, key, 'editConfig', {
      payload: { summary: 'outage draft', operations: [{ set: [{ path: '/notes', value: 'x' }] }] },
    }),
  );
  draftId = draft.id;
}, 120_000);

afterAll(async () => {
  if (service && alive()) {
    service.child.kill('SIGTERM');
    await service.exited;
  }
  cluster?.stop();
});

describe('PostgreSQL going away under edit load', () => {
  const load = () => new EditLoad(CLIENTS);

  it(`lives through its connections being killed ${KILLS} times, and goes on editing`, async () => {
    const edits = load();
    try {
      await edits.acknowledges(10);
      for (let kill = 0; kill < KILLS; kill++) {
        const killed = await admin(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'provisioning'",
        );
        expect(killed.length).toBeGreaterThan(0);
        // Back by itself: new connections, and edits acknowledged again.
        await edits.acknowledges(5);
      }
    } finally {
      await edits.stop();
    }
    expect(edits.unexpected).toEqual([]);
    expect(alive(), output.join('')).toBe(true);
    reportFigure(
      `pg_terminate_backend ${KILLS}× under ${CLIENTS} editing clients: ${edits.unavailable} edits answered 503, ${edits.acknowledgedHere} acknowledged, the process alive`,
    );
  });

  it(`answers 503 and /health degraded while the server is down, and recovers by itself (${STOPS}×)`, async () => {
    for (let stop = 0; stop < STOPS; stop++) {
      // A fast shutdown ends each session with an error; an immediate one just drops them.
      const mode = stop % 2 === 0 ? 'fast' : 'immediate';
      const edits = load();
      let down = false;
      try {
        await edits.acknowledges(10);
        cluster.stopServer(mode);
        down = true;
        const unavailableBefore = edits.unavailable;
        // Reads and edits alike get the 503, and the process stays up.
        expectUnavailable(
          await fetchEndpoint(service.url, key, 'getConfig', { params: { id: draftId } }),
        );
        await untilHealth('degraded');
        expect(successOf('getHealth', await health())).toEqual({
          status: 'degraded',
          detail: expect.any(String),
        });
        while (edits.unavailable < unavailableBefore + CLIENTS && edits.unexpected.length === 0)
          await sleep(10);
        expect(alive(), output.join('')).toBe(true);

        cluster.startServer();
        down = false;
        await edits.acknowledges(10);
        await untilHealth('ok');
      } finally {
        if (down) cluster.startServer();
        await edits.stop();
      }
      expect(edits.unexpected, `${mode} stop`).toEqual([]);
      expect(alive(), output.join('')).toBe(true);
      reportFigure(
        `PostgreSQL ${mode} stop: ${edits.unavailable} edits answered 503, ${edits.acknowledgedHere} acknowledged, the process alive`,
      );
    }
  });

  it('idle, probes the database for /health: degraded while it is down, ok once it is back', async () => {
    cluster.stopServer('fast');
    try {
      await untilHealth('degraded');
      expectUnavailable(await fetchEndpoint(service.url, key, 'getAuthStatus'));
    } finally {
      cluster.startServer();
    }
    await untilHealth('ok');
    successOf('getAuthStatus', await fetchEndpoint(service.url, key, 'getAuthStatus'));
    expect(alive(), output.join('')).toBe(true);
  });

  it('kept every acknowledged edit, and applied none in part', async () => {
    const body = successOf(
      'getConfig',
      await fetchEndpoint(service.url, key, 'getConfig', { params: { id: draftId } }),
    );
    const [history] = await admin<{ n: number }>(
      'SELECT COUNT(*)::int AS n FROM history WHERE config_id = $1',
      [draftId],
    );
    const check = checkDraft(
      { integrity: 'ok', yaml: body.yaml, revision: body.revision, historyRows: history?.n ?? 0 },
      acknowledged,
    );
    expect(problemsOf(check)).toEqual([]);
    expect(check.apps.length).toBeGreaterThan(0);
  });
});
