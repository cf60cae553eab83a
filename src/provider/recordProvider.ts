/**
 * The skeleton every resource kind's provider shares, above its path port: the session and the port
 * the session's API path picks (apiPath.ts), `check`'s preamble (auto-naming, the model's validation,
 * secrets kept out of failures), the model's `diff`, typed checked inputs for create and update, reads
 * that drop a resource gone from the platform (an error for `get`), and updates of a resource gone
 * from the platform that say what to do. A kind adds its own steps (create settlement, deletes, waits)
 * in its provider; how a path says each step is its port's (`<kind>/paths/*.ts`).
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { PlatformClient } from "../api";
import { isNotFound } from "./errorKinds";
import { checkFields, isComplete, type InputFailure } from "./model/check";
import { diffModel, replacing } from "./model/compare";
import { inputNames, secretNames, type ResourceModel } from "./model/fields";
import { withAutoName } from "./naming";
import { checkedInputs, isCheckedInputs, refreshedInputs } from "./model/state";
import { AUTONAMED_PROPERTY, CHECKED_PROPERTY, LOOKUP_PROPERTY, NAME_PREFIX_PROPERTY } from "./reserved";
import { redactSecrets, secretValues, withoutSecrets } from "./secrets";
import { pathFailures } from "./pathSupport";
import type { KindSession } from "./kindSession";
import type { InUseOptions } from "./inUse";
import type { Port } from "./port";
import { containsUnknown } from "./unknown";
import { STACK_MEMBERS_PROPERTY, stackMembers } from "./catalog/stackMembers";
import { reviewStackMounts, takeStackVolumes } from "./stackMounts";

type Props = Record<string, unknown>;

/** How a kind names itself in messages. */
export interface KindWords {
  /** Lower case, e.g. "template", "registry credentials". */
  noun: string;
  /** The noun is plural ("registry credentials … exist"). */
  plural?: boolean;
}

export abstract class RecordProvider<I extends object, O extends object, R extends { id: string }> {
  protected readonly session: KindSession;
  private portInstance?: Port<I, R>;
  private readonly secretFields: readonly string[];

  /**
   * @param inUse given: deletes refused while something still uses the record are retried (inUse.ts).
   */
  constructor(
    session: KindSession,
    protected readonly model: ResourceModel,
    protected readonly words: KindWords,
    private readonly inUse?: InUseOptions,
  ) {
    this.session = session;
    this.secretFields = secretNames(model);
  }

  protected get client(): PlatformClient {
    return this.session.client;
  }

  /** This kind's operations on the session's path (the session picks the path), built at first use. */
  protected get port(): Port<I, R> {
    this.portInstance ??= this.session.port<I, R>(this.model.kind, this.inUse);
    return this.portInstance;
  }

  /** The secret values among `sources`' secret fields, longest first. */
  protected secretsOf(...sources: (Props | undefined)[]): string[] {
    return sources.flatMap((s) => secretValues(s, this.secretFields));
  }

  /**
   * Validates and completes inputs: an unset `name` is auto-named (naming.ts), the model's rules and
   * the kind's cross-field rules ({@link validate}), then the lookups of referenced platform objects
   * ({@link checkReferences}). The client configuration and the API path are resolved here too (no
   * request), so a missing key or a bad setting stops `pulumi preview`. Failures never quote a secret.
   */
  async check(olds: Props | undefined, news: Props): Promise<dynamic.CheckResult> {
    void this.client;
    void this.port;
    // Estimates are check's own results; inputs that carry them back (read's on import, checked inputs checked again) are not the user's.
    const given = { ...news };
    for (const f of this.estimates) delete given[f];
    this.session.ledger.expect(stackMembers(given[STACK_MEMBERS_PROPERTY]));
    delete given[STACK_MEMBERS_PROPERTY];
    const { news: handed, declared: declaredVolumes } = takeStackVolumes(given);
    const named = withAutoName(olds, handed);
    const { inputs, failures } = this.validate(named.news);
    failures.push(...pathFailures(this.model, inputs, this.session.api, named.news));
    if (named.autonamed) inputs[AUTONAMED_PROPERTY] = true;
    const secrets = this.secretsOf(news);
    await withoutSecrets(secrets, async () => {
      await this.checkReferences(olds, inputs, failures);
      const prefix = news?.[NAME_PREFIX_PROPERTY];
      const key = typeof prefix === "string" ? prefix : String(inputs.name);
      if (this.mounts) this.session.keepsMounting(`${this.mounts.label} ${key}`, ...this.mounts.fields.map((f) => inputs[f]));
      await this.review(olds, inputs, failures, key);
      if (this.mounts) await reviewStackMounts(this.session, olds, inputs, failures, declaredVolumes, `${this.mounts.label} ${key}`, this.mounts.fields);
    });
    return { inputs, failures: failures.map((f) => ({ property: f.property, reason: redactSecrets(f.reason, secrets) })) };
  }

