/**
 * The engine floor's no-op provider (bench/programs/noop/provider.js) stores outputs shaped like the real
 * resource's: the engine rewrites the whole checkpoint after each step, so a floor that stores less per
 * resource is cheaper for the engine than the real stack for reasons that are not the provider's own cost.
 */
import * as path from "path";
import * as fs from "fs";
import { copyProgram, tempDir } from "../../scripts/exampleStack";
import { programSource } from "../../bench/stacks";
import {
  CHECKED_PROPERTY,
  ENDPOINT_MODEL,
  NAME_PREFIX_PROPERTY,
  NETWORK_VOLUME_MODEL,
  POD_MODEL,
  TEMPLATE_MODEL,
  checkedInputs,
  outputNames,
  type ResourceModel,
} from "../../src/provider";

type Op = (...args: unknown[]) => Promise<Record<string, unknown>>;
type NoopModule = Record<string, { check: Op; create: Op; update: Op }>;

const MODELS: Record<"endpoints" | "templates" | "networkVolumes" | "pods", ResourceModel> = {
  endpoints: ENDPOINT_MODEL,
  templates: TEMPLATE_MODEL,
  networkVolumes: NETWORK_VOLUME_MODEL,
  pods: POD_MODEL,
};
/** The bench stacks' inputs (bench/programs/<kind>/index.js). */
const INPUTS: Record<keyof typeof MODELS, Record<string, unknown>> = {
  endpoints: { templateId: "tpl_vllm", gpuIds: ["ADA_24"], idleTimeout: 30 },
  templates: { imageName: "ghcr.io/acme/llm-worker:1.4.2", containerDiskInGb: 20, env: { MODEL: "llama-3-8b" } },
  networkVolumes: { size: 10, dataCenterId: "EU-RO-1" },
  pods: { imageName: "ghcr.io/acme/dev-box:1.4.2", cpuFlavorId: "cpu3c", vcpuCount: 2, containerDiskInGb: 20, env: { MODEL: "llama-3-8b" } },
};
/** Outputs the real provider leaves unset for those inputs (an endpoint created from tiers reports no GPU type names). */
const UNSET: Record<keyof typeof MODELS, string[]> = { endpoints: ["gpuTypeIds"], templates: [], networkVolumes: [], pods: [] };

describe("engine floor", () => {
  let dir: string;
  let noop: NoopModule;
  beforeAll(() => {
    dir = tempDir("noop-shape-");
    const programDir = copyProgram(programSource("noop"), path.join(dir, "program"));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    noop = require(path.join(programDir, "provider.js")) as NoopModule;
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.each(Object.keys(MODELS) as (keyof typeof MODELS)[])(
    "%s: a create and an update store every output the real one does, and the checked inputs",
    async (kind) => {
      const model = MODELS[kind];
      const { inputs } = (await noop[kind].check(undefined, { ...INPUTS[kind], [NAME_PREFIX_PROPERTY]: "floor" })) as { inputs: Record<string, unknown> };
      const { outs } = (await noop[kind].create(inputs)) as { outs: Record<string, unknown> };
      const unset = (outs: Record<string, unknown>) => outputNames(model).filter((f) => outs[f] === undefined);
      expect(unset(outs)).toEqual(UNSET[kind]);
      expect(outs[CHECKED_PROPERTY]).toEqual(checkedInputs(model, inputs));
      const { outs: updated } = (await noop[kind].update("id", outs, inputs)) as { outs: Record<string, unknown> };
      expect(unset(updated)).toEqual(UNSET[kind]);
      expect(updated[CHECKED_PROPERTY]).toEqual(checkedInputs(model, inputs));
    },
  );
});
