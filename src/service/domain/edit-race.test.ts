/**
 * An edit is computed outside the database's lock, from the config as read; when something
 * else stored a change in between (another process on the same SQLite file: the operator's
 * command line, a second instance), the edit is computed again from the new revision, and
 * neither change is lost.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { EditPool } from '../edit-work/edit-pool';
import type { EditTask, EditTaskResult } from '../edit-work/edit-task';
import { openDatabase } from '../store/database';
import { SqliteStore } from '../store/sqlite-store';
import { CREATE_APP, dataOf, editOk, SHOP_YAML } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

/** The real pool; `beforeNextEdit` runs once, as the next edit starts being computed. */
class PoolWithAHook extends EditPool {
  beforeNextEdit: (() => void) | undefined;

  override run(accountId: string, task: EditTask): Promise<EditTaskResult> {
    const hook = this.beforeNextEdit;
    this.beforeNextEdit = undefined;
    hook?.();
    return super.run(accountId, task);
  }
}

let pool: PoolWithAHook;
let service: TestService;
beforeEach(async () => {
  pool = new PoolWithAHook({ workers: 1, cacheBytes: 16 * 1024 * 1024 });
  service = await startTestService({ initialYaml: SHOP_YAML, editPool: pool });
});
afterEach(async () => {
  await service.close();
  await pool.close();
});

it('computes an edit again when another process stored a change while it was computed', async () => {
  const admin = service.adminKey;
  const accountId = service.account.account_id;
  const draft = await editOk(service, admin, {
    operations: [CREATE_APP('first')],
    summary: 'First',
  });
  const otherProcess = new SqliteStore(openDatabase(service.dataDir));
  try {
    pool.beforeNextEdit = () => {
      // The other process appends a line to the draft; SQLite's writes are synchronous.
      void otherProcess.changeConfigs(accountId, { ids: [draft.id] }, (tx) => {
        const row = tx.get(draft.id);
        if (!row) throw new Error('the draft is missing');
        tx.update(draft.id, {
          ...row,
          yaml: `${row.yaml}# touched by another process\n`,
          revision: row.revision + 1,
        });
      });
    };
    await editOk(service, admin, {
      config_id: draft.id,
      operations: [CREATE_APP('second')],
      summary: 'Second',
    });
    expect(pool.beforeNextEdit).toBeUndefined();
    const record = await service.store.getConfig(accountId, draft.id);
    expect(record?.revision).toBe(3);
    expect(record?.yaml).toContain('# touched by another process');
    expect(dataOf(record?.yaml ?? '').apps?.map((app) => app.id)).toEqual(
      expect.arrayContaining(['first', 'second']),
    );
  } finally {
    await otherProcess.close();
  }
});

it('merges an edit again with what another process stored while it was merged', async () => {
  const admin = service.adminKey;
  const accountId = service.account.account_id;
  const draft = await editOk(service, admin, {
    operations: [CREATE_APP('first')],
    summary: 'First',
  });
  await editOk(service, admin, {
    config_id: draft.id,
    operations: [{ update_app: [{ id: 'first', enabled: false }] }],
    summary: 'Revision 2',
  });
  const otherProcess = new SqliteStore(openDatabase(service.dataDir));
  try {
    pool.beforeNextEdit = () => {
      void otherProcess.changeConfigs(accountId, { ids: [draft.id] }, (tx) => {
        const row = tx.get(draft.id);
        if (!row) throw new Error('the draft is missing');
        tx.update(draft.id, {
          ...row,
          yaml: row.yaml.replace('name: Checkout', 'name: Till'),
          revision: 3,
        });
        tx.addHistory({
          account_id: accountId,
          config_id: draft.id,
          action: 'edit',
          at: new Date().toISOString(),
          revision: 3,
          summary: 'From the other process',
          api_key_id: null,
          api_key_name: 'operator',
          actor_email: null,
          operations: [{ update_app: [{ id: 'checkout', name: 'Till' }] }],
          applied_paths: ['/apps/0/name'],
        });
      });
    };
    const merged = await editOk(service, admin, {
      config_id: draft.id,
      operations: [{ update_app: [{ id: 'ios-app', name: 'iOS shop' }] }],
      summary: 'On revision 1',
      base_revision: 1,
    });
    expect(pool.beforeNextEdit).toBeUndefined();
    expect(merged).toMatchObject({ merged_revisions: [2, 3], revision: 4 });
    const apps = dataOf(merged.validation.yaml ?? '').apps;
    expect(apps?.find((app) => app.id === 'checkout')?.name).toBe('Till');
    expect(apps?.find((app) => app.id === 'ios-app')?.name).toBe('iOS shop');
  } finally {
    await otherProcess.close();
  }
});
