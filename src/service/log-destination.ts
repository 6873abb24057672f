/**
 * Where the service's log lines go: stdout, written in batches of a few kilobytes rather
 * than with one write per line (that write was a third of the cost of a cheap request;
 * docs/benchmarks.md). A line waits at most FLUSH_INTERVAL_MS, and pino flushes what is left
 * when the process exits.
 *
 * A batch is written synchronously, as pino's own destination does by default: handing it to
 * libuv's thread pool instead (`sync: false`) cost about three times the CPU of the write
 * itself on our 2-core machines (waking a pool thread for every 4 KB), and was the largest
 * cost of GET /auth/status after the socket write.
 */
import pino from 'pino';

const BATCH_BYTES = 4_096;
const FLUSH_INTERVAL_MS = 500;

export interface LogDestination {
  readonly stream: pino.DestinationStream;
  /** Writes what is buffered and stops the timer. */
  close(): void;
}

export function batchedStdout(): LogDestination {
  const stream = pino.destination({ dest: 1, sync: true, minLength: BATCH_BYTES });
  const timer = setInterval(() => stream.flush(), FLUSH_INTERVAL_MS);
  timer.unref();
  return {
    stream,
    close() {
      clearInterval(timer);
      stream.flushSync();
    },
  };
}
