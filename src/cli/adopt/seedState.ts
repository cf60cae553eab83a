/**
 * The dynamic path's state edit (as `pulumi-runpod import` makes it, src/cli/commands/import.ts): each
 * adopted object joins the checkpoint under the URN the written program gives it, with its id, the
 * serialized provider of its kind, and what the platform does not report (plan.ts `carried`); a
 * targeted `pulumi refresh` then reads each one in.
 */
import { randomUUID } from "node:crypto";
import { providerStub, secretOutputNames, typeToken } from "../../provider";
import { RESOURCE_KINDS } from "../../provider/kinds";
import { NODEJS_PROVIDER_TYPE, SECRET_SIG_KEY, SECRET_SIG_VALUE, STACK_TYPE, resourcesOf, type Checkpoint, type StateResource } from "../stack/checkpoint";
import { isUnsetValue } from "../../provider/model/state";
import { MODEL_OF, type AdoptedObject } from "./plan";

/** `value` as a secret of an exported state; `stack import` encrypts the plaintext. */
export const secretOf = (value: unknown) => ({ [SECRET_SIG_KEY]: SECRET_SIG_VALUE, plaintext: JSON.stringify(value) });

/** The serialized stub of each kind, as a program's `pulumi.dynamic.Resource` writes it. */
async function serializedProvider(kind: keyof typeof RESOURCE_KINDS): Promise<string> {
  const stub = providerStub(kind);
  // Loaded here, not at the top: the SDK costs every other `pulumi-runpod` command half a second of start-up.
  const pulumi = await import("@pulumi/pulumi");
  return (await pulumi.runtime.serializeFunction(() => stub, { allowSecrets: false })).text;
}

export interface SeedTarget {
  stack: string;
  project: string;
  /** The stack's configuration as the engine hands it to the default `pulumi-nodejs` provider (secret keys marked). */
  providerInputs: Record<string, unknown>;
}

/** The URN `name` of `object`'s kind gets in a program's stack (no parent). */
export const urnOf = (t: SeedTarget, object: AdoptedObject) =>
  `urn:pulumi:${t.stack}::${t.project}::${typeToken(MODEL_OF[object.kind])}::${object.resourceName}`;

/** `original` with the adopted objects added (and the stack and default provider when it has none). */
export async function seededCheckpoint(original: Checkpoint, objects: readonly AdoptedObject[], target: SeedTarget): Promise<Checkpoint> {
  const checkpoint = structuredClone(original);
  const resources = (checkpoint.deployment.resources ??= []);
  const stackUrn = `urn:pulumi:${target.stack}::${target.project}::${STACK_TYPE}::${target.project}-${target.stack}`;
  if (!resources.some((r) => r.type === STACK_TYPE)) resources.unshift({ urn: stackUrn, custom: false, type: STACK_TYPE });
  const providerUrn = `urn:pulumi:${target.stack}::${target.project}::${NODEJS_PROVIDER_TYPE}::default`;
  let provider = resourcesOf(checkpoint).find((r) => r.urn === providerUrn && !r.delete);
  if (!provider) {
    provider = { urn: providerUrn, custom: true, id: randomUUID(), type: NODEJS_PROVIDER_TYPE, inputs: target.providerInputs, outputs: target.providerInputs };
    resources.splice(resources.findIndex((r) => r.type === STACK_TYPE) + 1, 0, provider);
  }
  const parent = resources.find((r) => r.type === STACK_TYPE)!.urn;
  for (const o of objects) {
    const serialized = await serializedProvider(MODEL_OF[o.kind].kind as keyof typeof RESOURCE_KINDS);
    const carried = Object.fromEntries(Object.entries(o.carried).map(([k, v]) => [k, o.carriedSecrets.includes(k) ? secretOf(v) : v]));
    const props = { __provider: serialized, ...carried };
    const adopted: StateResource = {
      urn: urnOf(target, o),
      custom: true,
      id: o.id,
      type: typeToken(MODEL_OF[o.kind]),
      inputs: props,
      outputs: props,
      parent,
      provider: `${provider.urn}::${provider.id}`,
    };
    resources.push(adopted);
  }
  return checkpoint;
}

const isSecretValue = (v: unknown) => typeof v === "object" && v !== null && SECRET_SIG_KEY in v;

/**
 * Marks each adopted resource's secret fields (the model's secret inputs and outputs, e.g. env, releasedContainer) as secrets in
 * `checkpoint`, in place: a refresh outside the program (the dynamic path) records outputs without the
 * resource's `additionalSecretOutputs`, which the state then keeps for later refreshes.
 * @returns whether anything changed.
 */
export function sealSecrets(checkpoint: Checkpoint, objects: readonly AdoptedObject[], typeOf: (o: AdoptedObject) => string): boolean {
  let changed = false;
  for (const o of objects) {
    const r = resourcesOf(checkpoint).find((x) => x.id === o.id && x.type === typeOf(o) && !x.delete);
    if (!r) continue;
    const fields: string[] = secretOutputNames(MODEL_OF[o.kind]);
    for (const props of [r.inputs, r.outputs]) {
      for (const f of fields) {
        // An empty input is none the program declares (adopt writes no secret config for it): the check of the program leaves it plain.
        const empty = props === r.inputs && isUnsetValue(props?.[f]);
        if (props && props[f] !== undefined && props[f] !== null && !empty && !isSecretValue(props[f])) {
          props[f] = secretOf(props[f]);
          changed = true;
        }
      }
    }
    const declared = new Set([...((r.additionalSecretOutputs as string[] | undefined) ?? []), ...fields]);
    if (fields.length > 0 && (r.additionalSecretOutputs as string[] | undefined)?.length !== declared.size) {
      r.additionalSecretOutputs = [...declared];
      changed = true;
    }
  }
  return changed;
}
