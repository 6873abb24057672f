/**
 * The operator's command line as an operator uses it: separate processes on one data
 * directory, the server started with `serve`, and keys created, listed and revoked while it
 * runs. Real processes, real HTTP, real SQLite.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_MAX_EXPIRES_IN_DAYS, apiKeyListSchema, apiKeySchema } from '../contract/api-keys';
import { experimentResultsSchema, experimentTimeseriesSchema } from '../contract/experiments';
import { authStatusSchema } from '../contract/auth-status';
import { deliveryViewSchema } from '../contract/delivery';
import { BIN, spawnService, type ServiceProcess } from './testing/service-process';

const dataDir = mkdtempSync(join(tmpdir(), 'provisioning-cli-'));

function cli(...args: string[]): { status: number | null; json: unknown; stderr: string } {
  const result = spawnSync(process.execPath, [BIN, ...args, '--data-dir', dataDir], {
    encoding: 'utf8',
  });
  const stdout = result.stdout.trim();
  return {
    status: result.status,
    json: stdout ? (JSON.parse(stdout) as unknown) : undefined,
    stderr: result.stderr,
  };
}

let server: ServiceProcess | undefined;
let baseUrl = '';

beforeAll(async () => {
  server = await spawnService(['--data-dir', dataDir], { RATE_LIMIT_RPS: '0', LOG_LEVEL: 'warn' });
  baseUrl = server.url;
}, 60_000);

afterAll(() => {
  server?.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * On a connection of its own: the command line runs synchronously between calls, long enough
 * for the server to close a kept-alive connection that fetch would then reuse.
 */
