/**
 * Creates that happen once for templates and registry credentials: after a create whose outcome is
 * unknown (dropped connection, timeout, 5xx), a fresh listing is searched for a record of that name
 * that neither existed before this process's first create of a chosen name nor was made or adopted by
 * another of its creates. One found is adopted; none, and the create is tried once more; several, and
 * the user is told which to keep. Names are unique on GraphQL but not on REST v2 (CreateTemplateRequest,
 * CreateRegistryRequest: `name` minLength 1 only), so the name alone would adopt a stranger's record.
 *
 * "Existed before" is one listing per kind and process, shared by its creates; an auto-named create
 * needs none (no record could carry its generated name).
 */
import { isOutcomeUnknown, messageOf } from "./errorKinds";
import { IdsBefore, NOTHING_BEFORE } from "./idsBefore";
import { KeyedSerial } from "./keyedSerial";
import type { SharedListing } from "./listing";

interface Bookkeeping {
  serial: KeyedSerial;
  /** Ids listed before this process's first create of a chosen name. */
  before: IdsBefore;
  /** Records this process's creates made or adopted. */
  claimed: Set<string>;
}

const books = new WeakMap<object, Bookkeeping>();

/** What is created: its name, whether `check` generated it, and how messages call it (e.g. `template "llm"`). */
export interface NamedCreate {
  name: string;
  autonamed: boolean;
  what: string;
}

/**
 * @throws the create's error when it is not an unknown outcome, or when the second try fails too; an
 *   Error saying what is at stake when the listing that decides fails, or which records to sort out
 *   when several candidates exist.
 */
export function createOnceByName<T extends { id: string; name: string }>(listing: SharedListing<T>, create: NamedCreate, send: () => Promise<T>): Promise<T> {
  let book = books.get(listing);
  if (!book) books.set(listing, (book = { serial: new KeyedSerial(), before: new IdsBefore(() => listing.list()), claimed: new Set() }));
  const { name, what } = create;
  const claim = (record: T): T => {
    book.claimed.add(record.id);
    listing.changed(record.id);
    return record;
  };
  return book.serial.run(name, async () => {
    const before = create.autonamed ? NOTHING_BEFORE : await book.before.get();
    for (let attempt = 1; ; attempt++) {
      try {
        return claim(await send());
      } catch (err) {
        if (!isOutcomeUnknown(err)) throw err;
        listing.changed();
        let found: T[];
        try {
          found = (await listing.list()).filter((r) => r.name === name && !before.has(r.id) && !book.claimed.has(r.id));
        } catch (listErr) {
          throw new Error(
            `Creating ${what} got no answer (${messageOf(err)}) and looking for it failed too (${messageOf(listErr)}); ` +
              "it may exist on the platform without being in the stack: check your list, and delete it or run `pulumi up` again",
            { cause: listErr },
          );
        }
        if (found.length === 1) return claim(found[0]);
        if (found.length > 1) {
          throw new Error(
            `Creating ${what} had an unknown outcome and ${found.length} new records with that name now exist (${found.map((r) => r.id).join(", ")}); ` +
              "adopt the right one with `pulumi-runpod import <resource name> <id>` and delete the others",
          );
        }
        if (attempt >= 2) throw err;
      }
    }
  });
}
