/**
 * The access log never stops the service: with nobody reading its stdout (a full pipe), a
 * process that has logged 2 MB of lines still turns its event loop, and once the reader
 * comes back every line arrives, in order.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CHILD = fileURLToPath(new URL('./testing/log-flood-child.ts', import.meta.url));
const LINES = 15_000;

describe('the log destination', () => {
  it('keeps the event loop turning while stdout is not read, and loses no line', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, String(LINES)], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    // stdout stays paused (unread) until the child has said it is alive.
    child.stdout.pause();
    const alive = await new Promise<string>((resolve, reject) => {
      let said = '';
      child.stderr.on('data', (chunk: Buffer) => {
        said += chunk.toString();
        if (said.includes('\n')) resolve(said.trim());
      });
      child.once('exit', (code) => reject(new Error(`the child exited (${code}): ${said}`)));
    });
    expect(alive).toBe('alive 0');
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdin.write('close\n');
    expect(await exited).toBe(0);
    const lines = Buffer.concat(chunks).toString('utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(LINES);
    expect(lines.map((line) => (JSON.parse(line) as { n: number }).n)).toEqual(
      Array.from({ length: LINES }, (_, n) => n),
    );
  }, 60_000);
});
