/**
 * An edit of a large config is computed off the event loop: while it is, every other
 * request (here `GET /health`, and another account's reads) keeps being answered.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { largeConfigText } from '../../configs/testing/large-config';
import { send } from '../testing/api';
import { startTestService, type TestService } from '../testing/test-service';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ initialYaml: largeConfigText(2_000) });
});
afterAll(async () => {
  await service.close();
});

it('keeps answering other requests while a large config is edited', async () => {
  const other = await service.otherAccount();
  let editDone = false;
  // The first edit of the live config: nothing cached, the whole config is parsed.
  const editing = send(service, service.adminKey, 'editConfig', {
    payload: {
      summary: 'Rename app-1',
      operations: [{ update_app: [{ id: 'app-1', name: 'Renamed' }] }],
    },
  }).finally(() => {
    editDone = true;
  });
  const started = performance.now();
  const answeredAt: number[] = [];
  while (!editDone) {
    const [health, configs] = await Promise.all([
      send(service, undefined, 'getHealth'),
      send(service, other.key, 'listConfigs'),
    ]);
    expect(health.statusCode).toBe(200);
    expect(configs.statusCode).toBe(200);
    if (!editDone) answeredAt.push(performance.now());
    // `inject` answers within one turn of the event loop: give the edit's turn a chance too.
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  expect((await editing).statusCode).toBe(200);
  const editMs = performance.now() - started;
  // A blocked event loop answers nothing while the config is parsed, which is most of the
  // edit: the longest wait between two answers would be most of the edit's time.
  const gaps = answeredAt.map((at, index) => at - (answeredAt[index - 1] ?? started));
  expect(answeredAt.length).toBeGreaterThan(10);
  expect(Math.max(...gaps)).toBeLessThan(editMs / 3);
});
