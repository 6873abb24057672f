/**
 * Where the service's log lines go: stdout, in batches of a few kilobytes, since one write
 * per line is a large part of a cheap request's cost. Batches are written asynchronously: a
 * reader of stdout that falls behind (a full pipe, a stalled log shipper) must not stop the
 * service's event loop, which a synchronous write would. Past MAX_BUFFERED_BYTES the lines
 * are dropped, counted, rather than held without bound.
 */
import pino from 'pino';

const BATCH_BYTES = 4_096;
const FLUSH_INTERVAL_MS = 500;
export const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

export interface LogDestination {
  readonly stream: pino.DestinationStream;
  /** Lines dropped because stdout's reader fell more than MAX_BUFFERED_BYTES behind. */
  dropped(): number;
  /** Writes what is buffered, waits for it, and stops the timer. */
  close(): Promise<void>;
}

export function batchedStdout(fd = 1): LogDestination {
  const stream = pino.destination({
    dest: fd,
    sync: false,
    minLength: BATCH_BYTES,
    maxLength: MAX_BUFFERED_BYTES,
  });
  let dropped = 0;
  stream.on('drop', () => dropped++);
  const timer = setInterval(() => stream.flush(), FLUSH_INTERVAL_MS);
  timer.unref();
  return {
    stream,
    dropped: () => dropped,
    async close() {
      clearInterval(timer);
      await new Promise<void>((resolve) => stream.flush(() => resolve()));
    },
  };
}
