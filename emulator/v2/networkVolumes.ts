/**
 * REST v2 network volumes (docs/spec/rest-v2-openapi.json, tag Network Volumes): listNetworkVolumes,
 * getNetworkVolume, createNetworkVolume, updateNetworkVolume (PATCH), deleteNetworkVolume. The rules are the
 * document's: `name` 1+ characters and not unique, `size` an integer number of GB from 10 to 4096 that may only
 * grow, `dataCenter` and `type` fixed at creation; an omitted `type` is the data center's primary tier (the first
 * of its catalog `networkVolumeTypes`), and a tier the data center does not offer is refused. A delete is refused
 * (400) while something mounts the volume, naming what (volumeUsers.ts). Every change is metered (billing.ts).
 */
import { z } from "zod";
import type { Core } from "../core";
import { VOLUME_TYPES } from "../facts";
import { randomId } from "../ids";
import type { NetworkVolume } from "../records";
import type { NetworkVolumeRow, Store } from "../store";
import type { SeedNetworkVolume } from "../seed";
import { refused, v2Problem } from "./problems";
import { parseBody } from "./schemas";
import { volumeUsers } from "./volumeUsers";

const size = z.number().int().min(10).max(4096);

/** CreateNetworkVolumeRequest. */
const createSchema = z.object({ name: z.string().min(1), size, dataCenter: z.string().min(1), type: z.enum(VOLUME_TYPES).optional() }).strict();

/** UpdateNetworkVolumeRequest: "At least one field must be present; an empty body is rejected." */
const updateSchema = z
  .object({ name: z.string().min(1).optional(), size: size.optional() })
  .strict()
  .refine((b) => Object.keys(b).length > 0, { message: "at least one of name, size is required" });

/** Copy seeded volumes into the store once; from then on they are ordinary state (deleting one is final). */
export function applyNetworkVolumeSeed(store: Store, seeded: SeedNetworkVolume[]): void {
  for (const v of seeded) {
    const key = `networkVolume:${v.id}`;
    if (store.isSeeded(key)) continue;
    if (!store.getNetworkVolume(v.id)) store.putNetworkVolume({ ...v, createdAt: Date.now() });
    store.markSeeded(key);
  }
}

const shown = ({ id, name, size, dataCenter, type }: NetworkVolumeRow): NetworkVolume => ({ id, name, size, dataCenter, type });

export class NetworkVolumesV2 {
  constructor(private core: Core) {}

  private owned(userId: string, id: string): NetworkVolumeRow {
    const row = this.core.store.getNetworkVolume(id);
    if (!row || row.userId !== userId) throw v2Problem(404, `Network volume "${id}" not found.`);
    return row;
  }

  list(userId: string) {
    return { networkVolumes: this.core.store.listNetworkVolumes(userId).map(shown) };
  }

  get(userId: string, id: string): NetworkVolume {
    return shown(this.owned(userId, id));
  }

  create(userId: string, raw: unknown): NetworkVolume {
    const body = parseBody(createSchema, raw);
    const dc = this.core.catalog.dataCenter(body.dataCenter);
    if (!dc) {
      const known = this.core.catalog.dataCenters().map((d) => d.id);
      throw refused(`dataCenter: data center "${body.dataCenter}" not found; known: ${known.join(", ")}.`);
    }
    const offered = dc.networkVolumeTypes;
    const type = body.type ?? offered[0];
    if (type === undefined || !offered.includes(type)) {
      throw refused(`type: data center ${dc.id} offers ${offered.length > 0 ? offered.join(", ") : "no network volume tiers"}; got ${type ?? "none"}.`);
    }
    const row: NetworkVolumeRow = { id: randomId(10), userId, name: body.name, size: body.size, dataCenter: dc.id, type, createdAt: Date.now() };
    this.core.store.putNetworkVolume(row);
    this.core.billing.volumeChanged(userId, row.id, type, row.size);
    return shown(row);
  }

  /** PATCH: only the fields present change; `size` may only grow ("attempts to reduce size will be rejected", 400). */
  update(userId: string, id: string, raw: unknown): NetworkVolume {
    const existing = this.owned(userId, id);
    const body = parseBody(updateSchema, raw);
    if (body.size !== undefined && body.size < existing.size) {
      throw refused(`size: network volume storage cannot be reduced; the volume has ${existing.size} GB, got ${body.size}.`);
    }
    const row: NetworkVolumeRow = { ...existing, name: body.name ?? existing.name, size: body.size ?? existing.size };
    this.core.store.putNetworkVolume(row);
    if (row.size !== existing.size) this.core.billing.volumeChanged(userId, id, row.type, row.size);
    return shown(row);
  }

  /** 400 while something mounts the volume, naming what. */
  delete(userId: string, id: string): void {
    const row = this.owned(userId, id);
    const users = volumeUsers(this.core, userId, id);
    if (users.length > 0) throw refused(`Network volume "${id}" is mounted by ${users.join(", ")}; detach it first.`);
    this.core.store.deleteNetworkVolume(id);
    this.core.billing.volumeChanged(userId, id, row.type, undefined);
  }
}
