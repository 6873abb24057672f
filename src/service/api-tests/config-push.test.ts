/**
 * `provisioning config push` against the real service (SQLite here, PostgreSQL in the
 * `postgres` project): the round trips (pull → push unchanged makes no revision; pull → edit →
 * push → pull gives the edited file byte for byte), merges from --base-revision, a conflict
 * that saves nothing, issues at the file's positions, --publish and --request-review; and
 * the same told as one JSON object with --format json.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SHOP_YAML, editOk, manualClock, ok } from '../testing/api';
import { listeningTestService, runConfig, type ListeningService } from '../testing/config-cli';

const dir = mkdtempSync(join(tmpdir(), 'config-push-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const time = manualClock('2026-11-20T10:00:00.000Z');
let served: ListeningService;
let env: Record<string, string>;
let liveId: string;

beforeEach(async () => {
  served = await listeningTestService({ initialYaml: SHOP_YAML, clock: time.clock });
  env = { PROVISIONING_URL: served.url, PROVISIONING_API_KEY: served.service.adminKey };
  liveId = (await ok(served.service, served.service.adminKey, 'getLiveConfig')).id;
});
afterEach(async () => {
  await served.service.close();
});

const path = (name: string) => join(dir, name);
const read = (name: string) => readFileSync(path(name), 'utf8');
const write = (name: string, text: string) => writeFileSync(path(name), text);

async function configs() {
  return ok(served.service, served.service.adminKey, 'listConfigs');
}

/** The edited shop: a value changed, a comment added, quoting kept as typed. */
const EDITED = SHOP_YAML.replace(
  'name: Checkout\n',
  "name: 'Checkout (web)' # shown in the header\n",
);

