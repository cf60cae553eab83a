/**
 * The provider of a named kind (templates, registry credentials, network volumes, pods), above its path
 * port: a create whose outcome is unknown is settled by looking the name up among records that did not
 * exist before (createOnce.ts), never by a blind second create; a delete refused while something still
 * uses the record is retried within a deadline by the session's port (inUse.ts), then fails naming the
 * users; a record already gone counts as deleted (each path's port says how it deletes; port.ts).
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { createOnce } from "./createOnce";
import type { InUseOptions } from "./inUse";
import type { SharedListing } from "./listing";
import type { ResourceModel } from "./model/fields";
import type { KindSession } from "./kindSession";
import { RecordProvider, type KindWords } from "./recordProvider";
import { AUTONAMED_PROPERTY } from "./reserved";
import { withoutSecrets } from "./secrets";

type Props = Record<string, unknown>;

export abstract class NamedRecordProvider<I extends { name: string }, O extends object, R extends { id: string; name: string }> extends RecordProvider<
  I,
  O,
  R
> {
  constructor(session: KindSession, model: ResourceModel, words: KindWords, inUse: InUseOptions = {}) {
    super(session, model, words, inUse);
  }

  /** The session's shared listing of the kind (create settlement by name, changes reported). */
  private get listing(): SharedListing<R> {
    return this.session.listing<R>(this.model.kind);
  }

  async create(news: Props): Promise<dynamic.CreateResult<O>> {
    const inputs = this.checked(news, "create");
    const port = this.port;
    const record = await withoutSecrets(this.secretsOf(news), () =>
      createOnce(this.listing, { name: inputs.name, autonamed: news[AUTONAMED_PROPERTY] === true, what: `${this.words.noun} "${inputs.name}"` }, () =>
        port.create(inputs),
      ),
    );
    return { id: record.id, outs: this.stored(this.outputs(record, news), news) };
  }

  async update(id: string, olds: Props, news: Props): Promise<dynamic.UpdateResult<O>> {
    const inputs = this.checked(news, "update");
    const port = this.port;
    const record = await this.writing(
      id,
      this.secretsOf(news, olds),
      () => port.update(id, inputs, olds),
      (changed) => this.listing.changed(changed),
    );
    return { outs: this.stored(this.outputs(record, news), news) };
  }

  /** Deletes through the path's port, which retries the platform's in-use refusal within the deadline (inUse.ts). */
  async delete(id: string, props?: Props): Promise<void> {
    const port = this.port;
    await withoutSecrets(this.secretsOf(props), () => port.delete(id, props));
  }
}
