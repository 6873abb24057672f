/**
 * Parsed documents by config id, so an edit does not parse text that the last edit already
 * parsed (a 10,000-app config takes seconds to parse). An entry answers only for the exact
 * text it was parsed from, so a stale entry can never be edited. Operations mutate a document
 * in place, so an edit *takes* its document out; a refused edit never puts it back.
 *
 * Bounded by an estimate of the memory the documents hold (their text's length times
 * `BYTES_PER_CHARACTER`), not by count: sixteen 10,000-app documents would hold about 600 MB.
 * A document about to be parsed counts too (`makeRoom`), so the worker's heap stays bounded.
 */
import type { ParsedConfig } from '../../configs/parse';

/** A parsed and validated config holds about 20 bytes of heap per character of its text. */
export const BYTES_PER_CHARACTER = 24;

interface Entry {
  readonly parsed: ParsedConfig;
  readonly bytes: number;
}

export class DocumentCache {
  private readonly entries = new Map<string, Entry>();
  private heldBytes = 0;

  constructor(private readonly budgetBytes: number) {}

  /** Removes and returns the document of `id` when it was parsed from `text`. */
  take(id: string, text: string): ParsedConfig | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    this.remove(id, entry);
    return entry.parsed.text === text ? entry.parsed : undefined;
  }

  /** Drops the least recently used documents until `bytes` more would fit in the budget. */
  makeRoom(bytes: number): void {
    for (const [oldestId, oldest] of this.entries) {
      if (this.heldBytes + bytes <= this.budgetBytes) break;
      this.remove(oldestId, oldest);
    }
  }

  put(id: string, parsed: ParsedConfig): void {
    const previous = this.entries.get(id);
    if (previous) this.remove(id, previous);
    const bytes = estimatedBytes(parsed);
    if (bytes > this.budgetBytes) return;
    this.makeRoom(bytes);
    this.entries.set(id, { parsed, bytes });
    this.heldBytes += bytes;
  }

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.heldBytes;
  }

  // Maps iterate in insertion order: the first entries are the least recently used.
  private remove(id: string, entry: Entry): void {
    this.entries.delete(id);
    this.heldBytes -= entry.bytes;
  }
}

export function estimatedBytes(parsed: ParsedConfig | string): number {
  return (typeof parsed === 'string' ? parsed : parsed.text).length * BYTES_PER_CHARACTER;
}