  /**
   * The inputs holding the network volume ids a record of this kind mounts, and the word for it in messages
   * ("endpoint llm"): `check` notes them as kept in use (kindSession.ts `keepsMounting`, so a delete of such a
   * volume is refused at once) and refuses a mounted volume of the stack the program stops declaring (stackMounts.ts).
   */
  protected readonly mounts?: { label: string; fields: readonly string[] };

  /** Outputs `check` estimates (written into the checked inputs by {@link review}, so preview shows them). */
  protected readonly estimates: readonly string[] = [];

  /**
   * After the references: the kind's review of the checked `inputs` (catalog, cost; its failures appended,
   * its {@link estimates} written in). `key`: the resource's key in the stack ledger (its Pulumi name);
   * absent for a read's estimate, which the ledger leaves to the next check.
   */
  protected async review(_olds: Props | undefined, _inputs: Props, _failures: InputFailure[], _key?: string): Promise<void> {}

  /** The model's validation and defaults; a kind adds its cross-field rules. Never throws. */
  protected validate(news: Props): { inputs: Props; failures: InputFailure[] } {
    return checkFields(this.model, news);
  }

  /** Looks referenced platform objects up (a new or changed id only), adding a failure for each unknown one. */
  protected async checkReferences(_olds: Props | undefined, _inputs: Props, _failures: InputFailure[]): Promise<void> {}

  /**
   * Field-by-field diff of stored outputs against checked inputs; provider settings alone are no diff.
   * Replacement is decided here only: the model's change policies (model/compare.ts), adjusted by the
   * path's port (port.ts capabilities): what it cannot change or unset in place replaces, what it renames
   * in place does not, and only where names are unique does a replacement keeping the name delete first.
   * A kind says how its fields compare ({@link changedInputs}); its port adds what only the path sees.
   */
  async diff(id: string, olds: Props, news: Props): Promise<dynamic.DiffResult & { changed: string[] }> {
    const [o, n] = [olds ?? {}, news ?? {}];
    const modelChanged = this.changedInputs(o, n);
    const { replaces = [], replacesOnUnset = [], updatesInPlace = [], uniqueNames = false } = this.port.capabilities;
    const unsets = (f: string) => {
      const field = this.model.fields[f];
      const fallback = field && "default" in field ? field.default : undefined;
      return JSON.stringify(n[f] ?? null) === JSON.stringify(fallback ?? null);
    };
    const onPath = modelChanged.filter((f) => replaces.includes(f) || (replacesOnUnset.includes(f) && unsets(f)));
    const byModel = (replacing(this.model, modelChanged as never[], o, n) as string[]).filter((f) => !updatesInPlace.includes(f));
    const replacingFields = [...new Set([...byModel, ...onPath])];
    const changed = replacingFields.length === 0 && this.port.changesOnPath ? await this.port.changesOnPath(id, o, n, modelChanged) : modelChanged;
    const keepsName = !containsUnknown(n.name) && o.name === n.name;
    return {
      changes: changed.length > 0,
      replaces: replacingFields,
      deleteBeforeReplace: uniqueNames && replacingFields.length > 0 && keepsName,
      changed,
    };
  }

  /** The inputs that differ, compared as the model says (model/compare.ts `diffModel`); a kind with a rule of its own overrides it. */
  protected changedInputs(olds: Props, news: Props): string[] {
    return diffModel(this.model, inputNames(this.model), olds, news).changed;
  }

  /**
   * The checked inputs, typed, once none is unknown any more.
   * @throws when a value is still unknown (the engine never creates or updates with unknowns).
   */
  protected checked(news: Props, verb: "create" | "update"): I {
    if (!isCompleteInputs<I>(news)) throw new Error(`${this.model.type} inputs are not all known; cannot ${verb} the ${this.words.noun} yet`);
    return news;
  }

  /** The kind's record with `id`, or undefined when the caller has none (the port's read: the path's shared listing). */
  protected find(id: string): Promise<R | undefined> {
    return this.port.read(id);
  }
  /** Outputs of `record`; `carried` (checked inputs or stored outputs) gives what the platform does not report. */
  protected abstract outputs(record: R, carried: Props | undefined): O;
  /** Inputs equivalent to outputs (refresh, import, `get`). */
  protected abstract inputsOf(outs: O): Props;

