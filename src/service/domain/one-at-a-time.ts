/**
 * Runs tasks with the same key one after another, in arrival order; other keys run freely.
 * Edits of one config wait here rather than race: two edits computed from the same revision
 * would have all but one thrown away and redone.
 */
export class OneAtATime {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    // A tail never rejects: a failed task does not stop the ones after it.
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    // The last task of a key removes the key, so idle keys hold nothing.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Keys with a task running or waiting. */
  get busyKeys(): number {
    return this.tails.size;
  }
}
