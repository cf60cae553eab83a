/**
 * The records every path hands the providers: what the platform reports of a resource, in the model's
 * field names and value shapes (lists as arrays, env as a map). A path maps its own answers onto these
 * (`<kind>/paths/<path>.ts`), so nothing above the ports sees a path's shapes.
 */
import type { EndpointType, FlashbootMode, TemplateCategoryName } from "../../api/spec";
import type { ENDPOINT_MODEL } from "../endpoint/model";
import type { RecordOf } from "../model/fields";

/**
 * An endpoint: every input of its model as the model types it (model/fields.ts `RecordOf`), and below
 * what the record holds otherwise; a field in its port's `unreported` may be absent (REST v2 keeps no
 * `templateId`: a snapshot).
 */
export interface EndpointState extends Omit<RecordOf<(typeof ENDPOINT_MODEL)["fields"]>, keyof EndpointOwn>, EndpointOwn {}

/** What an endpoint record holds besides, or narrower than, its model's inputs. */
interface EndpointOwn {
  id: string;
  name: string;
  templateId?: string;
  gpuIds: string[];
  type: EndpointType;
  locations: string[];
  flashboot: FlashbootMode;
  workersMin: number;
  workersMax: number;
  /** Two or more volumes (one is `networkVolumeId`). */
  networkVolumeIds?: string[];
  allowedCudaVersions: string[];
  /** REST v2 only (GraphQL reports none: the model's default). */
  excludedGpuTypes?: string[];
  dataCenterIds?: string[];
  /** Warm workers kept on standby (not managed; GraphQL reports it). */
  workersStandby?: number | null;
  /** CPU flavors (REST v2 `cpu`; empty for GPU endpoints and on GraphQL). */
  cpuFlavorIds?: string[];
  /** The endpoint's own ports and env (REST v2; GraphQL reports none); its other container inputs are the model's. */
  ports?: string[];
  env?: Record<string, string>;
  /** Where to send requests, as the platform gives them for the endpoint's type (REST v2 `requestUrls`). */
  requestUrls?: Record<string, string> | null;
  /**
   * The release last followed to health and its container (JSON text), where the path tracks releases
   * (REST v2): set by a create (`null` version: the release the create made) and by a rollout followed to health.
   */
  releaseVersion?: number | null;
  releasedContainer?: string | null;
  /**
   * The container the endpoint runs, where its path copies templates into endpoints (REST v2): compared
   * with its template's current settings in memory, never mapped to outputs (env values are secrets).
   */
  container?: ContainerSettings;
}

/** A container's settings in the Template model's terms: what a v2 endpoint copies from its template. */
export type ContainerSettings = Pick<TemplateState, "imageName" | "dockerArgs" | "containerDiskInGb" | "ports" | "env" | "containerRegistryAuthId">;

/** A template; `category`, `startJupyter` are REST v2's (GraphQL reports none: the model's defaults). */
export interface TemplateState {
  id: string;
  name: string;
  imageName: string;
  dockerArgs?: string | null;
  containerDiskInGb?: number | null;
  volumeInGb?: number | null;
  volumeMountPath?: string | null;
  ports: string[];
  env: Record<string, string>;
  isServerless: boolean;
  containerRegistryAuthId?: string | null;
  readme?: string | null;
  category?: TemplateCategoryName;
  startSsh?: boolean;
  startJupyter?: boolean;
  /** Visible to other users (REST v2 `public`; GraphQL reports none). */
  isPublic?: boolean;
}

/** A network volume (REST v2 on every path); `size` in GB. */
export interface NetworkVolumeState {
  id: string;
  name: string;
  size: number;
  dataCenterId: string;
  type: "STANDARD" | "HIGH_PERFORMANCE";
}

/** Registry credentials: the platform reports only the id and the name. */
export interface RegistryAuthState {
  id: string;
  name: string;
}

/** A pod (REST v2 only); `status`, `costPerHour`, the placement and SSH are what the platform reports of it. */
export interface PodState {
  id: string;
  name: string;
  imageName: string;
  dockerArgs: string;
  containerDiskInGb: number;
  ports: string[];
  env: Record<string, string>;
  containerRegistryAuthId: string | null;
  volumeInGb: number;
  volumeMountPath: string | null;
  networkVolumeId: string | null;
  gpuCount: number;
  cpuFlavorId: string | null;
  vcpuCount: number | null;
  cloudType: "SECURE" | "COMMUNITY";
  /** RUNNING while it runs or is on its way (PROVISIONING, STARTING); EXITED when stopped or failed. */
  desiredStatus: "RUNNING" | "EXITED";
  status: "PROVISIONING" | "STARTING" | "RUNNING" | "EXITED" | "ERROR" | "TERMINATED";
  costPerHour: number;
  gpuTypeId: string | null;
  dataCenterId: string | null;
  sshCommand: string | null;
  sshDirectCommand: string | null;
}