  /** The outputs a create or update stores: `outs`, and what a refresh needs of the checked inputs `news` ({@link CHECKED_PROPERTY}). */
  protected stored(outs: O, news: Props): O {
    return { ...outs, [CHECKED_PROPERTY]: checkedInputs(this.model, news) };
  }

  /**
   * Reads the live record from the shared listing: refresh (drift shows in it and on the next
   * preview), `get`, import. One deleted outside Pulumi returns no id and leaves the stack — except for
   * `get` (props hold {@link LOOKUP_PROPERTY}), where that is an error. Inputs are returned too, valued
   * from the record: on refresh with the keys the checked inputs had and check's estimates (stored
   * outputs hold them, {@link CHECKED_PROPERTY}); else (import, adoption, older state) as `check` makes
   * them of a program declaring the record ({@link asChecked}), so the next preview shows no input
   * differences; for `get`, whose inputs nothing diffs, rebuilt from the outputs alone.
   */
  async read(id: string, props?: Props): Promise<dynamic.ReadResult<O | Props>> {
    const record = await withoutSecrets(this.secretsOf(props), () => this.find(id));
    if (!record) {
      if (props?.[LOOKUP_PROPERTY] === true) {
        const exists = this.words.plural ? "exist" : "exists";
        throw new Error(`${this.model.type}.get: no ${this.words.noun} with id "${id}" ${exists} for the configured API key`);
      }
      return {};
    }
    const outs = this.readOutputs(record, props);
    await this.port.readOutputs?.(record.id, outs as Props, props);
    const checked = props?.[CHECKED_PROPERTY];
    if (!isCheckedInputs(checked)) {
      const rebuilt = this.inputsOf(outs);
      return { id: record.id, props: outs, inputs: props?.[LOOKUP_PROPERTY] === true ? rebuilt : await this.asChecked(rebuilt) };
    }
    return { id: record.id, props: { ...outs, [CHECKED_PROPERTY]: checked }, inputs: refreshedInputs(checked, this.inputsOf(outs), outs) };
  }

  /**
   * The inputs `check` makes of a program declaring the record as `rebuilt` says it (as `adopt` writes
   * it): with the model's defaults and the kind's estimates (its review, kept out of the stack ledger).
   * Inputs the model refuses stay as they are, and a review that fails leaves the estimates out: the
   * next check names the failure.
   */
  private async asChecked(rebuilt: Props): Promise<Props> {
    const { inputs, failures } = this.validate(rebuilt);
    if (failures.length > 0) return rebuilt;
    // A value check fills in but refuses as given (an own container's "" start command) stays out: `pulumi import` checks these inputs.
    for (const f of this.validate(inputs).failures) if (!(f.property in rebuilt)) delete inputs[f.property];
    const reviewed = await withoutSecrets(this.secretsOf(inputs), () => this.review(undefined, inputs, failures)).then(
      () => failures.length === 0,
      () => false,
    );
    if (!reviewed) for (const f of this.estimates) delete inputs[f];
    return inputs;
  }

  /** Outputs of a read; by default {@link outputs} carrying from the stored outputs. */
  protected readOutputs(record: R, props: Props | undefined): O {
    return this.outputs(record, props);
  }

  /**
   * Runs a write of record `id` (an update, a follow-up of a create), turning "not found" into what to
   * do, keeping secrets out of its errors, and reporting the change to the shared listing (`changed`).
   */
  protected async writing<T>(id: string, secrets: string[], write: () => Promise<T>, changed: (id: string) => void): Promise<T> {
    return withoutSecrets(secrets, async () => {
      try {
        return await write();
      } catch (err) {
        if (isNotFound(err)) {
          const noun = this.words.noun.charAt(0).toUpperCase() + this.words.noun.slice(1);
          const [exists, it, them] = this.words.plural ? ["exist", "them", "them"] : ["exists", "it", "it"];
          throw new Error(
            `${noun} ${id} no longer ${exists} on the platform; run \`pulumi refresh\` to drop ${it} from the stack, then \`pulumi up\` to create ${them} again`,
            { cause: err },
          );
        }
        throw err;
      } finally {
        changed(id);
      }
    });
  }
}

/** True when no value of `inputs` is unknown: they are the kind's complete checked inputs. */
function isCompleteInputs<I>(inputs: Props): inputs is Props & I {
  return isComplete(inputs);
}
