/**
 * Where the service's log lines go: stdout, written in batches of a few kilobytes rather
 * than with one synchronous write per line (that write was a third of the cost of a cheap
 * request; docs/benchmarks.md). A line waits at most FLUSH_INTERVAL_MS, and pino flushes
 * what is left when the process exits.
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
  const stream = pino.destination({ dest: 1, sync: false, minLength: BATCH_BYTES });
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
