/**
 * SIGTERM under keep-alive load: the real server as a child process, clients that send their
 * next request as soon as they have an answer (reads and edits of a 1,000-app draft), and
 * uploads that are halfway through their body when the signal comes. Every request the
 * server received must get a whole answer (a 200, or a 503 problem once the close has begun),
 * none may be cut; the only failure allowed is a refused new connection (the server no longer
 * listens: nothing was sent); the process exits 0, within a liveness bound.
 */
import Database from 'better-sqlite3';
import { request as httpRequest, Agent } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { problemSchema } from '../../contract/problem';
import { storedText } from '../store/configs/stored-text';
import { DATABASE_FILE } from '../store/database';
import { openConnection, type RawConnection } from '../testing/raw-http';
import { runCli, spawnService, type ServiceProcess } from '../testing/service-process';

const CLIENTS = 8;
const UPLOADS = 2;
/** Answers before the signal: the clients are well under way. */
const WARM_UP_ANSWERS = 60;

const dataDir = mkdtempSync(join(tmpdir(), 'provisioning-shutdown-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Outcome {
  readonly label: string;
  /** The app an edit creates. */
  readonly app?: string;
  readonly sentAfterSignal: boolean;
  status?: number;
  body?: string;
  complete?: boolean;
  connection?: string | undefined;
  error?: string;
  reusedSocket?: boolean;
}

function editBody(draftId: string, id: string): string {
  return JSON.stringify({
    config_id: draftId,
    summary: `add ${id}`,
    operations: [{ create_app: [{ id, name: id, platform: 'web' }] }],
  });
}

/** One request on the agent's keep-alive connections, recorded however it ends. */
function send(
  agent: Agent,
  port: number,
  outcome: Outcome,
  options: { method: string; path: string; key: string; body?: string },
): Promise<Outcome> {
  return new Promise((resolve) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        agent,
        method: options.method,
        path: options.path,
        headers: {
          authorization: `Bearer ${options.key}`,
          ...(options.body ? { 'content-type': 'application/json' } : {}),
        },
      },
      (response) => {
        outcome.status = response.statusCode;
        outcome.connection = response.headers.connection;
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          outcome.body = Buffer.concat(chunks).toString('utf8');
          outcome.complete = response.complete;
          resolve(outcome);
        });
        response.on('error', (error: NodeJS.ErrnoException) => {
          outcome.error = `response: ${error.code ?? error.message}`;
          resolve(outcome);
        });
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => {
      outcome.error = error.code ?? error.message;
      outcome.reusedSocket = request.reusedSocket;
      resolve(outcome);
    });
    request.end(options.body);
  });
}

