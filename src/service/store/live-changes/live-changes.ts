/**
 * The listeners of live changes (`LiveChanges`), for the stores to announce to: a set that
 * starts the store's watch (a poll, a LISTEN connection) when the first listener comes and
 * stops it when the last one goes, so that a store nobody streams from does no extra work.
 */
/**
 * Word that what apps read of an account may have changed (a publish, an activate, an A/B
 * step, a revoked client key), from this process or another one or instance. `null`: some
 * account, unknown which (another process wrote to the same SQLite file).
 */
export type LiveChangeListener = (accountId: string | null) => void;

export interface LiveChanges {
  subscribe(listener: LiveChangeListener): () => void;
}

export interface LiveChangeWatch {
  /** The first listener came. */
  start(): void;
  /** The last listener went. */
  stop(): void;
}

const NO_WATCH: LiveChangeWatch = { start: () => undefined, stop: () => undefined };

export class LiveChangeListeners implements LiveChanges {
  private readonly listeners = new Set<LiveChangeListener>();

  constructor(private readonly watch: LiveChangeWatch = NO_WATCH) {}

  subscribe(listener: LiveChangeListener): () => void {
    // A function object of its own: the same listener subscribed twice is two subscriptions.
    const entry: LiveChangeListener = (accountId) => listener(accountId);
    this.listeners.add(entry);
    if (this.listeners.size === 1) this.watch.start();
    return () => {
      if (!this.listeners.delete(entry)) return;
      if (this.listeners.size === 0) this.watch.stop();
    };
  }

  /** Tells every listener; one that throws does not keep the word from the others. */
  announce(accountId: string | null): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(accountId);
      } catch {
        // A listener's failure is its own (the stream hub catches and logs its own).
      }
    }
  }

  get size(): number {
    return this.listeners.size;
  }
}
