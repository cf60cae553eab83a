/**
 * Deletes the platform refuses while something still uses the resource (a template while an endpoint
 * runs on it, and for a short while after; registry credentials while a template names them; a network
 * volume while something mounts it). Pulumi's dependency order deletes or moves the users first, so the
 * refusal is usually the platform's release window: retried until a deadline, then a clear error. The
 * retry wraps a kind's port (the session's `port`), so every caller that asks for it deletes the same way;
 * the port says which errors are the refusal (`refusedInUse`). A refusal while resources the program
 * still declares keep using the record (the session's `keepsUsing`) cannot end by waiting: it fails at once.
 */
import { backoffMs } from "../api/backoff";
import { InUseError } from "../api/errors";
import { poll } from "../api/poll";
import { messageOf } from "./errorKinds";
import type { Port } from "./port";

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
 * Runs `remove` until it succeeds, retrying the refusals `refused` recognises within the deadline.
 * @param users names the users still holding the resource, for the final error (e.g. "endpoints ep1, ep2").
 * @throws the last refusal, reworded: what is still used, by whom, for how long it was retried and what
 *   to do (its `cause`: an InUseError around the platform's answer); any other error at once.
 */
async function deleteWhenReleased(
  what: string,
  remove: () => Promise<void>,
  refused: (err: unknown) => boolean,
  users: () => Promise<string>,
  kept: () => string[],
  options: InUseOptions,
): Promise<void> {
  const start = Date.now();
  // Each try answers "deleted" or the refusal; any other error ends the polling.
  const attempt = () =>
    remove().then(
      () => "deleted" as const,
      (err: unknown) => {
        if (!refused(err)) throw err;
        const keeping = kept();
        if (keeping.length > 0) throw keptError(what, keeping, err);
        return { refusal: err };
      },
    );
  const tried = await poll(attempt, (answer) => answer === "deleted", {
    timeoutMs: options.deadlineMs ?? IN_USE_DEADLINE_MS,
    intervalMs: (pauses) => backoffMs(pauses, { firstMs: options.firstPauseMs ?? IN_USE_FIRST_PAUSE_MS, maxMs: IN_USE_MAX_PAUSE_MS }),
    // A delete under way is not abandoned: its answer decides.
    finishProbe: true,
  });
  if (tried.met) return;
  const refusal = tried.value === undefined || tried.value === "deleted" ? undefined : tried.value.refusal;
  let holders: string;
  try {
    holders = await users();
  } catch {
    holders = "";
  }
  const seconds = Math.round((Date.now() - start) / 100) / 10;
  throw new Error(
    `${what} is still in use${holders ? ` by ${holders}` : ""} after ${seconds} s of retries (${messageOf(refusal)}); ` +
      "move or delete what uses it first (or run `pulumi up`/`pulumi destroy` again once it is released)",
    { cause: new InUseError(refusal) },
  );
}

/** The refusal when resources of the stack the program still declares keep using the record: no retry can end it. */
function keptError(what: string, users: string[], refusal: unknown): Error {
  const them = users.length === 1 ? "it" : "them";
  return new Error(
    `${what} is still used by ${users.join(", ")} of this stack, which the program still declares using it, and the platform refuses to delete it (${messageOf(refusal)}). ` +
      `Keep it declared, or remove its use from ${them} first and delete it in a later deployment`,
    { cause: new InUseError(refusal) },
  );
}

/**
 * `port` with a delete that retries the platform's in-use refusal (the port's `refusedInUse`; none
 * without it) within `options`' deadline, then fails naming the users.
 * @param noun how messages call the kind, e.g. `network volume`.
 * @param who.users who still uses record `id`, in the words of the error ("endpoints a (x)"), or "".
 * @param who.kept the resources of the stack the program still declares using record `id` ("endpoint llm").
 */
export function retryingInUse<I, R extends { id: string }>(
  port: Port<I, R>,
  noun: string,
  who: { users: (id: string) => Promise<string>; kept: (id: string) => string[] },
  options: InUseOptions,
): Port<I, R> {
  const refused = port.refusedInUse ?? (() => false);
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
  return {
    ...port,
    delete: (id, props) => {
      const name = typeof props?.name === "string" ? props.name : id;
      return deleteWhenReleased(
        `${Noun} "${name}" (${id})`,
        () => port.delete(id, props),
        refused,
        () => who.users(id),
        () => who.kept(id),
        options,
      );
    },
  };
}
