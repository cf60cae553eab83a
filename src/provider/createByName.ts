/**
 * Creates that happen once for resources whose names are unique per account (templates, registry
 * credentials): after a create whose outcome is unknown (dropped connection, timeout, 5xx), the record
 * of that name is looked up in a fresh listing — the platform would have refused a second one, so the
 * lookup is exact — and adopted; only when none exists is the create tried once more.
 */
import { isOutcomeUnknown, messageOf } from "./errorKinds";
import { KeyedSerial } from "./keyedSerial";
import type { SharedListing } from "./listing";

const serial = new WeakMap<object, KeyedSerial>();

/**
 * @param what e.g. `template "llm"`, for the error when the deciding listing fails.
 * @throws the create's error when it is not an unknown outcome, or when the second try fails too; an
 *   Error saying what is at stake when the listing that decides fails.
 */
export function createOnceByName<T extends { id: string; name: string }>(
  listing: SharedListing<T>,
  name: string,
  what: string,
  send: () => Promise<T>,
): Promise<T> {
  let queue = serial.get(listing);
  if (!queue) serial.set(listing, (queue = new KeyedSerial()));
  return queue.run(name, async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        const record = await send();
        listing.changed(record.id);
        return record;
      } catch (err) {
        if (!isOutcomeUnknown(err)) throw err;
        listing.changed();
        let found: T | undefined;
        try {
          found = (await listing.list()).find((r) => r.name === name);
        } catch (listErr) {
          throw new Error(
            `Creating ${what} got no answer (${messageOf(err)}) and looking for it failed too (${messageOf(listErr)}); ` +
              "it may exist on the platform without being in the stack: check your list, and delete it or run `pulumi up` again",
            { cause: listErr },
          );
        }
        if (found) return found;
        if (attempt >= 2) throw err;
      }
    }
  });
}
