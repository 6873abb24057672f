/**
 * Edited configs by config id, so that an edit starts from what the last one left (its
 * parsed document, written text and validation findings) rather than parsing the text
 * again. An entry answers only for the exact text it was parsed from, so a stale entry can
 * never be edited. Operations change a document in place, so an edit *takes* its entry
 * out; a refused edit never puts it back.
 *
 * Bounded by an estimate of the memory the entries hold (their text's length times
 * `BYTES_PER_CHARACTER`), not by count. A document about to be parsed counts too
 * (`makeRoom`), so the worker's heap stays bounded.
 */
import type { EditableConfig } from '../../configs/edit';

/** A parsed and validated config holds about 20 bytes of heap per character of its text. */
export const BYTES_PER_CHARACTER = 24;

interface Entry {
  readonly config: EditableConfig;
  readonly bytes: number;
}

export class DocumentCache {
  private readonly entries = new Map<string, Entry>();
  private heldBytes = 0;

  constructor(private readonly budgetBytes: number) {}

  /** Removes and returns the config of `id` when it was parsed from `text`. */
  take(id: string, text: string): EditableConfig | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    this.remove(id, entry);
    return entry.config.parsed.text === text ? entry.config : undefined;
  }

  /** Drops the least recently used documents until `bytes` more would fit in the budget. */
  makeRoom(bytes: number): void {
    for (const [oldestId, oldest] of this.entries) {
      if (this.heldBytes + bytes <= this.budgetBytes) break;
      this.remove(oldestId, oldest);
    }
  }

  put(id: string, config: EditableConfig): void {
    const previous = this.entries.get(id);
    if (previous) this.remove(id, previous);
    const bytes = estimatedBytes(config.parsed.text);
    if (bytes > this.budgetBytes) return;
    this.makeRoom(bytes);
    this.entries.set(id, { config, bytes });
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

export function estimatedBytes(text: string): number {
  return text.length * BYTES_PER_CHARACTER;
}
