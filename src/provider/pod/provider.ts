/**
 * The `Pod` dynamic provider (docs/pod.md) on a {@link KindSession}: the shared skeleton of named kinds
 * (namedRecordProvider.ts: create settlement by name over the session's pod listing, which the reads share; gone
 * counts as deleted) over the pod's port, which speaks REST v2 whatever `runpod:api` says (paths/index.ts). `check`
 * adds the pod's cross-field rules and the catalog review with its cost estimate (review.ts). Env values are
 * secrets: removed from every error.
 */
import type { InUseOptions } from "../inUse";
import { checkFields, type InputFailure } from "../model/check";
import { inputsFromOutputs, outputsFromRecord } from "../model/state";
import { NamedRecordProvider } from "../namedRecordProvider";
import type { PodState, RegistryAuthState } from "../paths/records";
import type { KindSession } from "../kindSession";
import { isUnknown } from "../unknown";
import { INJECTED_SSH_KEY, POD_MODEL, type PodInputs, type PodOutputs } from "./model";
import { reviewPod } from "./review";

type Props = Record<string, unknown>;

export type PodProviderOptions = InUseOptions;

const known = (v: unknown) => v !== undefined && v !== null && !isUnknown(v);
const isPowerOfTwo = (n: number) => Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0;
function withoutKey(map: Readonly<Record<string, string>>, key: string): Record<string, string> {
  const rest = { ...map };
  delete rest[key];
  return rest;
}

export class PodProvider extends NamedRecordProvider<PodInputs, PodOutputs, PodState> {
  constructor(session: KindSession, options: PodProviderOptions = {}) {
    super(session, POD_MODEL, { noun: "pod" }, options);
  }

  protected override readonly estimates = ["costPerHour"];

  protected override readonly mounts = { label: "pod", fields: ["networkVolumeId"] };

  /** The catalog review and the cost estimate (review.ts), written into the checked inputs. */
  protected override review(olds: Props | undefined, inputs: Props, failures: InputFailure[], key?: string): Promise<void> {
    return reviewPod(this.session, olds, inputs, failures, key);
  }

  /**
   * The model's rules, and the document's cross-field rules at preview: exactly one of `gpuTypeIds` /
   * `cpuFlavorId`; `vcpuCount` (a power of two) with a CPU flavor only; one mount kind, none persistent on a
   * CPU pod; an image unless a template gives it; no `PUBLIC_KEY` in env while `startSsh` injects it.
   */
  protected override validate(news: Props): { inputs: Props; failures: InputFailure[] } {
    const r = checkFields(POD_MODEL, news);
    const i = r.inputs;
    const fail = (property: string, reason: string) => r.failures.push({ property, reason });
    const gpu = known(i.gpuTypeIds);
    const cpu = known(i.cpuFlavorId);
    if (gpu && cpu) fail("cpuFlavorId", "set one of gpuTypeIds (a GPU pod) or cpuFlavorId (a CPU pod), not both");
    if (!gpu && !cpu && i.gpuTypeIds === undefined && i.cpuFlavorId === null) {
      fail("gpuTypeIds", 'a pod needs gpuTypeIds (GPU type ids in order of preference, e.g. ["NVIDIA GeForce RTX 4090"]) or cpuFlavorId with vcpuCount');
    }
    if (cpu && i.vcpuCount === null) fail("vcpuCount", "vcpuCount is required with cpuFlavorId: a power of two within the flavor's range, e.g. 4");
    if (!cpu && known(i.vcpuCount) && !isUnknown(i.cpuFlavorId))
      fail("vcpuCount", "vcpuCount applies to CPU pods only: set cpuFlavorId too, or leave vcpuCount unset");
    if (typeof i.vcpuCount === "number" && !isPowerOfTwo(i.vcpuCount)) fail("vcpuCount", `vcpuCount must be a power of two (2, 4, 8, …); got ${i.vcpuCount}`);
    if (cpu && typeof i.gpuCount === "number" && i.gpuCount !== 1) fail("gpuCount", "gpuCount applies to GPU pods only: leave it unset with cpuFlavorId");
    const volume = typeof i.volumeInGb === "number" && i.volumeInGb > 0;
    if (volume && known(i.networkVolumeId)) fail("volumeInGb", "set one of volumeInGb (a volume on the pod's host) or networkVolumeId, not both");
    if (volume && cpu) fail("volumeInGb", "CPU pods take no volumeInGb (container disk and network volumes only); use networkVolumeId");
    if (i.imageName === undefined && i.templateId === null) fail("imageName", "imageName is required unless templateId gives the image");
    const env = i.env;
    if (i.startSsh === true && env && typeof env === "object" && !isUnknown(env) && INJECTED_SSH_KEY in env) {
      fail("env", `env must not set ${INJECTED_SSH_KEY} while startSsh is true: the platform injects it; unset one`);
    }
    return r;
  }

