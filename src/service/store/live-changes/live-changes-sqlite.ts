/**
 * Live changes on SQLite: this process's units of work announce their account after they
 * commit; another process's commits on the same file (the command line, a second `serve`)
 * are found by polling `PRAGMA data_version`, while anyone listens, and announced as `null`
 * (some account: SQLite does not say which).
 *
 * The poll reads the store's own connection on purpose: its data_version moves only on other
 * connections' commits, so this process's commits, already announced with their account,
 * are not announced a second time as `null` (which would make every stream read again).
 * When the watch begins, `null` is announced once: a commit made just before it is unknown.
 */
import { LiveChangeListeners, type LiveChangeListener, type LiveChanges } from './live-changes';

/** How often another process's commits are looked for: a tenth of the one second allowed. */
export const DATA_VERSION_POLL_MS = 100;

export class SqliteLiveChanges implements LiveChanges {
  private readonly listeners: LiveChangeListeners;
  private timer: NodeJS.Timeout | undefined;
  private seen = 0;

  constructor(
    /** `PRAGMA data_version` of the store's connection. */
    private readonly dataVersion: () => number,
    private readonly pollMs = DATA_VERSION_POLL_MS,
  ) {
    this.listeners = new LiveChangeListeners({
      start: () => this.startPolling(),
      stop: () => this.stopPolling(),
    });
  }

  subscribe(listener: LiveChangeListener): () => void {
    return this.listeners.subscribe(listener);
  }

  /** A unit of work of this process that changed what `accountId`'s apps read has committed. */
  committed(accountId: string): void {
    this.listeners.announce(accountId);
  }

  close(): void {
    this.stopPolling();
  }

  private startPolling(): void {
    this.seen = this.dataVersion();
    this.timer = setInterval(() => this.poll(), this.pollMs);
    // Streams keep the process alive, not this poll.
    this.timer.unref();
    // What another process committed just before the watch began is unknown: listeners that
    // read before subscribing read again.
    setImmediate(() => {
      if (this.timer) this.listeners.announce(null);
    });
  }

  private poll(): void {
    let version: number;
    try {
      version = this.dataVersion();
    } catch {
      return; // the database is closing or unreadable for a moment: the next poll tries again
    }
    if (version === this.seen) return;
    this.seen = version;
    this.listeners.announce(null);
  }

  private stopPolling(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