/** Resolves once new connections are refused: the server has begun its close. */
async function untilRefused(port: number): Promise<void> {
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    if (refused) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('SIGTERM under keep-alive load', () => {
  it('answers every request it received, cuts none, and exits 0', async () => {
    const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);
    const account = cli('accounts', 'create', '--name', 'Shutdown');
    const key = String(
      cli('keys', 'create', '--user', String(account.user_id), '--name', 'k').secret,
    );
    const output: string[] = [];
    const server: ServiceProcess = await spawnService(
      ['--data-dir', dataDir],
      { RATE_LIMIT_RPS: '0', LOG_LEVEL: 'warn' },
      output,
    );
    const port = Number(new URL(server.url).port);

    // A draft of 1,000 apps, so that each edit keeps the server busy for a while.
    const apps = Array.from({ length: 1_000 }, (_, i) => ({
      id: `seed-${i}`,
      name: `Seed ${i}`,
      platform: 'web',
    }));
    const created = await fetch(`${server.url}/api/v1/config/edit`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ summary: 'seed', operations: [{ create_app: apps }] }),
    });
    expect(created.status).toBe(200);
    const draftId = ((await created.json()) as { id: string }).id;

    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    const outcomes: Outcome[] = [];
    let signalled = false;
    let sequence = 0;
    const client = async (index: number) => {
      for (;;) {
        const n = sequence++;
        const app = (n + index) % 2 === 0 ? `app-${n}` : undefined;
        const outcome: Outcome = {
          label: `request ${n}`,
          sentAfterSignal: signalled,
          ...(app ? { app } : {}),
        };
        outcomes.push(outcome);
        await send(agent, port, outcome, {
          method: app ? 'POST' : 'GET',
          path: app ? '/api/v1/config/edit' : '/api/v1/auth/status',
          key,
          ...(app ? { body: editBody(draftId, app) } : {}),
        });
        // The server has stopped listening: this client is done.
        if (outcome.error !== undefined) return;
      }
    };
    const clients = Array.from({ length: CLIENTS }, (_, index) => client(index));

    // Uploads whose headers the server has taken (it says 100 Continue as it hands the
    // request to the app) and whose body is still to come when the signal arrives.
    const uploads: { connection: RawConnection; body: string; id: string }[] = [];
    for (let i = 0; i < UPLOADS; i++) {
      const id = `upload-${i}`;
      const body = editBody(draftId, id);
      const connection = await openConnection(port);
      connection.socket.write(
        `POST /api/v1/config/edit HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n${body.slice(0, 20)}`,
      );
      await connection.until('100 Continue');
      uploads.push({ connection, body, id });
    }

    const warmUpUntil = performance.now() + 60_000;
    while (outcomes.filter((o) => o.complete).length < WARM_UP_ANSWERS) {
      if (performance.now() > warmUpUntil) throw new Error(`no load: ${output.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const signalledAt = performance.now();
    signalled = true;
    server.child.kill('SIGTERM');
    // The rest of each upload arrives once the server drains.
    await untilRefused(port);
    for (const upload of uploads) upload.connection.socket.write(upload.body.slice(20));
    const uploadAnswers = await Promise.all(uploads.map((upload) => upload.connection.response()));

    const code = await server.exited;
    const exitMs = performance.now() - signalledAt;
    await Promise.all(clients);
    agent.destroy();

    // Nothing cut: every request has a whole answer, except new connections refused.
    const failed = outcomes.filter((o) => o.error !== undefined);
    for (const outcome of failed) {
      expect(outcome, JSON.stringify(outcome)).toMatchObject({
        error: 'ECONNREFUSED',
        reusedSocket: false,
      });
    }
    const answered = outcomes.filter((o) => o.error === undefined);
    expect(answered.length + failed.length).toBe(outcomes.length);
    for (const outcome of answered) {
      expect(outcome.complete, outcome.label).toBe(true);
      if (outcome.status === 503) {
        expect(problemSchema.parse(JSON.parse(outcome.body ?? '')).code).toBe('shutting_down');
        expect(outcome.connection).toBe('close');
      } else {
        expect(outcome.status, `${outcome.label}: ${outcome.body}`).toBe(200);
      }
    }
    // The uploads were in the server when the signal came: answered in full, and saved.
    for (const answer of uploadAnswers) {
      expect(answer.status, answer.body).toBe(200);
      expect(answer.headers.connection).toBe('close');
    }
    expect(code).toBe(0);
    // The promise is 10 s; the bound leaves room for a loaded machine.
    expect(exitMs).toBeLessThan(15_000);

    // Every acknowledged edit is in the draft, and nothing else was added.
    const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
    const row = db.prepare('SELECT yaml, yaml_packed FROM configs WHERE id = ?').get(draftId) as {
      yaml: string;
      yaml_packed: Buffer | null;
    };
    db.close();
    const ids = new Set(
      ((parse(storedText(row.yaml, row.yaml_packed)) as { apps: { id: string }[] }).apps ?? []).map(
        (app) => app.id,
      ),
    );
    const acknowledgedEdits = answered.flatMap((o) =>
      o.status === 200 && o.app !== undefined ? [o.app] : [],
    );
    for (const id of [...acknowledgedEdits, ...uploads.map((upload) => upload.id)])
      expect(ids.has(id), id).toBe(true);
    expect(ids.size).toBe(1_000 + acknowledgedEdits.length + UPLOADS);
  }, 120_000);
});
