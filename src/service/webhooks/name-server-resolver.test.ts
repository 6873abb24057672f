/**
 * Webhook host names are resolved with c-ares, not `dns.lookup`: a name server that does not
 * answer holds no thread of libuv's pool, so file and compression work go on. The name
 * server here is a UDP socket on loopback that never answers.
 */
import { createSocket, type Socket } from 'node:dgram';
import { readFile } from 'node:fs/promises';
import { gzip } from 'node:zlib';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { nameServerResolver } from './http-post';

let silent: Socket | undefined;
afterEach(() => silent?.close());

/** A name server on loopback that takes every query and answers none; counts them. */
async function silentNameServer(): Promise<{ address: string; queries: () => number }> {
  const socket = createSocket('udp4');
  silent = socket;
  let queries = 0;
  socket.on('message', () => queries++);
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { address: `127.0.0.1:${socket.address().port}`, queries: () => queries };
}

describe('the webhook resolver', () => {
  it('asks the name server (c-ares), and while 8 lookups hang the thread pool stays free', async () => {
    const server = await silentNameServer();
    const resolve = nameServerResolver([server.address]);
    const order: string[] = [];
    const lookups = Array.from({ length: 8 }, (_, n) =>
      resolve(`hook-${n}.example.com`).then(() => order.push('lookup')),
    );
    // Thread-pool work: a file read and a compression, each needing a libuv thread.
    await readFile(new URL(import.meta.url));
    await promisify(gzip)(Buffer.alloc(1 << 20));
    order.push('pool work');
    expect(order[0]).toBe('pool work');
    expect(server.queries()).toBeGreaterThanOrEqual(8);
    // Unanswered, each ends with no address (bounded by its timeout and tries).
    const answers = await Promise.all(
      Array.from({ length: 2 }, (_, n) => resolve(`late-${n}.example.com`)),
    );
    expect(answers).toEqual([[], []]);
    await Promise.all(lookups);
  }, 30_000);

  it('answers localhost with loopback without asking anyone', async () => {
    const server = await silentNameServer();
    const resolve = nameServerResolver([server.address]);
    expect(await resolve('localhost')).toEqual([
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
    expect(await resolve('api.LOCALHOST')).toHaveLength(2);
    expect(server.queries()).toBe(0);
  });
});
