/**
 * The server killed with SIGKILL 20 times under load (20 clients, each edit
 * creating a pair of apps in one draft). After each kill: `PRAGMA integrity_check` is ok,
 * every edit that got a 200 is present, none is half applied, and the restarted server
 * answers an authenticated read within 2 s. The harness is src/service/testing/
 * crash-harness.ts, which `npm test` runs with 3 kills (docs/reliability.md).
 *
 * Run with `npm run test:stress`. Prints the figures, then "N passed, N failed".
 */
import { problemsOf, removeDataDir, runCrashRounds } from '../src/service/testing/crash-harness';

const KILLS = 20;
const CLIENTS = 20;
/** The service answers again within 2 s of a restart. */
const RESTART_LIMIT_MS = 2_000;

const report = await runCrashRounds({
  kills: KILLS,
  clients: CLIENTS,
  killAfterMs: [0, 3_000],
  warmUpEdits: 5,
  measureCleanRestart: true,
  log: (line) => console.log(line),
});

const restarts = report.rounds.map((round) => round.restartMs).sort((a, b) => a - b);
const slowest = restarts.at(-1) ?? 0;
const median = restarts[Math.floor(restarts.length / 2)] ?? 0;
const last = report.rounds.at(-1)?.check;
const problems = report.rounds.flatMap((round) =>
  problemsOf(round.check).map((problem) => `kill ${round.round}: ${problem}`),
);

console.log(
  `\nfigures: ${report.rounds.length} kills survived, ${report.requests} edit requests sent, ${report.acknowledged} acknowledged (all verified after every kill), ${report.unanswered} cut off by a kill, ${(last?.revision ?? 1) - 1} edits in the draft, restart after a kill: median ${Math.round(median)} ms, slowest ${Math.round(slowest)} ms; after a clean shutdown ${Math.round(report.cleanRestartMs ?? 0)} ms`,
);

const checks: [string, boolean][] = [
  [`${KILLS} kills survived (${report.rounds.length})`, report.rounds.length === KILLS],
  [
    'integrity_check ok after every kill',
    report.rounds.every((round) => round.check.integrity === 'ok'),
  ],
  [`no 5xx (${report.serverErrors})`, report.serverErrors === 0],
  [
    `all ${report.acknowledged} acknowledged edits present, none half applied`,
    problems.length === 0 && report.acknowledged > 0,
  ],
  [
    `restart answers within ${RESTART_LIMIT_MS} ms (slowest ${Math.round(slowest)})`,
    slowest <= RESTART_LIMIT_MS,
  ],
  [
    'no key in the server logs',
    report.serverOutput.includes('"msg":"request"') &&
      report.secrets.every((secret) => !report.serverOutput.includes(secret)),
  ],
];
for (const problem of problems) console.log(`  ${problem}`);
let failures = 0;
for (const [name, ok] of checks) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}`);
  if (!ok) failures++;
}
removeDataDir(report);
console.log(`${checks.length - failures} passed, ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
