/**
 * The ids that existed before a process's first create of a chosen name (create settlement: a record
 * found after an unanswered create counts only if it was not there before). One listing, taken at the
 * first call and shared by every later one; a failed listing is forgotten so the next call retries.
 */
export class IdsBefore {
  private taken?: Promise<ReadonlySet<string>>;

  constructor(private readonly list: () => Promise<readonly { id: string }[]>) {}

  get(): Promise<ReadonlySet<string>> {
    if (!this.taken) {
      const taking = this.list().then((all) => new Set(all.map((r) => r.id)));
      taking.catch(() => {
        if (this.taken === taking) this.taken = undefined;
      });
      this.taken = taking;
    }
    return this.taken;
  }
}

/** No record could carry a name `check` generated. */
export const NOTHING_BEFORE: ReadonlySet<string> = new Set();
