/**
 * A value read again only when the last reading is older than a short window. For a check
 * every request makes under load (SQLite's `PRAGMA data_version`: a lock and an fstat each
 * time), a window far shorter than any network round trip keeps the answer as fresh as a
 * client can tell while tens of requests share one reading.
 */
export class RecentReading<T> {
  private value: T | undefined;
  private readAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly read: () => T,
    private readonly windowMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get(): T {
    const now = this.now();
    if (this.value === undefined || now - this.readAt >= this.windowMs) {
      this.value = this.read();
      this.readAt = now;
    }
    return this.value;
  }
}
