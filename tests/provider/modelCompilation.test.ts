/**
 * Per-resource work stays per process: a provider process that checks, diffs and maps the outputs of
 * many resources compiles each kind's model once and builds each of its field schemas at most once
 * (model/compiled.ts counts both). A count, not a timing: it fails if the work creeps back per call.
 * Through the provider module as the dynamic provider host calls it; no request is made (the checks
 * keep the old templateId, and templates name no registry credentials).
 */
import * as provider from "../../src/provider";
import { argumentNames, ENDPOINT_MODEL, TEMPLATE_MODEL, type ResourceModel } from "../../src/provider";
import { compilationCounts } from "../../src/provider/model/compiled";
import { inputsFromOutputs, outputsFromRecord } from "../../src/provider/model/state";

const CONFIG: Record<string, string> = {
  "runpod:apiKey": "test-key-never-sent",
  "runpod:graphqlUrl": "http://127.0.0.1:9/graphql",
  "runpod:restV1Url": "http://127.0.0.1:9/v1",
  "runpod:restV2Url": "http://127.0.0.1:9/v2",
  "runpod:inferenceUrl": "http://127.0.0.1:9/inference",
  "runpod:api": "graphql", // the args use every field, `locations` and a template `readme` (GraphQL-only) among them
};

const endpointArgs = (i: number) => ({
  name: `ep-${i}`,
  templateId: "tpl_vllm",
  gpuIds: i % 2 ? ["ADA_24"] : ["AMPERE_24", "ADA_24"],
  idleTimeout: i % 60,
  locations: i % 3 ? [] : ["US", "FR"],
  workersMax: 3 + (i % 5),
  fastBoot: i % 2 === 0,
  gpuCount: 1 + (i % 8),
  allowedCudaVersions: ["12.1"],
  executionTimeoutMs: 600_000,
});
const templateArgs = (i: number) => ({
  name: `tpl-${i}`,
  imageName: `ghcr.io/acme/worker:${i}`,
  dockerArgs: "python handler.py",
  containerDiskInGb: 10 + (i % 20),
  volumeMountPath: "/workspace",
  ports: ["8000/http"],
  env: { MODEL: `m-${i}` },
  readme: "x",
});

/** Checks (valid and invalid inputs), diffs and output mappings of `n` resources of each kind. */
async function exercise(n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const ep = endpointArgs(i);
    const checked = await provider.resources.endpoint.check(ep, ep);
    expect(checked.failures ?? []).toEqual([]);
    const bad = await provider.resources.endpoint.check(ep, { ...ep, idleTimeout: -1, gpuIds: ["NOPE"], extra: 1 });
    expect((bad.failures ?? []).map((f) => f.property).sort()).toEqual(["extra", "gpuIds", "idleTimeout"]);
    await provider.resources.endpoint.diff(`id-${i}`, { ...checked.inputs, idleTimeout: 1 }, checked.inputs);

    const tpl = templateArgs(i);
    const tchecked = await provider.resources.template.check(tpl, tpl);
    expect(tchecked.failures ?? []).toEqual([]);
    const tbad = await provider.resources.template.check(tpl, { ...tpl, containerDiskInGb: 0 });
    expect((tbad.failures ?? []).map((f) => f.property)).toEqual(["containerDiskInGb"]);
    await provider.resources.template.diff(`t-${i}`, { ...tchecked.inputs, imageName: "other" }, tchecked.inputs);
    inputsFromOutputs(TEMPLATE_MODEL, outputsFromRecord(TEMPLATE_MODEL, { ...tpl, env: {} }, tchecked.inputs));
  }
}

it("checking, diffing and mapping 100 resources of each kind compiles each model once and builds each schema at most once", async () => {
  await provider.configure({ config: { get: (key: string) => CONFIG[key] } });
  await exercise(1);
  const afterOne = compilationCounts();
  await exercise(100);
  const afterMany = compilationCounts();

  expect(afterMany).toEqual(afterOne);
  for (const model of [ENDPOINT_MODEL, TEMPLATE_MODEL] as ResourceModel[]) {
    const counts = afterMany[model.type];
    expect(counts.compilations).toBe(1);
    expect(counts.schemas).toBeGreaterThan(0);
    expect(counts.schemas).toBeLessThanOrEqual(argumentNames(model).length);
  }
});
