/**
 * Answers remembered while the database is as it was when they were read: the same
 * version (for SQLite, `PRAGMA data_version`, which moves on another connection's commit)
 * and the same count of this connection's own writes that change these answers (which
 * data_version does not count).
 * Checking the version costs far less than the query it saves. Only found answers are
 * kept (inventing keys must not fill the memory), at most `limit`, emptied when full.
 */
export class VersionedMemo<V> {
  private readonly values = new Map<string, V>();
  private version = -1;
  private ownWrites = -1;

  constructor(private readonly limit: number) {}

  /** A write that changed remembered answers in a known way (`last_used_at`): kept, updated. */
  updateEach(update: (value: V) => V): void {
    for (const [key, value] of this.values) this.values.set(key, update(value));
  }

  /** The answer for `key` at this version, read with `read` unless remembered. */
  get(
    key: string,
    version: number,
    ownWrites: number,
    read: (key: string) => V | undefined,
  ): V | undefined {
    if (version !== this.version || ownWrites !== this.ownWrites) {
      this.values.clear();
      this.version = version;
      this.ownWrites = ownWrites;
    }
    const known = this.values.get(key);
    if (known !== undefined) return known;
    const value = read(key);
    if (value !== undefined) {
      if (this.values.size >= this.limit) this.values.clear();
      this.values.set(key, value);
    }
    return value;
  }
}