describe('provisioning config push', () => {
  it('changes nothing for a file pulled and pushed unchanged', async () => {
    expect((await runConfig(env, 'pull', '--out', path('shop.yaml'))).code).toBe(0);
    const before = await configs();
    expect(await runConfig(env, 'push', path('shop.yaml'), '--summary', 'No change')).toEqual({
      code: 0,
      stdout: `nothing to change: ${path('shop.yaml')} is the text of ${liveId} at revision 1\n`,
      stderr: '',
    });
    expect(await configs()).toEqual(before);
  });

  it('saves an edited file as a draft whose text pulls back byte for byte', async () => {
    await runConfig(env, 'pull', '--out', path('shop.yaml'));
    write('shop.yaml', EDITED);
    const pushed = await runConfig(env, 'push', path('shop.yaml'), '--summary', 'Rename checkout');
    const [draft] = await configs();
    expect(draft?.kind).toBe('draft');
    expect(pushed).toEqual({
      code: 0,
      stdout: `draft ${draft?.id} revision 1 (new, from ${liveId})\nmerged revisions: none\nvalid: 0 errors, 0 warnings\n`,
      stderr: '',
    });
    const pulled = await runConfig(env, 'pull', '--config', draft?.id ?? '');
    expect(pulled.stdout).toBe(EDITED);
    const history = await ok(served.service, served.service.adminKey, 'getConfigHistory', {
      params: { id: draft?.id ?? '' },
    });
    expect(history[0]?.operations.slice(0, 1)).toEqual([
      { update_app: [{ id: 'checkout', name: 'Checkout (web)' }] },
    ]);
  });

  it('reads a file with \\r\\n line ends as its \\n text, which the service keeps', async () => {
    write('crlf.yaml', SHOP_YAML.replace(/\n/g, '\r\n'));
    expect((await runConfig(env, 'push', path('crlf.yaml'), '--summary', 'Same')).stdout).toBe(
      `nothing to change: ${path('crlf.yaml')} is the text of ${liveId} at revision 1\n`,
    );
    write('crlf.yaml', EDITED.replace(/\n/g, '\r\n'));
    expect((await runConfig(env, 'push', path('crlf.yaml'), '--summary', 'Rename')).code).toBe(0);
    const [draft] = await configs();
    expect((await runConfig(env, 'pull', '--config', draft?.id ?? '')).stdout).toBe(EDITED);
  });

  it('merges a file pulled at an older revision with the edits since (--base-revision)', async () => {
    const draftId = (
      await editOk(served.service, served.service.adminKey, {
        operations: [{ update_app: [{ id: 'ios-app', name: 'Shop' }] }],
        summary: 'First',
      })
    ).id;
    await runConfig(
      env,
      'pull',
      '--config',
      draftId,
      '--out',
      path('d.yaml'),
      '--revision-file',
      path('d.rev'),
    );
    expect(read('d.rev')).toBe('1\n');
    await editOk(served.service, served.service.adminKey, {
      config_id: draftId,
      operations: [{ update_app: [{ id: 'ios-app', platform: 'android' }] }],
      summary: 'Theirs',
    });
    write('d.yaml', read('d.yaml').replace('theme: light', 'theme: dark'));
    const run = await runConfig(
      env,
      'push',
      path('d.yaml'),
      '--summary',
      'Mine',
      '--config',
      draftId,
      '--base-revision',
      '1',
    );
    expect(run).toEqual({
      code: 0,
      stdout: `draft ${draftId} revision 3 (updated)\nmerged revisions: 2\nthe saved text holds newer edits besides ${path('d.yaml')}: issues are placed in it (pull it to see them)\nvalid: 0 errors, 0 warnings\n`,
      stderr: '',
    });
    const pulled = (await runConfig(env, 'pull', '--config', draftId)).stdout;
    expect(pulled).toBe(read('d.yaml').replace('platform: ios', 'platform: android'));
  });

  it('prints each conflicting field with base, theirs and mine, exits 1 and saves nothing', async () => {
    const draftId = (
      await editOk(served.service, served.service.adminKey, {
        operations: [{ update_app: [{ id: 'ios-app', name: 'Shop' }] }],
        summary: 'First',
      })
    ).id;
    await runConfig(env, 'pull', '--config', draftId, '--out', path('c.yaml'));
    time.set('2026-11-20T11:00:00.000Z');
    await editOk(served.service, served.service.adminKey, {
      config_id: draftId,
      operations: [{ update_app: [{ id: 'ios-app', name: 'Theirs' }] }],
      summary: 'Theirs',
    });
    write('c.yaml', read('c.yaml').replace('name: Shop', 'name: Mine'));
    const run = await runConfig(
      env,
      'push',
      path('c.yaml'),
      '--summary',
      'Mine',
      '--config',
      draftId,
      '--base-revision',
      '1',
    );
    expect(run).toEqual({
      code: 1,
      stdout: [
        'not saved: The edit changes what revision 2 changed since: /apps/1/name',
        '/apps/1/name (revision 2 by owner@example.com at 2026-11-20T11:00:00.000Z)',
        '  base:   "Shop"',
        '  theirs: "Theirs"',
        '  mine:   "Mine"',
        '',
      ].join('\n'),
      stderr: '',
    });
    const record = await ok(served.service, served.service.adminKey, 'getConfig', {
      params: { id: draftId },
    });
    expect(record.revision).toBe(2);
  });

  it('prints any other refusal of the edit with its code and exits 1, saving nothing', async () => {
    const draftId = (
      await editOk(served.service, served.service.adminKey, {
        operations: [{ update_app: [{ id: 'ios-app', name: 'Shop' }] }],
        summary: 'First',
      })
    ).id;
    await runConfig(env, 'pull', '--config', draftId, '--out', path('t.yaml'));
    const pulled = read('t.yaml');
    // Theirs and mine rewrite the same comment: text alone, which cannot be merged.
    write('theirs.yaml', pulled.replace('# Apps this', '# The apps this'));
    await runConfig(env, 'push', path('theirs.yaml'), '--summary', 'Theirs', '--config', draftId);
    write('t.yaml', pulled.replace('# Apps this', '# All the apps this'));
    const run = await runConfig(
      env,
      'push',
      path('t.yaml'),
      '--summary',
      'Mine',
      '--config',
      draftId,
      '--base-revision',
      '1',
    );
    expect(run).toEqual({
      code: 1,
      stdout:
        'not saved: text_conflict: The edit changes only the text, and its changes meet those of revision 2: copy them, reload the config and make them again\n',
      stderr: '',
    });
    expect((await runConfig(env, 'pull', '--config', draftId)).stdout).toBe(read('theirs.yaml'));
  });

  it('saves a draft with errors, prints them at the file positions and exits 1', async () => {
    write('bad.yaml', SHOP_YAML.replace('platform: ios', 'platform: desktop'));
    const run = await runConfig(env, 'push', path('bad.yaml'), '--summary', 'Desktop', '--publish');
    const [draft] = await configs();
    expect(run).toEqual({
      code: 1,
      stdout: [
        `draft ${draft?.id} revision 1 (new, from ${liveId})`,
        'merged revisions: none',
        `${path('bad.yaml')}:11:15: error schema.enum apps[1].platform must be one of web, ios, android, server; got "desktop"`,
        'not valid: 1 error, 0 warnings',
        'not published: the draft has errors',
        '',
      ].join('\n'),
      stderr: '',
    });
  });

  it('saves nothing for a file that is not YAML, and exits 1 with its issues', async () => {
    write('broken.yaml', 'apps:\n  - id: x\n  {\n');
    const before = await configs();
    const run = await runConfig(env, 'push', path('broken.yaml'), '--summary', 'Broken');
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`^${path('broken.yaml')}:3:1: error yaml\\.syntax `));
    expect(
      run.stdout.endsWith(`not saved: ${path('broken.yaml')} cannot be read as a config\n`),
    ).toBe(true);
    expect(await configs()).toEqual(before);
  });

  it('publishes with --publish when the draft is valid', async () => {
    write('shop.yaml', EDITED);
    const run = await runConfig(env, 'push', path('shop.yaml'), '--summary', 'Rename', '--publish');
    const live = await ok(served.service, served.service.adminKey, 'getLiveConfig');
    expect(live.yaml).toBe(EDITED);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `^draft (cfg_\\w+) revision 1 \\(new, from ${liveId}\\)\\nmerged revisions: none\\nvalid: 0 errors, 0 warnings\\npublished ${live.id} \\(live\\)\\n$`,
      ),
    );
  });

  it('publishes a draft whose text the file already is, with --publish', async () => {
    const draftId = (
      await editOk(served.service, served.service.adminKey, {
        operations: [{ update_app: [{ id: 'ios-app', name: 'Shop' }] }],
        summary: 'Shop',
      })
    ).id;
    await runConfig(env, 'pull', '--config', draftId, '--out', path('d.yaml'));
    const run = await runConfig(
      env,
      'push',
      path('d.yaml'),
      '--summary',
      'Ship it',
      '--config',
      draftId,
      '--publish',
    );
    const live = await ok(served.service, served.service.adminKey, 'getLiveConfig');
    expect(run).toEqual({
      code: 0,
      stdout: `nothing to change: ${path('d.yaml')} is the text of ${draftId} at revision 1\npublished ${live.id} (live)\n`,
      stderr: '',
    });
    expect(live.yaml).toBe(read('d.yaml'));
  });

  it('says why it did not publish when the review policy asks for approvals, and exits 1', async () => {
    await ok(served.service, served.service.adminKey, 'setAccountPolicy', {
      payload: { approvals_required: 1, reset_approvals_on_edit: true },
    });
    write('shop.yaml', EDITED);
    const run = await runConfig(env, 'push', path('shop.yaml'), '--summary', 'Rename', '--publish');
    const [draft] = await configs();
    expect(run).toEqual({
      code: 1,
      stdout: [
        `draft ${draft?.id} revision 1 (new, from ${liveId})`,
        'merged revisions: none',
        'valid: 0 errors, 0 warnings',
        `not published: approval_required: The draft ${draft?.id} has 0 of 1 approval on revision 1: it needs 1 approval by others before it is published`,
        '',
      ].join('\n'),
      stderr: '',
    });
    expect((await ok(served.service, served.service.adminKey, 'getLiveConfig')).id).toBe(liveId);
  });

  it('asks for a review with --request-review', async () => {
    write('shop.yaml', EDITED);
    const run = await runConfig(
      env,
      'push',
      path('shop.yaml'),
      '--summary',
      'Rename',
      '--request-review',
    );
    const [draft] = await configs();
    expect(run).toEqual({
      code: 0,
      stdout: `draft ${draft?.id} revision 1 (new, from ${liveId})\nmerged revisions: none\nvalid: 0 errors, 0 warnings\nreview requested for ${draft?.id}\n`,
      stderr: '',
    });
    expect(draft?.review?.state).toBe('in_review');
  });

  it('exits 2 when misused or when the base revision is not one the config has had', async () => {
    write('shop.yaml', EDITED);
    const file = path('shop.yaml');
    expect(await runConfig(env, 'push', file)).toEqual({
      code: 2,
      stdout: '',
      stderr: 'provisioning config push: --summary is required\n',
    });
    expect(
      await runConfig(env, 'push', file, '--summary', 'x', '--publish', '--request-review'),
    ).toEqual({
      code: 2,
      stdout: '',
      stderr: 'provisioning config push: --publish and --request-review do not go together\n',
    });
    expect(await runConfig(env, 'push', file, '--summary', 'x', '--base-revision', '0')).toEqual({
      code: 2,
      stdout: '',
      stderr: 'provisioning config push: --base-revision must be a revision (1 or more), got "0"\n',
    });
    expect(await runConfig(env, 'push', file, '--summary', 'x', '--base-revision', '5')).toEqual({
      code: 2,
      stdout: '',
      stderr: `provisioning config push: 404 not_found: Revision 5 of the config ${liveId} was not found in this account\n`,
    });
  });
});

