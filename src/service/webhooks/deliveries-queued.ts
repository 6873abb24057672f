/**
 * Word, in this process, that deliveries were queued and committed (an event's outbox rows,
 * a test event, a retry), so that a sleeping sender claims them at once instead of at its
 * next poll. Only an optimisation: senders poll too, and other processes and instances
 * learn of new deliveries by polling alone.
 */
export type DeliveriesQueuedListener = () => void;

export class DeliveriesQueued {
  private readonly listeners = new Set<DeliveriesQueuedListener>();

  /** Calls `listener` after each commit that queued deliveries; returns the unsubscribe. */
  subscribe(listener: DeliveriesQueuedListener): () => void {
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
