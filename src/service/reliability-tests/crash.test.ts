/**
 * Crashes (docs/reliability.md), the short run: the real server killed
 * with SIGKILL 3 times under edit load. After each kill the database passes integrity_check,
 * every edit that got a 200 is there, none is half applied, and the server answers again.
 * `npm run test:stress` does the same 20 times and holds the restart to 2 s; here the bound
 * is a generous liveness limit, since timing thresholds stay out of `npm test`.
 */
import { afterAll, expect, it } from 'vitest';
import {
  problemsOf,
  removeDataDir,
  runCrashRounds,
  type CrashRunReport,
} from '../testing/crash-harness';

let report: CrashRunReport | undefined;
afterAll(() => {
  if (report) removeDataDir(report);
});

it('survives 3 SIGKILLs under load: whole database, every acknowledged edit, answers again', async () => {
  report = await runCrashRounds({ kills: 3, clients: 10, killAfterMs: [0, 600], warmUpEdits: 3 });

  expect(report.rounds).toHaveLength(3);
  for (const round of report.rounds) {
    expect(problemsOf(round.check), `kill ${round.round}`).toEqual([]);
    expect(round.check.integrity).toBe('ok');
    expect(round.restartMs).toBeLessThan(15_000);
  }
  // The load was real: edits were acknowledged before each kill, and none got a 5xx.
  expect(report.acknowledged).toBeGreaterThanOrEqual(3 * 3);
  expect(report.serverErrors).toBe(0);
  const last = report.rounds.at(-1)?.check;
  expect(last?.missing).toEqual([]);
  expect((last?.apps.length ?? 0) / 2).toBeGreaterThanOrEqual(report.acknowledged);

  // The server's own logs (pino, info level) hold request lines but never the key.
  expect(report.serverOutput).toContain('"msg":"request"');
  for (const secret of report.secrets) expect(report.serverOutput).not.toContain(secret);
}, 120_000);
