/**
 * SIGTERM with delivery streams open: the real server as a child process. Streams never end
 * on their own, so the drain would wait on them until its deadline; they must be ended
 * first, and the process exit 0 well within the drain's 8 s.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH } from '../../contract/endpoints';
import { fetchOk } from '../testing/http';
import { runCli, spawnService } from '../testing/service-process';
import { openSse } from '../testing/sse-client';

const dataDir = mkdtempSync(join(tmpdir(), 'provisioning-stream-shutdown-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('SIGTERM with streams open', () => {
  it('ends every stream and exits 0 within 2 s', async () => {
    const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir]);
    const account = cli('accounts', 'create', '--name', 'Shutdown');
    const admin = String(
      cli('keys', 'create', '--user', String(account.user_id), '--name', 'k').secret,
    );
    const server = await spawnService(['--data-dir', dataDir], {
      RATE_LIMIT_RPS: '0',
      DELIVERY_RATE_LIMIT_RPS: '0',
      LOG_LEVEL: 'warn',
    });
    const draft = await fetchOk(server.url, admin, 'editConfig', {
      payload: {
        operations: [{ create_app: [{ id: 'web', name: 'Web', platform: 'web' }] }],
        summary: 'A web app',
      },
    });
    await fetchOk(server.url, admin, 'publishConfig', { params: { id: draft.id } });
    const { key } = await fetchOk(server.url, admin, 'createClientKey', {
      payload: { name: 'Apps' },
    });
    const streams = await Promise.all(
      Array.from({ length: 20 }, () =>
        openSse(`${server.url}${API_BASE_PATH}/delivery/${key}/stream?app=web`),
      ),
    );
    await Promise.all(streams.map((stream) => stream.next()));

    const signalled = performance.now();
    server.child.kill('SIGTERM');
    const code = await server.exited;
    expect(code).toBe(0);
    expect(performance.now() - signalled).toBeLessThan(2_000);
    await Promise.all(streams.map((stream) => stream.ended));
  });
});
