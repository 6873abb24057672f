/**
 * Debian's nginx as an unprivileged process of the test's own: a temporary prefix holding
 * its configuration, pid file, logs and temporary files, listening on loopback only. The
 * configuration the deployment guide documents (docs/nginx/) is read from the repository.
 * Test-only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
export const NGINX_DOCS_DIR = join(import.meta.dirname, '../../../docs/nginx');

export interface RunningNginx {
  readonly port: number;
  /** `http://127.0.0.1:port` */
  readonly url: string;
  readonly dir: string;
  /** The error log so far (for a failing test's message). */
  errors(): string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * `text` with `from` replaced by `to` exactly `times` times: a documented file that changed
 * shape fails the test here rather than being tested as something else.
 */
export function replaceExactly(text: string, from: string, to: string, times = 1): string {
  const found = text.split(from).length - 1;
  if (found !== times)
    throw new Error(`expected "${from}" ${times} time(s) in the documented config, found ${found}`);
  return text.split(from).join(to);
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts nginx with `http` as its http block's content (the temporary paths come first), and
 * resolves once `port` accepts connections.
 */
export async function startNginx(
  port: number,
  http: (dir: string) => string,
): Promise<RunningNginx> {
  const dir = mkdtempSync(join(tmpdir(), 'provisioning-nginx-'));
  // As root, nginx's workers run as nobody: they must reach the temporary paths inside.
  chmodSync(dir, 0o755);
  const config = [
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log warn;`,
    'worker_processes 1;',
    'events { worker_connections 1024; }',
    'http {',
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
      (kind) => `    ${kind}_temp_path ${dir}/${kind}_temp;`,
    ),
    `    access_log ${dir}/access.log;`,
    http(dir),
    '}',
    '',
  ].join('\n');
  writeFileSync(join(dir, 'nginx.conf'), config);
  writeFileSync(join(dir, 'error.log'), '');
  const child: ChildProcess = spawn(
    NGINX,
    ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log'), '-g', 'daemon off;'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  const errors = () => `${stderr}${readFileSync(join(dir, 'error.log'), 'utf8')}`;
  // Wait for the listening socket (nginx says nothing when it is ready).
  while (!(await answers(port))) {
    if (gone) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`nginx exited before listening: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    dir,
    errors,
    async stop() {
      if (!gone) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
