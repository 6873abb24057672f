/**
 * The load generator, in a process of its own so that it never competes with the server
 * it measures inside one event loop: autocannon with the options given as JSON in argv[2];
 * prints `{ rps, requests, non2xx, errors, statuses }` as JSON.
 */
import autocannon from 'autocannon';

const options = JSON.parse(process.argv[2] ?? '{}') as autocannon.Options;
const result = await autocannon(options);
process.stdout.write(
  JSON.stringify({
    rps: result.requests.average,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    statuses: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [
        status,
        stats.count ?? 0,
      ]),
    ),
  }),
);
