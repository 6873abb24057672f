/** Runs the load generator (load-child.ts) in a child process and reads its answer. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const LOAD_CHILD = fileURLToPath(new URL('./load-child.ts', import.meta.url));

export interface LoadResult {
  readonly rps: number;
  /** Answers received in all. */
  readonly requests: number;
  readonly non2xx: number;
  readonly errors: number;
  /** Answers by status code. */
  readonly statuses?: Readonly<Record<string, number>>;
}

export async function runLoad(options: {
  readonly url: string;
  readonly headers?: Record<string, string>;
  readonly connections: number;
  readonly durationSeconds: number;
  /** A POST's body; `[<id>]` in it becomes a fresh id in each request. */
  readonly post?: { readonly body: string };
}): Promise<LoadResult> {
  const { stdout } = await promisify(execFile)(process.execPath, [
    '--import',
    'tsx',
    LOAD_CHILD,
    JSON.stringify({
      url: options.url,
      headers: options.headers ?? {},
      connections: options.connections,
      duration: options.durationSeconds,
      ...(options.post ? { method: 'POST', body: options.post.body, idReplacement: true } : {}),
    }),
  ]);
  return JSON.parse(stdout) as LoadResult;
}
