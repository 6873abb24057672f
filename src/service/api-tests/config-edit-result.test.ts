/**
 * What POST /config/edit's result carries for the console: the edited config's summary as
 * GET /configs lists it, and where each applied path sits in the saved text.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AppliedRange, ConfigEditResult } from '../../contract/config-edit';
import { CREATE_APP, SHOP_YAML, editOk, ok } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

let service: TestService;
let admin: string;

beforeEach(async () => {
  service = await startTestService({ initialYaml: SHOP_YAML });
  admin = service.adminKey;
});
afterEach(async () => {
  await service.close();
});

/** The text a range covers, found from its line and column alone. */
function textAt(yaml: string, range: AppliedRange): string {
  const lines = yaml.split('\n');
  const before = lines.slice(0, range.line - 1).reduce((sum, line) => sum + line.length + 1, 0);
  const start = before + range.column - 1;
  return yaml.slice(start, start + range.length);
}

/** Each applied range as `path: the text it covers`. */
function coveredTexts(result: ConfigEditResult): Record<string, string> {
  const yaml = result.validation.yaml ?? '';
  return Object.fromEntries(
    result.applied_ranges.map((range) => [range.path, textAt(yaml, range)]),
  );
}

/** The result's summary must be the one GET /configs lists right after the edit. */
async function expectListedAsSummary(result: ConfigEditResult): Promise<void> {
  const listed = await ok(service, admin, 'listConfigs');
  expect(listed.find((config) => config.id === result.id)).toEqual(result.config);
}

describe('the config summary of an edit result', () => {
  it('is the new draft an edit of the live config created, as listed', async () => {
    const result = await editOk(service, admin, {
      operations: [CREATE_APP('android-app', { platform: 'android' })],
      summary: 'Add the Android app',
    });
    expect(result.config).toMatchObject({
      id: result.id,
      kind: 'draft',
      label: 'Add the Android app',
      revision: 1,
      live: false,
      base_config_id: service.account.live_config_id,
      valid: true,
      error_count: 0,
    });
    await expectListedAsSummary(result);
  });

  it('is the edited draft at its new revision, with the counts of its report', async () => {
    const first = await editOk(service, admin, {
      operations: [CREATE_APP('a')],
      summary: 'First',
    });
    const second = await editOk(service, admin, {
      operations: [{ set: [{ path: '/apps/0/platform', value: 'toaster' }] }],
      config_id: first.id,
      summary: 'Second',
    });
    expect(second.config).toMatchObject({
      id: first.id,
      label: 'First',
      revision: 2,
      created_at: first.config.created_at,
      valid: false,
      error_count: second.validation.error_count,
    });
    expect(second.validation.error_count).toBeGreaterThan(0);
    await expectListedAsSummary(second);
  });

  it('is the new live version an A/B test lifecycle step published', async () => {
    const result = await editOk(service, admin, {
      operations: [{ start_ab_test: [{ id: 'onboarding' }] }],
    });
    expect(result.config).toMatchObject({
      id: result.id,
      kind: 'published',
      live: true,
      revision: 1,
      base_config_id: service.account.live_config_id,
    });
    expect(result.config.published_at).toBeDefined();
    await expectListedAsSummary(result);
  });
});

