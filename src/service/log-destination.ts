/**
 * Where the service's log lines go: stdout, in batches of a few kilobytes, since one write
 * per line is a large part of a cheap request's cost. Batches are written synchronously:
 * handing them to libuv's thread pool costs more CPU than the write (docs/operations.md).
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
