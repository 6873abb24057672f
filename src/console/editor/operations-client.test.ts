import { describe, expect, it } from 'vitest';
import {
  inThreadWorker,
  OperationsClient,
  SupersededError,
  type WorkerLike,
} from './operations-client';
import type { OperationsEnvelope } from './operations-protocol';

const BASE = 'apps:\n  - id: a\n    name: A\n';

/** A worker that answers later, out of order, so replies must be matched by id. */
function delayedWorker(): WorkerLike & { flush(): void } {
  const inner = inThreadWorker();
  const queue: OperationsEnvelope[] = [];
  const worker = {
    onmessage: null as WorkerLike['onmessage'],
    onerror: null as WorkerLike['onerror'],
    postMessage(message: OperationsEnvelope) {
      queue.push(message);
    },
    terminate: () => undefined,
    flush() {
      inner.onmessage = (event) => worker.onmessage?.(event);
      for (const message of queue.splice(0).reverse()) inner.postMessage(message);
    },
  };
  return worker;
}

describe('the operations worker client', () => {
  it('matches answers to requests', async () => {
    const worker = delayedWorker();
    const client = new OperationsClient(worker);
    const first = client.run({ kind: 'diff', baseText: BASE, editedText: BASE });
    const second = client.run({
      kind: 'diff',
      baseText: BASE,
      editedText: BASE.replace('name: A', 'name: B'),
    });
    const third = client.run({ kind: 'diff', baseText: BASE, editedText: 'apps: [' });
    worker.flush();
    expect(await first).toEqual({ status: 'unchanged' });
    expect(await second).toEqual({
      status: 'changed',
      operations: [{ update_app: [{ id: 'a', name: 'B' }] }],
    });
    expect((await third).status).toBe('syntax_error');
  });

  it('carries on without the worker when it cannot run', async () => {
    let terminated = false;
    const broken: WorkerLike = {
      onmessage: null,
      onerror: null,
      postMessage: () => undefined,
      terminate() {
        terminated = true;
      },
    };
    const client = new OperationsClient(broken);
    const pending = client.run({ kind: 'diff', baseText: BASE, editedText: BASE });
    broken.onerror?.(new ErrorEvent('error', { message: 'blocked' }));
    expect(await pending).toEqual({ status: 'unchanged' });
    expect(terminated).toBe(true);
  });

  it('keeps one request of a lane waiting: a newer one replaces it', async () => {
    const worker = delayedWorker();
    const client = new OperationsClient(worker);
    const edited = (name: string) => BASE.replace('name: A', `name: ${name}`);
    const running = client.runLatest('diff', {
      kind: 'diff',
      baseText: BASE,
      editedText: edited('B'),
    });
    const replaced = client.runLatest('diff', {
      kind: 'diff',
      baseText: BASE,
      editedText: edited('C'),
    });
    const latest = client.runLatest('diff', {
      kind: 'diff',
      baseText: BASE,
      editedText: edited('D'),
    });
    await expect(replaced).rejects.toBeInstanceOf(SupersededError);
    worker.flush();
    expect(await running).toMatchObject({ operations: [{ update_app: [{ name: 'B' }] }] });
    await new Promise((resolve) => setTimeout(resolve, 0));
    worker.flush();
    expect(await latest).toMatchObject({ operations: [{ update_app: [{ name: 'D' }] }] });
  });
});