describe('the applied ranges of an edit result', () => {
  it('covers the value a set wrote', async () => {
    const result = await editOk(service, admin, {
      operations: [{ set: [{ path: '/apps/0/name', value: 'Checkout 2' }] }],
      summary: 'Rename',
    });
    expect(result.applied_ranges).toEqual([
      { path: '/apps/0/name', line: 4, column: 11, length: 'Checkout 2'.length },
    ]);
    expect(coveredTexts(result)).toEqual({ '/apps/0/name': 'Checkout 2' });
  });

  it('covers a created app from its first key to its last value', async () => {
    const result = await editOk(service, admin, {
      operations: [CREATE_APP('android-app', { name: 'Android', platform: 'android' })],
      summary: 'Add the Android app',
    });
    const covered = coveredTexts(result)['/apps/2'] ?? '';
    expect(covered.startsWith('id: android-app\n')).toBe(true);
    expect(covered.trimEnd().endsWith('platform: android')).toBe(true);
    expect(covered).not.toContain('ab_tests');
  });

  it('covers the fields update_app changed, in a draft edited again', async () => {
    const first = await editOk(service, admin, {
      operations: [CREATE_APP('a')],
      summary: 'First',
    });
    const result = await editOk(service, admin, {
      operations: [{ update_app: [{ id: 'ios-app', name: 'iOS', settings: { beta: true } }] }],
      config_id: first.id,
      summary: 'Rename iOS',
    });
    expect(coveredTexts(result)).toEqual({
      '/apps/1/name': 'iOS',
      '/apps/1/settings/beta': 'true',
    });
  });

  it('leaves out the index of a deleted app, where the next app now sits', async () => {
    const draft = await editOk(service, admin, {
      operations: [CREATE_APP('web-2', { name: 'Web' })],
      summary: 'Add web-2',
    });
    const result = await editOk(service, admin, {
      operations: [{ delete_app: [{ id: 'ios-app' }] }],
      config_id: draft.id,
      summary: 'Drop iOS',
    });
    // web-2 now sits at /apps/1, untouched by this edit.
    expect(result.applied_paths).toEqual(['/apps/1']);
    expect(result.applied_ranges).toEqual([]);

    const swapped = await editOk(service, admin, {
      operations: [CREATE_APP('web-2', { name: 'Web' }), { delete_app: [{ id: 'ios-app' }] }],
      summary: 'Swap',
    });
    // /apps/2 names nothing now; /apps/1 was ios-app's place and holds web-2, made by the edit.
    expect(swapped.applied_paths).toEqual(['/apps/2', '/apps/1']);
    expect(swapped.applied_ranges.map((range) => range.path)).toEqual(['/apps/1']);
    expect(coveredTexts(swapped)['/apps/1']?.startsWith('id: web-2\n')).toBe(true);
  });

  it('leaves out what unset removed', async () => {
    const result = await editOk(service, admin, {
      operations: [
        { unset: [{ path: '/apps/0/settings/theme' }] },
        { set: [{ path: '/apps/0/settings/button_size', value: 'small' }] },
      ],
      summary: 'Drop the theme',
    });
    expect(result.applied_paths).toEqual([
      '/apps/0/settings/theme',
      '/apps/0/settings/button_size',
    ]);
    expect(coveredTexts(result)).toEqual({ '/apps/0/settings/button_size': 'small' });

    // An unset list item: the next item now sits at its index, untouched.
    const withoutTest = await editOk(service, admin, {
      operations: [{ unset: [{ path: '/ab_tests/0' }] }],
      config_id: result.id,
      summary: 'Drop the first test',
    });
    expect(withoutTest.applied_paths).toEqual(['/ab_tests/0']);
    expect(withoutTest.applied_ranges).toEqual([]);
  });

  it('covers what an A/B test lifecycle step wrote', async () => {
    const result = await editOk(service, admin, {
      operations: [{ start_ab_test: [{ id: 'onboarding' }] }],
    });
    const covered = coveredTexts(result);
    expect(covered['/ab_tests/1/status']).toBe('running');
    expect(Object.keys(covered)).toEqual(result.applied_paths);
  });

  it('leaves out the index of a deleted A/B test, where the next test now sits', async () => {
    const ended = await editOk(service, admin, {
      operations: [{ end_ab_test: [{ id: 'bigger-button' }] }],
    });
    const result = await editOk(service, admin, {
      operations: [{ delete_ab_test: [{ id: 'bigger-button' }] }],
      config_id: ended.id,
    });
    expect(result.applied_paths).toEqual(['/ab_tests/0']);
    expect(result.applied_ranges).toEqual([]);
  });
});
