/**
 * `config pull`, `diff` and `schema` against the real service on 127.0.0.1 (SQLite), and how
 * every command that calls the service finds it: PROVISIONING_URL or --url (the base, or the
 * API root), PROVISIONING_API_KEY or --key-file. Outputs are compared whole.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configJsonSchema } from '../configs/config-schema';
import { SHOP_YAML, editOk } from '../service/testing/api';
import {
  listeningTestService,
  runConfig,
  type ListeningService,
} from '../service/testing/config-cli';

const dir = mkdtempSync(join(tmpdir(), 'config-commands-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let served: ListeningService;
let env: Record<string, string>;

beforeEach(async () => {
  served = await listeningTestService({ initialYaml: SHOP_YAML });
  env = { PROVISIONING_URL: served.url, PROVISIONING_API_KEY: served.service.adminKey };
});
afterEach(async () => {
  await served.service.close();
});

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A draft of the live config with a comment of its own, so its text is not the live one's. */
async function draft(): Promise<string> {
  const result = await editOk(served.service, served.service.adminKey, {
    operations: [{ update_app: [{ id: 'ios-app', enabled: false }] }],
    summary: 'iOS off',
  });
  return result.id;
}

describe('provisioning config pull', () => {
  it('prints the live text byte for byte', async () => {
    expect(await runConfig(env, 'pull')).toEqual({ code: 0, stdout: SHOP_YAML, stderr: '' });
  });

  it('writes a config to --out and its revision to --revision-file', async () => {
    const id = await draft();
    const out = join(dir, 'pulled.yaml');
    const revision = join(dir, 'pulled.revision');
    const run = await runConfig(
      env,
      'pull',
      '--config',
      id,
      '--out',
      out,
      '--revision-file',
      revision,
    );
    expect(run).toEqual({ code: 0, stdout: '', stderr: '' });
    const record = await served.service.store.getConfig(served.service.account.account_id, id);
    expect(readFileSync(out, 'utf8')).toBe(record?.yaml);
    expect(readFileSync(revision, 'utf8')).toBe('1\n');
  });

  it('exits 2 with the problem on stderr for a config that is not there', async () => {
    expect(await runConfig(env, 'pull', '--config', 'cfg_nope')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'provisioning config pull: 404 not_found: The config cfg_nope was not found in this account\n',
    });
  });
});

describe('how the commands find the service', () => {
  it('takes --url with /api/v1 and the key from --key-file', async () => {
    const keyFile = file('key', `${served.service.adminKey}\n`);
    const run = await runConfig(
      {},
      'pull',
      '--url',
      `${served.url}/api/v1/`,
      '--key-file',
      keyFile,
    );
    expect(run).toEqual({ code: 0, stdout: SHOP_YAML, stderr: '' });
  });

  it('exits 2 without a URL, without a key, with a key the service refuses, or with a secret on the command line', async () => {
    expect(await runConfig({ PROVISIONING_API_KEY: 'k' }, 'pull')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "provisioning config pull: set PROVISIONING_URL (or --url) to the service's address\n",
    });
    expect(
      await runConfig({ PROVISIONING_URL: served.url }, 'diff', file('a.yaml', SHOP_YAML)),
    ).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'provisioning config diff: set PROVISIONING_API_KEY (or --key-file FILE) to an API key\n',
    });
    expect(await runConfig({ ...env, PROVISIONING_API_KEY: 'pk_wrong' }, 'pull')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'provisioning config pull: 401 api_key_invalid: The API key is malformed\n',
    });
    const secret = await runConfig({ PROVISIONING_URL: served.url }, 'pull', '--key', 'pk_x');
    expect(secret).toMatchObject({ code: 2, stdout: '' });
    expect(secret.stderr).toMatch(/^provisioning config pull: Unknown option '--key'/);
  });

  it('exits 2 when the service does not answer', async () => {
    const url = served.url;
    await served.service.close();
    served = await listeningTestService();
    const run = await runConfig({ ...env, PROVISIONING_URL: url }, 'pull');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      new RegExp(`^provisioning config pull: cannot reach ${url}/api/v1/configs/live: `),
    );
  });
});

describe('provisioning config diff', () => {
  it('prints [] and exits 0 when the file is the config', async () => {
    expect(await runConfig(env, 'diff', file('same.yaml', SHOP_YAML))).toEqual({
      code: 0,
      stdout: '[]\n',
      stderr: '',
    });
  });

  it('prints the typed operations as YAML, or JSON, and exits 1', async () => {
    const edited = SHOP_YAML.replace('theme: light', 'theme: dark').replace(
      'ab_tests:',
      '  - id: android\n    name: Android\n    platform: android\nab_tests:',
    );
    const path = file('edited.yaml', edited);
    expect(await runConfig(env, 'diff', path)).toEqual({
      code: 1,
      stdout: [
        '- update_app:',
        '    - id: checkout',
        '      settings:',
        '        theme: dark',
        '- create_app:',
        '    - id: android',
        '      name: Android',
        '      platform: android',
        '',
      ].join('\n'),
      stderr: '',
    });
    const json = await runConfig(env, 'diff', path, '--format', 'json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual([
      { update_app: [{ id: 'checkout', settings: { theme: 'dark' } }] },
      { create_app: [{ id: 'android', name: 'Android', platform: 'android' }] },
    ]);
  });

  it('shows a change of comments alone as the text change push would send', async () => {
    const path = file('comment.yaml', SHOP_YAML.replace('# Apps', '# All apps'));
    expect(await runConfig(env, 'diff', path)).toEqual({
      code: 1,
      stdout: [
        '- edit_text:',
        '    - changes:',
        '        - offset: 3',
        '          delete_count: 0',
        '          insert: ll a',
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  it('compares with a draft given by --against', async () => {
    const id = await draft();
    expect(await runConfig(env, 'diff', file('live.yaml', SHOP_YAML), '--against', id)).toEqual({
      code: 1,
      stdout: '- unset:\n    - path: /apps/1/enabled\n',
      stderr: '',
    });
  });

  it('exits 2 for a file that is not YAML, with its issues, and for a missing file', async () => {
    const broken = file('broken.yaml', 'apps:\n  - id: x\n  {\n');
    const run = await runConfig(env, 'diff', broken);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe(
      [
        `${broken}:3:1: error yaml.syntax All mapping items must start at the same column`,
        `${broken}:3:3: error yaml.syntax Implicit keys need to be on a single line`,
        `${broken}:3:3: error yaml.syntax Implicit map keys need to be followed by map values`,
        `${broken}:4:1: error yaml.syntax Flow map in block collection must be sufficiently indented and end with a }`,
        '',
      ].join('\n'),
    );
    expect(run.stderr).toBe(`provisioning config diff: ${broken} cannot be read as a config\n`);
    const missing = join(dir, 'missing.yaml');
    expect(await runConfig(env, 'diff', missing)).toEqual({
      code: 2,
      stdout: '',
      stderr: `provisioning config diff: cannot read ${missing}: ENOENT\n`,
    });
  });
});

describe('provisioning config schema', () => {
  it("prints the config's JSON Schema, offline", async () => {
    const run = await runConfig({}, 'schema');
    expect(run).toEqual({
      code: 0,
      stdout: `${JSON.stringify(configJsonSchema, null, 2)}\n`,
      stderr: '',
    });
  });
});