/** `push … --format json`: its one object parsed, with the exit code and stderr. */
async function pushAsJson(...args: string[]) {
  const run = await runConfig(env, 'push', ...args, '--format', 'json');
  return { code: run.code, json: JSON.parse(run.stdout) as unknown, stderr: run.stderr };
}

describe('provisioning config push --format json', () => {
  it('tells a push that saved and published the draft', async () => {
    write('shop.yaml', EDITED);
    const run = await pushAsJson(path('shop.yaml'), '--summary', 'Rename', '--publish');
    const live = await ok(served.service, served.service.adminKey, 'getLiveConfig');
    expect(live.yaml).toBe(EDITED);
    expect(run).toEqual({
      code: 0,
      json: {
        file: path('shop.yaml'),
        base_config_id: liveId,
        changed: true,
        created: true,
        config_id: live.base_config_id,
        revision: 1,
        merged_revisions: [],
        valid: true,
        error_count: 0,
        warning_count: 0,
        issues: [],
        issues_at: 'file',
        published: { config_id: live.id, live: true },
        review_requested: false,
        refused: null,
        conflicts: [],
      },
      stderr: '',
    });
  });

  it('tells a file that changes nothing as changed: false, with the config it already is', async () => {
    await runConfig(env, 'pull', '--out', path('shop.yaml'));
    const before = await configs();
    expect(await pushAsJson(path('shop.yaml'), '--summary', 'No change')).toEqual({
      code: 0,
      json: {
        file: path('shop.yaml'),
        base_config_id: liveId,
        changed: false,
        created: false,
        config_id: liveId,
        revision: 1,
        merged_revisions: [],
        valid: true,
        error_count: 0,
        warning_count: 0,
        issues: [],
        issues_at: 'file',
        published: null,
        review_requested: false,
        refused: null,
        conflicts: [],
      },
      stderr: '',
    });
    expect(await configs()).toEqual(before);
  });

  it("gives a saved draft's issues as validate does, and why it was not published, exit 1", async () => {
    write('bad.yaml', SHOP_YAML.replace('platform: ios', 'platform: desktop'));
    const run = await pushAsJson(path('bad.yaml'), '--summary', 'Desktop', '--publish');
    const [draft] = await configs();
    expect(run).toEqual({
      code: 1,
      json: {
        file: path('bad.yaml'),
        base_config_id: liveId,
        changed: true,
        created: true,
        config_id: draft?.id,
        revision: 1,
        merged_revisions: [],
        valid: false,
        error_count: 1,
        warning_count: 0,
        issues: [
          {
            line: 11,
            column: 15,
            length: 7,
            severity: 'error',
            code: 'schema.enum',
            message: 'apps[1].platform must be one of web, ios, android, server; got "desktop"',
            path: '/apps/1/platform',
          },
        ],
        issues_at: 'file',
        published: null,
        review_requested: false,
        refused: {
          step: 'publish',
          code: 'invalid_config',
          detail: 'the draft has errors',
          errors: [],
        },
        conflicts: [],
      },
      stderr: '',
    });
    expect((await ok(served.service, served.service.adminKey, 'getLiveConfig')).id).toBe(liveId);
  });

  it('gives a file that is not YAML its syntax errors, saving nothing, exit 1', async () => {
    write('broken.yaml', 'apps:\n  - id: x\n  {\n');
    const before = await configs();
    const run = await pushAsJson(path('broken.yaml'), '--summary', 'Broken');
    const syntax = (line: number, column: number, length: number, message: string) => ({
      line,
      column,
      length,
      severity: 'error',
      code: 'yaml.syntax',
      message,
      path: '',
    });
    expect(run).toEqual({
      code: 1,
      json: {
        file: path('broken.yaml'),
        base_config_id: liveId,
        changed: false,
        created: false,
        config_id: null,
        revision: null,
        merged_revisions: [],
        valid: false,
        error_count: 4,
        warning_count: 0,
        issues: [
          syntax(3, 1, 1, 'All mapping items must start at the same column'),
          syntax(3, 3, 1, 'Implicit keys need to be on a single line'),
          syntax(3, 3, 2, 'Implicit map keys need to be followed by map values'),
          syntax(
            4,
            1,
            0,
            'Flow map in block collection must be sufficiently indented and end with a }',
          ),
        ],
        issues_at: 'file',
        published: null,
        review_requested: false,
        refused: {
          step: 'save',
          code: 'invalid_config',
          detail: `${path('broken.yaml')} cannot be read as a config`,
          errors: [],
        },
        conflicts: [],
      },
      stderr: '',
    });
    expect(await configs()).toEqual(before);
  });

  it('places the issues in the saved text when a merge kept newer edits too', async () => {
    const draftId = (
      await editOk(served.service, served.service.adminKey, {
        operations: [{ update_app: [{ id: 'ios-app', name: 'Shop' }] }],
        summary: 'First',
      })
    ).id;
    await runConfig(env, 'pull', '--config', draftId, '--out', path('d.yaml'));
    await editOk(served.service, served.service.adminKey, {
      config_id: draftId,
      operations: [{ update_app: [{ id: 'ios-app', platform: 'android' }] }],
      summary: 'Theirs',
    });
    write('d.yaml', read('d.yaml').replace('theme: light', 'theme: dark'));
    const run = await pushAsJson(
      path('d.yaml'),
      '--summary',
      'Mine',
      '--config',
      draftId,
      '--base-revision',
      '1',
    );
    expect(run).toEqual({
      code: 0,
      json: {
        file: path('d.yaml'),
        base_config_id: draftId,
        changed: true,
        created: false,
        config_id: draftId,
        revision: 3,
        merged_revisions: [2],
        valid: true,
        error_count: 0,
        warning_count: 0,
        issues: [],
        issues_at: 'saved_text',
        published: null,
        review_requested: false,
        refused: null,
        conflicts: [],
      },
      stderr: '',
    });
  });

  it('gives each conflicting field, saves nothing and exits 1', async () => {
    const draftId = (
      await editOk(served.service, served.service.adminKey, {
        operations: [{ update_app: [{ id: 'ios-app', name: 'Shop' }] }],
        summary: 'First',
      })
    ).id;
    await runConfig(env, 'pull', '--config', draftId, '--out', path('c.yaml'));
    time.set('2026-11-20T11:00:00.000Z');
    await editOk(served.service, served.service.adminKey, {
      config_id: draftId,
      operations: [{ update_app: [{ id: 'ios-app', name: 'Theirs' }] }],
      summary: 'Theirs',
    });
    const history = await ok(served.service, served.service.adminKey, 'getConfigHistory', {
      params: { id: draftId },
    });
    const theirs = history.find((entry) => entry.revision === 2);
    write('c.yaml', read('c.yaml').replace('name: Shop', 'name: Mine'));
    const run = await pushAsJson(
      path('c.yaml'),
      '--summary',
      'Mine',
      '--config',
      draftId,
      '--base-revision',
      '1',
    );
    expect(run).toEqual({
      code: 1,
      json: {
        file: path('c.yaml'),
        base_config_id: draftId,
        changed: false,
        created: false,
        config_id: null,
        revision: null,
        merged_revisions: [],
        valid: null,
        error_count: 0,
        warning_count: 0,
        issues: [],
        issues_at: 'file',
        published: null,
        review_requested: false,
        refused: {
          step: 'save',
          code: 'edit_conflict',
          detail: 'The edit changes what revision 2 changed since: /apps/1/name',
          errors: [],
        },
        conflicts: [
          {
            path: '/apps/1/name',
            base: 'Shop',
            theirs: 'Theirs',
            mine: 'Mine',
            revision: 2,
            by: theirs?.actor_email,
            at: theirs?.at,
          },
        ],
      },
      stderr: '',
    });
    const record = await ok(served.service, served.service.adminKey, 'getConfig', {
      params: { id: draftId },
    });
    expect(record.revision).toBe(2);
  });

  it("gives the review policy's refusal of --publish and exits 1", async () => {
    await ok(served.service, served.service.adminKey, 'setAccountPolicy', {
      payload: { approvals_required: 1, reset_approvals_on_edit: true },
    });
    write('shop.yaml', EDITED);
    const run = await pushAsJson(path('shop.yaml'), '--summary', 'Rename', '--publish');
    const [draft] = await configs();
    expect(run).toEqual({
      code: 1,
      json: {
        file: path('shop.yaml'),
        base_config_id: liveId,
        changed: true,
        created: true,
        config_id: draft?.id,
        revision: 1,
        merged_revisions: [],
        valid: true,
        error_count: 0,
        warning_count: 0,
        issues: [],
        issues_at: 'file',
        published: null,
        review_requested: false,
        refused: {
          step: 'publish',
          code: 'approval_required',
          detail: `The draft ${draft?.id} has 0 of 1 approval on revision 1: it needs 1 approval by others before it is published`,
          errors: [],
        },
        conflicts: [],
      },
      stderr: '',
    });
    expect((await ok(served.service, served.service.adminKey, 'getLiveConfig')).id).toBe(liveId);
  });

  it('says review_requested with --request-review', async () => {
    write('shop.yaml', EDITED);
    const run = await pushAsJson(path('shop.yaml'), '--summary', 'Rename', '--request-review');
    const [draft] = await configs();
    expect(draft?.review?.state).toBe('in_review');
    expect(run.json).toMatchObject({ config_id: draft?.id, review_requested: true, refused: null });
  });

  it('exits 2 on an unknown format, with the error on stderr and nothing on stdout', async () => {
    write('shop.yaml', EDITED);
    const before = await configs();
    expect(
      await runConfig(env, 'push', path('shop.yaml'), '--summary', 'x', '--format', 'xml'),
    ).toEqual({
      code: 2,
      stdout: '',
      stderr: 'provisioning config push: --format must be one of text, json\n',
    });
    expect(await configs()).toEqual(before);
  });

  it('prints text with --format text, as without --format', async () => {
    await runConfig(env, 'pull', '--out', path('same.yaml'));
    const args = [path('same.yaml'), '--summary', 'Same'];
    expect(await runConfig(env, 'push', ...args, '--format', 'text')).toEqual(
      await runConfig(env, 'push', ...args),
    );
  });
});
