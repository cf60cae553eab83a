/**
 * The `NetworkVolume` dynamic provider (docs/networkVolume.md) on a {@link KindSession}: the shared
 * skeleton of named kinds (namedRecordProvider.ts) over the REST v2 port, which every `runpod:api` uses
 * (paths/index.ts). `name` and a larger `size` change in place; a smaller `size` fails at preview naming the
 * current size (the platform cannot shrink storage). Preview checks the data center and tier against the
 * catalog's data centers and writes the monthly storage cost (cost.ts) into the checked inputs. A delete refused while an
 * endpoint or pod mounts the volume is retried within a deadline, then fails naming them.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { DataCenter } from "../catalog/catalog";
import { messageOf } from "../errorKinds";
import type { InUseOptions } from "../inUse";
import type { InputFailure } from "../model/check";
import { inputsFromOutputs, outputsFromRecord } from "../model/state";
import { NamedRecordProvider } from "../namedRecordProvider";
import type { NetworkVolumeState } from "../paths/records";
import type { KindSession } from "../kindSession";
import { containsUnknown, UNKNOWN } from "../unknown";
import { monthlyStorageCost } from "./cost";
import { NETWORK_VOLUME_MODEL, VOLUME_TYPES, type NetworkVolumeInputs, type NetworkVolumeOutputs, type VolumeTypeName } from "./model";

type Props = Record<string, unknown>;

export type NetworkVolumeProviderOptions = InUseOptions;

/** Inputs the cost and the catalog review depend on. */
const COSTED = ["size", "dataCenterId", "type"] as const;

const isTier = (v: unknown): v is VolumeTypeName => (VOLUME_TYPES as readonly unknown[]).includes(v);

/** The failure of a smaller `size` than `current`, or undefined. */
function shrinkFailure(current: unknown, wanted: unknown): string | undefined {
  if (typeof current !== "number" || typeof wanted !== "number" || wanted >= current) return undefined;
  return `size cannot shrink: the volume has ${current} GB and the platform cannot reduce network volume storage; got ${wanted}. Keep size at ${current} GB or more, or replace the volume (a new, empty one: change dataCenterId or type, or delete and recreate it)`;
}

export class NetworkVolumeProvider extends NamedRecordProvider<NetworkVolumeInputs, NetworkVolumeOutputs, NetworkVolumeState> {
  constructor(session: KindSession, options: NetworkVolumeProviderOptions = {}) {
    super(session, NETWORK_VOLUME_MODEL, { noun: "network volume" }, options);
  }

  protected override readonly estimates = ["monthlyCost"];

  /**
   * A shrink is refused before any request. Check refuses it at preview; diff must not, since the engine
   * diffs a refresh's outputs against the stored inputs, and a volume grown outside Pulumi would fail the refresh.
   */
  override async update(id: string, olds: Props, news: Props): Promise<dynamic.UpdateResult<NetworkVolumeOutputs>> {
    const shrink = shrinkFailure(olds?.size, news?.size);
    if (shrink) throw new Error(`NetworkVolume ${String(olds?.name ?? id)} (${id}): ${shrink}`);
    return super.update(id, olds, news);
  }

  /**
   * A shrink against the previous inputs; then the data center and tier checked against the catalog's data
   * centers (which tiers each offers; unset `type` is its primary tier), and `monthlyCost`. No catalog read when nothing it judges changed. `listDataCenters`
   * alone holds all of it: the session's catalog reads (catalog/queries.ts) read it once per process, shared
   * with the endpoints' catalog.
   */
  protected override async review(olds: Props | undefined, inputs: Props, failures: InputFailure[]): Promise<void> {
    const shrink = shrinkFailure(olds?.size, inputs.size);
    if (shrink) failures.push({ property: "size", reason: shrink });
    if (failures.length > 0) return;
    if (COSTED.some((f) => containsUnknown(inputs[f]))) {
      inputs.monthlyCost = UNKNOWN;
      return;
    }
    const size = inputs.size as number;
    if (olds !== undefined && typeof olds.monthlyCost === "number" && COSTED.every((f) => olds[f] === inputs[f])) {
      inputs.monthlyCost = olds.monthlyCost;
      return;
    }
    let dataCenters: DataCenter[];
    try {
      dataCenters = await this.session.catalogSource.listDataCenters();
    } catch (err) {
      inputs.monthlyCost = isTier(inputs.type) ? monthlyStorageCost(size, inputs.type) : null;
      this.session.warn(`network volume ${String(inputs.name)}: the platform's catalog could not be read (${messageOf(err)}); its data center was not checked`);
      return;
    }
    const dcId = String(inputs.dataCenterId);
    const dc = dataCenters.find((d) => d.id === dcId);
    if (!dc) {
      failures.push({
        property: "dataCenterId",
        reason: `dataCenterId "${dcId}" is not a data center of the catalog; known: ${dataCenters.map((d) => d.id).join(", ")}`,
      });
      return;
    }
    const offered = dc.networkVolumeTypes;
    const tier = isTier(inputs.type) ? inputs.type : offered[0];
    if (!tier || !offered.includes(tier)) {
      const what = offered.length > 0 ? `offers ${offered.join(", ")}` : "offers no network volumes";
      failures.push({ property: isTier(inputs.type) ? "type" : "dataCenterId", reason: `data center ${dcId} ${what}; got ${tier ?? "its primary tier"}` });
      return;
    }
    inputs.monthlyCost = monthlyStorageCost(size, tier);
  }

  protected outputs(record: NetworkVolumeState, _carried: Props | undefined): NetworkVolumeOutputs {
    return {
      ...outputsFromRecord(NETWORK_VOLUME_MODEL, record, undefined),
      networkVolumeId: record.id,
      monthlyCost: isTier(record.type) ? monthlyStorageCost(record.size, record.type) : null,
    };
  }

  protected inputsOf(outs: NetworkVolumeOutputs): Partial<NetworkVolumeInputs> {
    return inputsFromOutputs(NETWORK_VOLUME_MODEL, outs);
  }
}
