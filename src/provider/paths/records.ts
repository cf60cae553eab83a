/**
 * The records every path hands the providers: what the platform reports of a resource, in the model's
 * field names (model/state.ts reads lists as arrays or in the GraphQL comma-separated form). A path
 * maps its own answers onto these, so the providers above the ports never see a path's shapes.
 */
import type { FlashbootMode, TemplateCategoryName } from "../../api/spec";
import type { EndpointRecord, RegistryAuthRecord, TemplateRecord } from "../../api";

/** An endpoint; `templateId` is absent on a path that keeps no link to the template (REST v2: a snapshot). */
export type EndpointState = Omit<EndpointRecord, "templateId" | "idleTimeout"> & {
  templateId?: string;
  idleTimeout?: number | null;
  /** REST v2 only (GraphQL reports none: the model's default). */
  excludedGpuTypes?: string[];
  /** REST v2's mode; absent on GraphQL, where `fastBootType` spells it (no priority mode). */
  flashboot?: FlashbootMode;
  dataCenterIds?: string[];
  minCudaVersion?: string | null;
  /** Two or more volumes (one is `networkVolumeId`). */
  networkVolumeIds?: string[];
};
/** `category` is REST v2's (GraphQL reports none: the model's default, NVIDIA). */
export type TemplateState = TemplateRecord & { category?: TemplateCategoryName; startSsh?: boolean; startJupyter?: boolean };
export type RegistryAuthState = RegistryAuthRecord;
