import { afterEach, describe, expect, it } from 'vitest';
import { largeConfigText } from '../../configs/testing/large-config';
import { EditRefused } from '../domain/edit-refusals';
import { refusalProblem } from '../plugins/refusal-problems';
import { DocumentCache } from './document-cache';
import { MAX_CONFIG_YAML_BYTES } from '../../contract/endpoints';
import { DEFAULT_EDIT_POOL, EditPool } from './edit-pool';
import { runEditTask, type EditTask } from './edit-task';

const NOW = new Date('2026-11-23T10:00:00Z');

function renameTask(text: string, configId: string, name: string): EditTask {
  return {
    configId,
    text,
    operations: [{ update_app: [{ id: 'app-1', name }] }],
    now: NOW,
    resultId: configId,
    source: { type: 'draft', name: 'Draft' },
  };
}

describe('the edit pool', () => {
  const pools: EditPool[] = [];
  const startPool = (settings: Partial<ConstructorParameters<typeof EditPool>[0]> = {}) => {
    const pool = new EditPool({ workers: 2, cacheBytes: 64 * 1024 * 1024, ...settings });
    pools.push(pool);
    return pool;
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.close()));
  });

  it('computes in a worker thread exactly what the edit computes in this one', async () => {
    const text = largeConfigText(50);
    const inThread = runEditTask(new DocumentCache(0), renameTask(text, 'cfg_a', 'Renamed'));
    const inWorker = await startPool().run('acc_1', renameTask(text, 'cfg_a', 'Renamed'));
    expect(inWorker).toEqual(inThread);
    expect(inWorker.kind).toBe('applied');
  });

  it("keeps the edited document in the worker of the account, for that config's next edit", async () => {
    const pool = startPool();
    const first = await pool.run('acc_1', renameTask(largeConfigText(50), 'cfg_a', 'First'));
    if (first.kind !== 'applied') throw new Error(first.kind);
    expect(first.cacheHit).toBe(false);
    const second = await pool.run('acc_1', renameTask(first.yaml, 'cfg_a', 'Second'));
    if (second.kind !== 'applied') throw new Error(second.kind);
    expect(second.cacheHit).toBe(true);
    expect(second.yaml).toContain('name: Second');
    // The stored text is no longer what was cached (someone else stored an edit): parsed anew.
    const stale = await pool.run('acc_1', renameTask(first.yaml, 'cfg_a', 'Third'));
    expect(stale).toMatchObject({ kind: 'applied', cacheHit: false });
  });

  it('edits the largest config a config may be within its heap limit, even with a full cache', async () => {
    const pool = startPool({ workers: 1, cacheBytes: DEFAULT_EDIT_POOL.cacheBytes });
    const small = largeConfigText(2_000);
    for (let index = 0; index < 6; index++) {
      await pool.run('acc_1', renameTask(small, `cfg_small_${index}`, 'x'));
    }
    // About 175 bytes an app: just under the 4 MiB a config may have.
    const largest = largeConfigText(Math.floor(MAX_CONFIG_YAML_BYTES / 180));
    expect(Buffer.byteLength(largest)).toBeGreaterThan(MAX_CONFIG_YAML_BYTES * 0.9);
    const first = await pool.run('acc_1', renameTask(largest, 'cfg_large', 'First'));
    if (first.kind !== 'applied') throw new Error(first.kind);
    const second = await pool.run('acc_1', renameTask(first.yaml, 'cfg_large', 'Second'));
    expect(second).toMatchObject({ kind: 'applied' });
  });

  it('answers a refusal as data, and the refused document is not kept', async () => {
    const pool = startPool();
    const text = largeConfigText(5);
    const refused = await pool.run('acc_1', {
      ...renameTask(text, 'cfg_a', 'x'),
      operations: [{ update_app: [{ id: 'no-such-app', name: 'x' }] }],
    });
    expect(refused).toMatchObject({ kind: 'refused', refusal: { kind: 'not_found' } });
    const next = await pool.run('acc_1', renameTask(text, 'cfg_a', 'Renamed'));
    expect(next).toMatchObject({ kind: 'applied', cacheHit: false });
  });

  it('refuses with 503 and Retry-After rather than queue without bound', async () => {
    const pool = startPool({ workers: 1, maxQueuedPerWorker: 1 });
    const text = largeConfigText(2_000);
    const runs = Array.from({ length: 4 }, (_, index) =>
      pool.run('acc_1', renameTask(text, `cfg_${index}`, 'x')),
    );
    const settled = await Promise.allSettled(runs);
    const refusals = settled.flatMap((result) =>
      result.status === 'rejected' ? [result.reason as unknown] : [],
    );
    expect(refusals.length).toBeGreaterThan(0);
    for (const refusal of refusals) {
      expect(refusal).toBeInstanceOf(EditRefused);
      const answer = refusalProblem(refusal);
      expect(answer?.problem).toMatchObject({ status: 503, code: 'service_busy' });
      expect(answer?.headers['retry-after']).toBe('1');
    }
    expect(settled.filter((result) => result.status === 'fulfilled').length).toBeGreaterThan(0);
  });

  it('lets the edits already started finish when it closes, and refuses new ones', async () => {
    const pool = startPool({ workers: 1 });
    const running = pool.run('acc_1', renameTask(largeConfigText(200), 'cfg_a', 'x'));
    await pool.close();
    await expect(running).resolves.toMatchObject({ kind: 'applied' });
    await expect(pool.run('acc_1', renameTask('apps: []\n', 'cfg_b', 'x'))).rejects.toThrow(
      /closed/,
    );
  });
});
