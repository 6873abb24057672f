import { describe, expect, it } from 'vitest';
import { apiRequest, isNotOffered } from '../lib/api-client';
import { ConfigServer } from './config-server';
import { setupContractServer } from './msw-contract';
import { connectForTest } from './test-utils';
import { configEndpoints } from '../../contract/config-endpoints';

const http = setupContractServer();

const LIVE_YAML = `apps:
  - id: checkout
    name: Checkout
    platform: web
`;

function serve(options: { offersConfigs?: boolean } = {}) {
  connectForTest();
  const server = new ConfigServer({ liveYaml: LIVE_YAML, ...options });
  http.use(...server.handlers);
  return server;
}

describe('the in-memory config server', () => {
  it('edits into a new draft, publishes it live, and goes back with activate', async () => {
    const server = serve();
    const edited = await apiRequest(configEndpoints.editConfig, {
      body: {
        operations: [{ update_app: [{ id: 'checkout', name: 'Till' }] }],
        summary: 'Rename',
      },
    });
    expect(edited).toMatchObject({ kind: 'draft', created: true, base_config_id: 'cfg_live' });
    // Where the new name sits in the saved text, placed as the service places it.
    expect(edited.applied_ranges).toEqual([
      { path: '/apps/0/name', line: 3, column: 11, length: 'Till'.length },
    ]);
    expect(server.get(edited.id).yaml).toContain('name: Till');

    const published = await apiRequest(configEndpoints.publishConfig, {
      params: { id: edited.id },
      body: { summary: 'Till' },
    });
    expect(published).toMatchObject({ kind: 'published', live: true, label: 'Till' });
    await expect(
      apiRequest(configEndpoints.getConfig, { params: { id: edited.id } }),
    ).rejects.toMatchObject({
      status: 404,
    });
    expect((await apiRequest(configEndpoints.getLiveConfig)).id).toBe(published.id);

    await apiRequest(configEndpoints.activateConfig, { params: { id: 'cfg_live' } });
    expect((await apiRequest(configEndpoints.getLiveConfig)).id).toBe('cfg_live');
    expect(
      await apiRequest(configEndpoints.getConfigHistory, { params: { id: 'cfg_live' } }),
    ).toEqual([]);
  });

  it('refuses an edit at a revision it has moved past, and discards drafts', async () => {
    const server = serve();
    server.add({ id: 'cfg_d', label: 'Draft' });
    server.saveElsewhere('cfg_d', `${LIVE_YAML}    enabled: false\n`);
    await expect(
      apiRequest(configEndpoints.editConfig, {
        body: {
          config_id: 'cfg_d',
          operations: [{ delete_app: [{ id: 'checkout' }] }],
          summary: 'Remove checkout',
        },
        headers: { 'If-Match': '"1"' },
      }),
    ).rejects.toMatchObject({ status: 412 });
    await apiRequest(configEndpoints.deleteConfig, { params: { id: 'cfg_d' } });
    expect(server.edits).toHaveLength(1);
    expect((await apiRequest(configEndpoints.listConfigs))?.map((config) => config.id)).toEqual([
      'cfg_live',
    ]);
  });

  it('with only the core endpoints, offers only the edit of the configs', async () => {
    serve({ offersConfigs: false });
    const error = await apiRequest(configEndpoints.listConfigs).catch((caught: unknown) => caught);
    expect(isNotOffered(error)).toBe(true);
    await expect(
      apiRequest(configEndpoints.editConfig, {
        body: {
          operations: [{ update_app: [{ id: 'checkout', enabled: false }] }],
          summary: 'Off',
        },
      }),
    ).resolves.toMatchObject({ kind: 'draft' });
  });

  it('merges an edit made on an older revision, or names the fields both changed', async () => {
    const server = serve();
    server.add({ id: 'cfg_d', label: 'Draft' });
    server.saveElsewhere('cfg_d', LIVE_YAML.replace('platform: web', 'platform: ios'), 'ana@x.io');
    const rename = (name: string, extra: object = {}) =>
      apiRequest(configEndpoints.editConfig, {
        body: {
          config_id: 'cfg_d',
          operations: [{ update_app: [{ id: 'checkout', name, ...extra }] }],
          summary: 'Rename',
          base_revision: 1,
        },
      });
    await expect(rename('Till')).resolves.toMatchObject({ revision: 3, merged_revisions: [2] });
    expect(server.get('cfg_d').yaml).toBe(
      LIVE_YAML.replace('platform: web', 'platform: ios').replace('Checkout', 'Till'),
    );
    await expect(rename('Shop', { platform: 'android' })).rejects.toMatchObject({
      status: 409,
      code: 'edit_conflict',
      conflicts: [
        { path: '/apps/0/name', base: 'Checkout', theirs: 'Till', mine: 'Shop', revision: 3 },
        { path: '/apps/0/platform', base: 'web', theirs: 'ios', mine: 'android', by: 'ana@x.io' },
      ],
    });
    expect(server.get('cfg_d').revision).toBe(3);
    // Who made each revision, as the console names them after a merge.
    expect(
      (await apiRequest(configEndpoints.getConfigHistory, { params: { id: 'cfg_d' } })).map(
        (entry) => [entry.revision, entry.actor_email],
      ),
    ).toEqual([
      [3, 'ada@example.com'],
      [2, 'ana@x.io'],
    ]);
    await expect(
      apiRequest(configEndpoints.editConfig, {
        body: {
          config_id: 'cfg_d',
          operations: [{ update_app: [{ id: 'checkout', name: 'X' }] }],
          summary: 'Both',
          base_revision: 3,
        },
        headers: { 'If-Match': '"3"' },
      }),
    ).rejects.toMatchObject({ status: 400 });
  });
});
