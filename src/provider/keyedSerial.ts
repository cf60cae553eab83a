/**
 * Runs tasks that share a key one after another, in arrival order; tasks with different keys run
 * concurrently. A failed task does not stop the ones queued behind it.
 */
export class KeyedSerial {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `task` once every earlier task with `key` has settled; resolves or rejects as `task` does. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
