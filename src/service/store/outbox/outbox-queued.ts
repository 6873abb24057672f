/**
 * Word, in this process, that outbox messages were queued and committed (an event's outbox
 * rows, a test event, a retry), so that a sleeping sender claims them at once instead of at
 * its next poll. Only an optimisation: senders poll too, and other processes and instances
 * learn of new messages by polling alone.
 */
export type OutboxQueuedListener = () => void;

export class OutboxQueued {
  private readonly listeners = new Set<OutboxQueuedListener>();

  /** Calls `listener` after each commit that queued messages; returns the unsubscribe. */
  subscribe(listener: OutboxQueuedListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // A listener's failure must not fail the request that committed the change.
      }
    }
  }
}
