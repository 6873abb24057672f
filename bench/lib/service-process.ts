/**
 * The real service in a process of its own, as an operator runs it (`provisioning serve`),
 * on a data directory of the bench's, with the rate limit off (it would answer 429s) and
 * its request log at the default level, written to a file as a deployment would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../bin/provisioning.js', import.meta.url));

export interface RunningProcess {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/** Starts `script` with `args` and waits for the line on stderr that names its port. */
export async function startListening(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; stdoutFile?: string; portPattern: RegExp },
): Promise<RunningProcess> {
  const stdout = options.stdoutFile ? openSync(options.stdoutFile, 'w') : 'ignore';
  const child = spawn(process.execPath, [...args], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', stdout, 'pipe'],
  });
  if (typeof stdout === 'number') closeSync(stdout);
  const port = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = options.portPattern.exec(seen);
      if (match?.[1]) {
        child.stderr?.off('data', onData);
        child.stderr?.resume();
        resolve(match[1]);
      }
    };
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}): ${seen}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    stop: () => stopProcess(child),
  };
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** `env`: more settings (e.g. a delivery rate limit the load stays under). */
export function startService(
  dataDir: string,
  env: NodeJS.ProcessEnv = {},
): Promise<RunningProcess> {
  return startListening([CLI, 'serve', '--port', '0', '--data-dir', dataDir], {
    env: {
      RATE_LIMIT_RPS: '0',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      HOST: '127.0.0.1',
      ...env,
    },
    stdoutFile: join(dataDir, 'service.log'),
    portPattern: /Provisioning Console: http:\/\/[^:]+:(\d+)/,
  });
}