  /** New or changed references must exist: registry credentials and the network volume (fails at preview otherwise). */
  protected override async checkReferences(olds: Props | undefined, inputs: Props, failures: InputFailure[]): Promise<void> {
    const bad = (f: string) => failures.some((x) => x.property === f);
    const auth = inputs.containerRegistryAuthId;
    if (typeof auth === "string" && !isUnknown(auth) && !bad("containerRegistryAuthId") && olds?.containerRegistryAuthId !== auth) {
      const auths = await this.session.listing<RegistryAuthState>("registryAuth").list();
      if (!auths.some((a) => a.id === auth)) {
        const yours = auths.map((a) => `${a.id} (${a.name})`).join(", ") || "none";
        failures.push({
          property: "containerRegistryAuthId",
          reason: `containerRegistryAuthId "${auth}" is not one of your registry credentials; yours: ${yours}`,
        });
      }
    }
    const volume = inputs.networkVolumeId;
    if (typeof volume === "string" && !isUnknown(volume) && !bad("networkVolumeId") && olds?.networkVolumeId !== volume) {
      const volumes = await this.session.networkVolumes();
      if (!volumes.some((v) => v.id === volume)) {
        const yours = volumes.map((v) => `${v.id} (${v.name}, ${v.dataCenter})`).join(", ") || "none";
        failures.push({ property: "networkVolumeId", reason: `networkVolumeId "${volume}" is not one of your network volumes; yours: ${yours}` });
      }
    }
  }

  /**
   * Outputs of `record`; what the platform does not report (`templateId`, `gpuTypeIds`, `dataCenterIds`,
   * `startSsh`) is carried from `carried` (inputs or stored outputs), or derived from the record on import.
   * The `PUBLIC_KEY` that `startSsh` injects is left out of `env`, so it shows no drift.
   */
  protected outputs(record: PodState, carried: Partial<PodOutputs> | undefined): PodOutputs {
    const recorded = outputsFromRecord(POD_MODEL, record, undefined, carried);
    const startSsh = carried?.startSsh === true;
    const declared = carried?.env;
    return {
      ...recorded,
      templateId: carried?.templateId ?? null,
      gpuTypeIds: carried?.gpuTypeIds ?? (record.gpuTypeId ? [record.gpuTypeId] : null),
      dataCenterIds: carried?.dataCenterIds ?? [],
      startSsh,
      env: startSsh && !(declared && INJECTED_SSH_KEY in declared) ? withoutKey(record.env, INJECTED_SSH_KEY) : recorded.env,
      status: record.status,
      costPerHour: record.costPerHour,
      gpuTypeId: record.gpuTypeId,
      dataCenterId: record.dataCenterId,
      sshCommand: record.sshCommand,
      sshDirectCommand: record.sshDirectCommand,
    };
  }

  protected inputsOf(outs: PodOutputs): Partial<PodInputs> {
    const inputs = inputsFromOutputs(POD_MODEL, outs);
    if (inputs.gpuTypeIds === null) delete inputs.gpuTypeIds;
    // Without a template the image is the pod's own input (check requires it), not a template's default.
    if (!outs.templateId && outs.imageName) inputs.imageName = outs.imageName;
    return inputs;
  }
}
