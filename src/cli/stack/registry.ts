/**
 * The resource kinds the stack commands handle: one {@link StackKind} per kind of the provider's list
 * (provider/kinds.ts), built from its descriptor. The commands ask the kind's listing and port on a
 * session of the stack's API path, so they delete exactly as a destroy does and never pick a path.
 * Orphans are removed so that a kind comes before the kinds it uses (`usesOf`: endpoints before
 * the templates they use, templates before the registry credentials they pull with, network volumes after
 * the endpoints and pods that mount them); otherwise in the list's order.
 */
import type { PlatformClient } from "../../api";
import { tokenOf } from "../../plugin/tokens";
import { isAutoNameOf, KINDS, typeToken, type AnyKind } from "../../provider";
import type { ApiPath } from "../../provider/apiPath";
import type { InUseOptions } from "../../provider/inUse";
import { PlatformSession } from "../../provider/session";
import type { PlatformObject, StackKind } from "./stackKind";

type Props = Record<string, unknown>;

/** A listed object of a kind that compares or deletes by its record. */
interface RecordObject extends PlatformObject {
  record: { id: string; name: string };
  /** The fields the stack's path leaves out of records (its port's capabilities). */
  unreported?: readonly string[];
}

/** `kind`'s listing and port on a session of the stack's path, over the command's client. */
const sessionOf = (client: PlatformClient, api: ApiPath) => new PlatformSession(() => client, { api });

function stackKindOf(kind: AnyKind): StackKind {
  const facts = kind.stack;
  const keepsRecords = facts.madeBy !== undefined || facts.deleteProps !== undefined;
  return {
    type: typeToken(kind.model),
    noun: facts.noun,

    async list(client, api) {
      const session = sessionOf(client, api);
      const records = await session.listing<{ id: string; name: string }>(kind.kind).list();
      const unreported = keepsRecords ? session.port(kind.kind).capabilities.unreported : [];
      return records.map((record) => ({
        id: record.id,
        name: record.name,
        summary: facts.summary(record),
        ...(keepsRecords ? { record, unreported } : {}),
      }));
    },

    madeBy(object, inputs) {
      if (object.name !== inputs.name) return false;
      const { record, unreported } = object as RecordObject;
      return !facts.madeBy || !record || facts.madeBy(record, inputs, unreported ?? []);
    },

    nameIn: (props) => (typeof props?.name === "string" ? props.name : undefined),
    isAutoNameOf,

    /** Through the path's port, as a destroy would (an endpoint: scaled to zero, running jobs let finish; with `inUse`, refusals retried); gone counts as deleted. */
    async remove(client, object, api, inUse?: InUseOptions) {
      const { record } = object as RecordObject;
      const props: Props = record && facts.deleteProps ? facts.deleteProps(record) : { name: object.name };
      await sessionOf(client, api).port(kind.kind, inUse).delete(object.id, props);
    },
  };
}

/** `kinds` ordered so that each comes before every kind it uses (its descriptor's `usesOf`). */
function removalOrder(kinds: readonly AnyKind[]): AnyKind[] {
  const left = [...kinds];
  const out: AnyKind[] = [];
  while (left.length > 0) {
    const i = left.findIndex((k) => !left.some((other) => other !== k && other.usesOf?.[k.kind] !== undefined));
    out.push(...left.splice(i < 0 ? 0 : i, 1));
  }
  return out;
}

export const STACK_KINDS: readonly StackKind[] = removalOrder(KINDS).map(stackKindOf);

const BY_KIND = new Map<string, StackKind>(KINDS.map((k) => [k.kind, STACK_KINDS.find((s) => s.type === typeToken(k.model))!]));

/** Each kind's provider-plugin token (`runpod:index:Endpoint`) → its dynamic-provider token, which keys the kinds. */
const DYNAMIC_OF_PLUGIN = new Map<string, string>(KINDS.map((k) => [tokenOf(k.model), typeToken(k.model)]));

/** Whether `type` is a provider-plugin token of this package (a resource of `pulumi-resource-runpod`). */
export function isPluginType(type: string): boolean {
  return DYNAMIC_OF_PLUGIN.has(type);
}

/**
 * The type the stack commands key a resource by: the same for both ways of serving a kind, so a
 * plugin resource (`runpod:index:Endpoint`) counts as the dynamic one (`pulumi-nodejs:dynamic/runpod:Endpoint`).
 */
export function canonicalType(type: string): string {
  return DYNAMIC_OF_PLUGIN.get(type) ?? type;
}

/** The kind whose type token (dynamic provider or plugin) is `type`, if this package manages it. */
export function kindOf(type: string): StackKind | undefined {
  const canonical = canonicalType(type);
  return STACK_KINDS.find((k) => k.type === canonical);
}

/** Whether `type` is of the provider's kind `kind` (e.g. `"endpoint"`), served either way (`cost`, the after-deploy commands). */
export function isKindType(type: string | undefined, kind: string): boolean {
  return type !== undefined && kindOf(type) === BY_KIND.get(kind);
}

/** Whether `type` is an Endpoint's, served either way (`cost`, and the after-deploy commands' resource names). */
export function isEndpointType(type: string | undefined): boolean {
  return isKindType(type, "endpoint");
}

/** Whether `type` is a Pod's, served either way (`cost`). */
export function isPodType(type: string | undefined): boolean {
  return isKindType(type, "pod");
}

/** Whether `type` is a NetworkVolume's, served either way (`cost`). */
export function isNetworkVolumeType(type: string | undefined): boolean {
  return isKindType(type, "networkVolume");
}
