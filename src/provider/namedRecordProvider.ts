/**
 * The provider of a kind whose names are unique per account (templates, registry credentials), above
 * its path port: a create whose outcome is unknown is settled by looking the name up
 * (createByName.ts), never by a blind second create; a delete refused while something still uses the
 * record is retried within a deadline (inUse.ts), then fails naming the users; a record already gone
 * counts as deleted.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { PerPath } from "./apiPath";
import { createOnceByName } from "./createByName";
import { deleteWhenReleased, type InUseOptions } from "./inUse";
import type { SharedListing } from "./listing";
import type { ResourceModel } from "./model/fields";
import { RecordProvider, type KindWords, type SessionSource } from "./recordProvider";
import { AUTONAMED_PROPERTY } from "./reserved";
import { withoutSecrets } from "./secrets";
import type { PlatformSession } from "./session";

type Props = Record<string, unknown>;

/** What a path does for a kind with unique names. */
export interface NamedRecordPort<I, R extends { id: string; name: string }> {
  /** The caller's records of the kind, shared per burst (the session's listing on this path). */
  readonly listing: SharedListing<R>;
  /** Inputs this path cannot change in place (REST v2 has no registry update): a change replaces. */
  readonly replaces?: readonly string[];
  /** Creates the record as `inputs` declare it. */
  create(inputs: I): Promise<R>;
  /** Applies `inputs` to record `id`; `olds` are the stored outputs. */
  update(id: string, inputs: I, olds: Props): Promise<R>;
  /**
   * What deleting `id` takes: its current name (for messages) and the delete itself, which treats
   * "not found" as done and throws the platform's in-use refusal (`FAILED_PRECONDITION`) as is;
   * undefined when the record is already gone.
   */
  deletion(id: string, props: Props | undefined): Promise<{ name: string; remove(): Promise<void> } | undefined>;
}

export abstract class NamedRecordProvider<I extends { name: string }, O extends object, R extends { id: string; name: string }> extends RecordProvider<
  I,
  O,
  R,
  NamedRecordPort<I, R>
> {
  constructor(
    source: SessionSource,
    model: ResourceModel,
    ports: PerPath<(session: PlatformSession) => NamedRecordPort<I, R>>,
    words: KindWords,
    private readonly inUse: InUseOptions = {},
  ) {
    super(source, model, ports, words);
  }

  /** After an update was applied; `olds` the stored outputs, `news` the checked inputs. */
  protected updated(_id: string, _olds: Props, _news: Props): void {}

  /** Who still uses record `id` ("endpoints a (x), b (y)"), or "" — for the in-use error. */
  protected abstract users(id: string): Promise<string>;

  protected override pathReplaces(): readonly string[] {
    return this.port.replaces ?? [];
  }

  protected find(id: string): Promise<R | undefined> {
    return this.port.listing.find(id);
  }

  async create(news: Props): Promise<dynamic.CreateResult<O>> {
    const inputs = this.checked(news, "create");
    const port = this.port;
    const record = await withoutSecrets(this.secretsOf(news), () =>
      createOnceByName(port.listing, { name: inputs.name, autonamed: news[AUTONAMED_PROPERTY] === true, what: `${this.words.noun} "${inputs.name}"` }, () =>
        port.create(inputs),
      ),
    );
    return { id: record.id, outs: this.outputs(record, news) };
  }

  async update(id: string, olds: Props, news: Props): Promise<dynamic.UpdateResult<O>> {
    const inputs = this.checked(news, "update");
    const port = this.port;
    const record = await this.writing(
      id,
      this.secretsOf(news, olds),
      () => port.update(id, inputs, olds),
      (changed) => port.listing.changed(changed),
    );
    this.updated(id, olds, news);
    return { outs: this.outputs(record, news) };
  }

  async delete(id: string, props?: Props): Promise<void> {
    const port = this.port;
    await withoutSecrets(this.secretsOf(props), async () => {
      const deletion = await port.deletion(id, props);
      if (!deletion) return;
      port.listing.changed(id);
      const noun = this.words.noun.charAt(0).toUpperCase() + this.words.noun.slice(1);
      await deleteWhenReleased(`${noun} "${deletion.name}" (${id})`, deletion.remove, () => this.users(id), this.inUse);
    });
  }
}