async function status(key: string): Promise<Response> {
  return new Promise((resolve, reject) => {
    const request = get(
      `${baseUrl}/api/v1/auth/status`,
      { agent: false, headers: { authorization: `Bearer ${key}` } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () =>
          resolve(new Response(Buffer.concat(chunks), { status: answer.statusCode ?? 0 })),
        );
        answer.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}

describe('the operator command line', () => {
  it('creates an account, a user and a key that works against the running server, then revokes it', async () => {
    const account = cli('accounts', 'create', '--name', 'Acme', '--owner-email', 'ops@acme.test');
    expect(account.status).toBe(0);
    const { account_id: accountId } = account.json as { account_id: string };

    const user = cli(
      'users',
      'create',
      '--account',
      accountId,
      '--email',
      'ed@acme.test',
      '--role',
      'editor',
    );
    expect(user.json).toMatchObject({
      account_id: accountId,
      email: 'ed@acme.test',
      role: 'editor',
    });
    const { user_id: userId } = user.json as { user_id: string };

    const key = cli(
      'keys',
      'create',
      '--user',
      userId,
      '--name',
      'CI key',
      '--expires-in-days',
      '30',
    );
    expect(key.status).toBe(0);
    const created = key.json as {
      id: string;
      secret: string;
      permissions: string[];
      expires_at: string;
    };
    expect(created).toMatchObject({ name: 'CI key', account_id: accountId, user_id: userId });
    expect(created.permissions).toEqual(['config:read', 'config:write']);
    expect(created.secret).toMatch(/^sk_[0-9A-Za-z]{40}$/);

    const response = await status(created.secret);
    expect(response.status).toBe(200);
    const who = authStatusSchema.parse(await response.json());
    expect(who).toMatchObject({
      email: 'ed@acme.test',
      role: 'editor',
      api_key_id: created.id,
      expires_at: created.expires_at,
    });

    const listed = cli('keys', 'list', '--account', accountId);
    const keys = apiKeyListSchema.parse(listed.json);
    expect(keys.map((listedKey) => listedKey.id)).toEqual([created.id]);
    expect(JSON.stringify(listed.json)).not.toContain(created.secret);

    const revoked = cli('keys', 'revoke', '--id', created.id);
    expect(apiKeySchema.parse(revoked.json).revoked_at).not.toBeNull();
    expect((await status(created.secret)).status).toBe(401);
  }, 60_000);

  it('limits a key to the permissions asked for', async () => {
    const { account_id: accountId, user_id: ownerId } = cli('accounts', 'create', '--name', 'Two')
      .json as {
      account_id: string;
      user_id: string;
    };
    const key = cli(
      'keys',
      'create',
      '--user',
      ownerId,
      '--name',
      'read only',
      '--permissions',
      'config:read',
    ).json as {
      secret: string;
      account_id: string;
    };
    expect(key.account_id).toBe(accountId);
    const who = authStatusSchema.parse(await (await status(key.secret)).json());
    expect(who.permissions).toEqual(['config:read']);
  }, 30_000);

  it('gives a member a one-time sign-in link, and sets the SSO connection from a secret file', async () => {
    const { account_id: accountId, user_id: ownerId } = cli(
      'accounts',
      'create',
      '--name',
      'Acme',
      '--owner-email',
      'ops@acme.com',
    ).json as { account_id: string; user_id: string };
    const link = cli('sign-in-link', 'create', '--user', ownerId, '--url', baseUrl).json as {
      link: string;
      email: string;
    };
    expect(link.email).toBe('ops@acme.com');
    expect(link.link).toMatch(new RegExp(`^${baseUrl}/invitations/[\\w-]{43}$`));
    const preview = await fetch(`${baseUrl}/api/v1${new URL(link.link).pathname}`);
    expect(await preview.json()).toMatchObject({ email: 'ops@acme.com', status: 'pending' });

    const secretFile = join(dataDir, 'client-secret');
    writeFileSync(secretFile, 'a-client-secret\n');
    const set = cli(
      'sso',
      'set',
      ...['--account', accountId, '--issuer', 'https://acme.okta.com'],
      ...['--client-id', 'console', '--client-secret-file', secretFile],
      ...[
        '--domains',
        'acme.com',
        '--group-roles',
        'ops=admin',
        '--default-role',
        'refuse',
        '--jit',
      ],
    );
    expect(set.status, set.stderr).toBe(0);
    expect(set.json).toMatchObject({
      sso: {
        issuer: 'https://acme.okta.com',
        email_domains: ['acme.com'],
        group_roles: { ops: 'admin' },
        default_role: 'refuse',
        jit: true,
        client_secret_set: true,
      },
    });
    expect(JSON.stringify(set.json)).not.toContain('a-client-secret');
    const options = await fetch(`${baseUrl}/api/v1/auth/options?email=ana@acme.com`);
    expect(await options.json()).toEqual({ password: true, sso: true });
  }, 30_000);

  it('fails with one line on stderr and a non-zero exit', () => {
    const missing = cli(
      'users',
      'create',
      '--account',
      'acc_nope',
      '--email',
      'x@y.z',
      '--role',
      'editor',
    );
    expect(missing.status).not.toBe(0);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    const badRole = cli(
      'users',
      'create',
      '--account',
      'acc_nope',
      '--email',
      'x@y.z',
      '--role',
      'owner',
    );
    expect(badRole.status).toBe(2);
    expect(badRole.stderr).toContain('--role must be one of admin, editor, viewer');
    expect(cli('keys', 'revoke', '--id', 'key_nope').status).toBe(1);
    expect(cli('frobnicate').status).toBe(2);
  }, 30_000);

  it('bounds --expires-in-days as the API does: 1 to 3,650 whole days', () => {
    const { user_id: userId, account_id: accountId } = cli('accounts', 'create', '--name', 'Expiry')
      .json as { user_id: string; account_id: string };
    const create = (days: string) =>
      cli('keys', 'create', '--user', userId, '--name', `k${days}`, '--expires-in-days', days);
    const longest = create(String(API_KEY_MAX_EXPIRES_IN_DAYS));
    expect(longest.status).toBe(0);
    const expiresAt = Date.parse((longest.json as { expires_at: string }).expires_at);
    expect(expiresAt - Date.now()).toBeGreaterThan((API_KEY_MAX_EXPIRES_IN_DAYS - 1) * 86_400_000);
    for (const days of ['3651', '99999', '99999999', '0', '1.5', '1e3']) {
      const refused = create(days);
      expect(refused.status, days).toBe(2);
      expect(refused.json).toBeUndefined();
      expect(refused.stderr.trim()).toBe(
        `provisioning keys create: --expires-in-days must be a whole number of days from 1 to 3,650, got "${days}"`,
      );
    }
    // The refused ones made no key.
    expect(apiKeyListSchema.parse(cli('keys', 'list', '--account', accountId).json)).toHaveLength(
      1,
    );
  }, 60_000);

  it('stops cleanly on SIGTERM', async () => {
    server?.child.kill('SIGTERM');
    expect(await server?.exited).toBe(0);
  }, 30_000);

  it('serve --demo seeds an account whose sign-in link, admin key and client key work, and prints them', async () => {
    const demoDir = mkdtempSync(join(tmpdir(), 'provisioning-demo-'));
    const output: string[] = [];
    const demo = await spawnService(
      ['--data-dir', demoDir, '--demo'],
      { RATE_LIMIT_RPS: '0', LOG_LEVEL: 'warn' },
      output,
    );
    try {
      const printed = output.join('');
      const line = printed.split('\n').find((candidate) => candidate.startsWith('{"url"')) ?? '';
      const started = JSON.parse(line) as {
        demo_api_key: string;
        demo_client_key: string;
        demo_sign_in_url: string;
      };
      expect(printed).toContain(started.demo_api_key);
      // The owner's one-time link: set a password, and the session it starts says who.
      expect(printed).toContain(started.demo_sign_in_url);
      const token = started.demo_sign_in_url.split('/invitations/')[1] as string;
      const accepted = await fetch(`${demo.url}/api/v1/invitations/${token}/accept`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-requested-with': 'console',
          origin: demo.url,
        },
        body: JSON.stringify({ password: 'a demo password, long enough' }),
      });
      expect(accepted.status).toBe(200);
      expect(authStatusSchema.parse(await accepted.json())).toMatchObject({
        email: 'demo@example.com',
        role: 'admin',
        session_method: 'password',
      });
      expect(printed).toContain(
        `curl ${demo.url}/api/v1/delivery/${started.demo_client_key}/apps/checkout`,
      );
      const whoami = await fetch(`${demo.url}/api/v1/auth/status`, {
        headers: { authorization: `Bearer ${started.demo_api_key}` },
      });
      expect(authStatusSchema.parse(await whoami.json()).email).toBe('demo@example.com');
      // Beside production, a staging environment made from the same config.
      const accounts = await fetch(`${demo.url}/api/v1/accounts`, {
        headers: { authorization: `Bearer ${started.demo_api_key}` },
      });
      expect(
        ((await accounts.json()) as { name: string; account_type: string }[]).map(
          ({ name, account_type }) => `${name} (${account_type})`,
        ),
      ).toEqual(['Demo (production)', 'Staging (staging)']);
      const view = await fetch(
        `${demo.url}/api/v1/delivery/${started.demo_client_key}/apps/checkout`,
      );
      expect(view.status).toBe(200);
      const body = deliveryViewSchema.parse(await view.json());
      expect(body.app.settings.theme).toBe('dark');
      expect(body.ab_tests.map((test) => test.id)).toEqual(['bigger-button']);
      // Its running test has two weeks of simulated results, marked as such.
      const results = await fetch(`${demo.url}/api/v1/ab-tests/bigger-button/results`, {
        headers: { authorization: `Bearer ${started.demo_api_key}` },
      });
      const answer = experimentResultsSchema.parse(await results.json());
      expect(answer.simulated).toBe(true);
      expect(answer.computed_at).not.toBeNull();
      expect(answer.metrics.map((metric) => `${metric.id} (${metric.role})`)).toEqual([
        'purchases (goal)',
        'revenue (goal)',
        'checkout-errors (guardrail)',
      ]);
      expect(answer.units.reduce((total, variant) => total + variant.units, 0)).toBe(4_200);
      const series = await fetch(`${demo.url}/api/v1/ab-tests/bigger-button/results/timeseries`, {
        headers: { authorization: `Bearer ${started.demo_api_key}` },
      });
      const days = experimentTimeseriesSchema.parse(await series.json()).metrics[0]?.variants[0];
      expect(days?.points.length).toBeGreaterThanOrEqual(14);
    } finally {
      demo.child.kill('SIGKILL');
      await demo.exited;
      rmSync(demoDir, { recursive: true, force: true });
    }
  }, 60_000);
});
