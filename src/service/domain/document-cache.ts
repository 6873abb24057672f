/**
 * Parsed documents by (config id, revision), so an edit does not parse text that the last
 * edit already parsed (a 10,000-app config takes seconds to parse). Operations mutate a
 * document in place, so an edit *takes* its document out; a refused edit simply never puts
 * it back. Least recently used entries go first.
 */
import type { ParsedConfig } from '../../configs/parse';

export class DocumentCache {
  private readonly entries = new Map<string, ParsedConfig>();

  constructor(private readonly capacity = 16) {}

  /** Removes and returns the document; the caller may mutate it. */
  take(id: string, revision: number): ParsedConfig | undefined {
    const key = `${id}@${revision}`;
    const parsed = this.entries.get(key);
    this.entries.delete(key);
    return parsed;
  }

  put(id: string, revision: number, parsed: ParsedConfig): void {
    const key = `${id}@${revision}`;
    this.entries.delete(key);
    this.entries.set(key, parsed);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
