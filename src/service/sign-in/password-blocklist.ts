/**
 * The common passwords a person may not choose (assets/password-blocklist.txt.br, made by
 * scripts/password-blocklist.mjs), read once when the app starts into a Set owned by
 * the app: docs/benchmarks.md has its load time and memory.
 */
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';
import { PASSWORD_BLOCKLIST_FILE } from '../assets';
import type { Blocklist } from '../domain/passwords';

export class PasswordBlocklist implements Blocklist {
  private constructor(private readonly words: ReadonlySet<string>) {}

  static async load(file: string = PASSWORD_BLOCKLIST_FILE): Promise<PasswordBlocklist> {
    const text = (await promisify(brotliDecompress)(await readFile(file))).toString('utf8');
    return new PasswordBlocklist(new Set(text.split('\n').filter((word) => word !== '')));
  }

  has(normalizedLowerCase: string): boolean {
    return this.words.has(normalizedLowerCase);
  }

  get size(): number {
    return this.words.size;
  }
}
