/**
 * The stream bench's subscribers, in a process of their own so that reading 1,000 streams
 * never shares the server's event loop: `argv[2]` is `{url, count}`. It opens `count` SSE
 * streams of `url`, prints `{"ready": n}` once each has its first event, then one line
 * `{"id", "times"}` per event id once every stream has it, with each stream's arrival time
 * (milliseconds since the epoch, sub-millisecond: comparable across processes).
 */
import { Agent } from 'node:http';
import { openSse, type SseStream } from '../../src/service/testing/sse-client';

const { url, count } = JSON.parse(process.argv[2] ?? '{}') as { url: string; count: number };
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
const epochNow = () => performance.timeOrigin + performance.now();

const arrivals = new Map<string, number[]>();
const reported = new Set<string>();
function arrived(id: string): void {
  let times = arrivals.get(id);
  if (!times) {
    times = [];
    arrivals.set(id, times);
  }
  times.push(epochNow());
  if (times.length === count && !reported.has(id)) {
    reported.add(id);
    process.stdout.write(`${JSON.stringify({ id, times })}\n`);
  }
}

const streams: SseStream[] = [];
// In batches: a thousand connects at once would be refused by a full accept backlog.
for (let opened = 0; opened < count; opened += 100) {
  const batch = await Promise.all(
    Array.from({ length: Math.min(100, count - opened) }, () => openSse(url, {}, { agent })),
  );
  streams.push(...batch);
}
for (const stream of streams) {
  if (stream.status !== 200) throw new Error(`a stream answered ${stream.status}: ${stream.body}`);
}
await Promise.all(streams.map((stream) => stream.next(30_000)));
process.stdout.write(`${JSON.stringify({ ready: streams.length })}\n`);
// From now on, every event is one to time.
for (const stream of streams) {
  void (async () => {
    for (;;) {
      let event;
      try {
        event = await stream.next(3_600_000);
      } catch {
        return;
      }
      if (event.id) arrived(event.id);
    }
  })();
}
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
