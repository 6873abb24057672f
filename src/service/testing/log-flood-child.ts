/**
 * A process that logs `argv[2]` lines through the service's log destination, says `alive` on
 * stderr once they are handed over, then waits for `close` on stdin and flushes (test-only:
 * log-destination.test.ts keeps its stdout unread meanwhile).
 */
import pino from 'pino';
import { batchedStdout } from '../log-destination';

const lines = Number(process.argv[2] ?? '0');
const destination = batchedStdout();
const log = pino({ base: null }, destination.stream);
for (let n = 0; n < lines; n++) log.info({ n, pad: 'x'.repeat(100) }, 'request');
// The event loop turns: a synchronous write into a full pipe would never let it.
setImmediate(() => process.stderr.write(`alive ${destination.dropped()}\n`));
process.stdin.on('data', () => {
  void destination.close().then(() => process.exit(0));
});
