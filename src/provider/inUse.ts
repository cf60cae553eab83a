/**
 * Deletes the platform refuses while something still uses the resource (a template while an endpoint
 * runs on it, and for a short while after; registry credentials while a template names them):
 * `FAILED_PRECONDITION` (errorKinds.ts `isInUse`). Pulumi's dependency order deletes or moves the users first, so the refusal is
 * usually the platform's release window: retried until a deadline, then a clear error.
 */
import { isInUse, messageOf } from "./errorKinds";

/** How long a refused delete is retried, in milliseconds. */
export const IN_USE_DEADLINE_MS = 120_000;
/** First pause between tries; doubles up to {@link IN_USE_MAX_PAUSE_MS}. */
export const IN_USE_FIRST_PAUSE_MS = 500;
export const IN_USE_MAX_PAUSE_MS = 5_000;

export interface InUseOptions {
  deadlineMs?: number;
  firstPauseMs?: number;
}

/**
 * Runs `remove` until it succeeds, retrying in-use refusals within the deadline.
 * @param users names the users still holding the resource, for the final error (e.g. "endpoints ep1, ep2").
 * @throws the last refusal, reworded: what is still used, by whom, for how long it was retried and what to do;
 *   any other error at once.
 */
export async function deleteWhenReleased(what: string, remove: () => Promise<void>, users: () => Promise<string>, options: InUseOptions = {}): Promise<void> {
  const deadlineMs = options.deadlineMs ?? IN_USE_DEADLINE_MS;
  const start = Date.now();
  for (let pause = options.firstPauseMs ?? IN_USE_FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, IN_USE_MAX_PAUSE_MS)) {
    try {
      await remove();
      return;
    } catch (err) {
      if (!isInUse(err)) throw err;
      if (Date.now() - start + pause > deadlineMs) {
        let holders: string;
        try {
          holders = await users();
        } catch {
          holders = "";
        }
        const seconds = Math.round((Date.now() - start) / 100) / 10;
        throw new Error(
          `${what} is still in use${holders ? ` by ${holders}` : ""} after ${seconds} s of retries (${messageOf(err)}); ` +
            "move or delete what uses it first (or run `pulumi up`/`pulumi destroy` again once it is released)",
          { cause: err },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
