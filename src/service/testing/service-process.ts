/**
 * The service and the operator's command line as separate processes (`bin/provisioning.js`),
 * as operators run them: for tests of several instances, of restarts and of the CLI.
 * Test-only.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export const BIN = join(import.meta.dirname, '../../../bin/provisioning.js');

export interface ServiceProcess {
  readonly child: ChildProcess;
  /** `http://localhost:port` */
  readonly url: string;
  /** Resolves with the exit code once the process has ended. */
  readonly exited: Promise<number | null>;
}

/**
 * Starts `provisioning serve --port 0 ...args` and resolves once it listens. Its stdout and
 * stderr are appended to `output`.
 */
export function spawnService(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  output: string[] = [],
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return new Promise((resolve, reject) => {
    let text = '';
    let listening = false;
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      output.push(chunk.toString());
      if (listening) return;
      const line = text.split('\n').find((candidate) => candidate.startsWith('{"url"'));
      if (line) {
        listening = true;
        resolve({ child, url: (JSON.parse(line) as { url: string }).url, exited });
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    void exited.then((code) => {
      if (!listening)
        reject(new Error(`serve exited with ${code} before listening: ${output.join('')}`));
    });
  });
}

/** Runs one `provisioning` command to the end and parses the JSON it prints. */
export function runCli(
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Record<string, unknown> {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (result.status !== 0)
    throw new Error(
      `provisioning ${args.join(' ')} exited with ${result.status}: ${result.stderr}`,
    );
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

export const ACTIVATE_CHILD = join(import.meta.dirname, 'activate-child.ts');

/**
 * Makes a config live from another process (activate-child.ts): on the SQLite file in
 * `dataDir`, or on the PostgreSQL database `env.DATABASE_URL` names.
 */
export function activateInChild(
  dataDir: string,
  accountId: string,
  configId?: string,
  env: NodeJS.ProcessEnv = {},
): void {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', ACTIVATE_CHILD, dataDir, accountId, ...(configId ? [configId] : [])],
    { encoding: 'utf8', env: { ...process.env, ...env } },
  );
  if (result.status !== 0)
    throw new Error(`activate-child exited with ${result.status}: ${result.stderr}`);
}
