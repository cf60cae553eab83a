/**
 * Unit tests of the Endpoint fields the spec's table does not show, from the official clients and the
 * REST v1 document (issue 15 §3): `gpuCount`, `allowedCudaVersions`, `executionTimeoutMs` (unset = the
 * platform's default: not filled in, not compared, carried by a modify) and the output `workersStandby`.
 */
import { ENDPOINT_FACTS } from "../../emulator/facts";
import type { EndpointRecord } from "../../src/api/types";
import { checkEndpointInputs } from "../../src/provider/endpoint/check";
import { diffEndpoint } from "../../src/provider/endpoint/diff";
import { CUDA_VERSIONS, ENDPOINT_DEFAULTS, ENDPOINT_MODEL, type EndpointInputs } from "../../src/provider/endpoint/model";
import { endpointStateFromGraphql, restCreateInputFrom, saveInputFrom } from "../../src/provider/endpoint/paths/graphql";
import { outputsFromRecord } from "../../src/provider/endpoint/state";
import { changeOf } from "../../src/provider/model/fields";
import { UNKNOWN } from "../../src/provider/unknown";

const base = { name: "ep", templateId: "tpl_vllm", gpuIds: ["ADA_24"] };
const PLATFORM_FIELDS = ["gpuCount", "allowedCudaVersions", "executionTimeoutMs"] as const;

const record: EndpointRecord = {
  id: "abc123def456gh",
  name: "ep",
  templateId: "tpl_vllm",
  gpuIds: "ADA_24",
  type: "QB",
  idleTimeout: 5,
  locations: null,
  fastBootType: null,
  scalerType: "QUEUE_DELAY",
  scalerValue: 4,
  workersMin: 0,
  workersMax: 3,
  networkVolumeId: null,
  gpuCount: 2,
  allowedCudaVersions: "12.2,12.1",
  executionTimeoutMs: 120000,
  workersStandby: 1,
};
const outputs = (r: Partial<EndpointRecord> = {}) =>
  outputsFromRecord(endpointStateFromGraphql({ ...record, ...r }), undefined, "http://x/v2/abc123def456gh/") as unknown as Record<string, unknown>;
const checked = (a: Record<string, unknown>) => {
  const r = checkEndpointInputs(a);
  expect(r.failures).toEqual([]);
  return r.inputs;
};

describe("check", () => {
  it("fills nothing in for an unset field: the platform's default applies", () => {
    const inputs = checked(base);
    for (const f of PLATFORM_FIELDS) expect({ f, has: f in inputs }).toEqual({ f, has: false });
    for (const f of PLATFORM_FIELDS) expect({ f, default: f in ENDPOINT_DEFAULTS }).toEqual({ f, default: false });
  });

  it("keeps declared values", () => {
    const inputs = checked({ ...base, gpuCount: 8, allowedCudaVersions: ["12.8", "11.8"], executionTimeoutMs: 5000 });
    expect(inputs).toMatchObject({ gpuCount: 8, allowedCudaVersions: ["12.8", "11.8"], executionTimeoutMs: 5000 });
    expect(checked({ ...base, gpuCount: 1, allowedCudaVersions: [], executionTimeoutMs: 604_800_000 })).toMatchObject({ gpuCount: 1, allowedCudaVersions: [] });
  });

  it.each([
    ["gpuCount", 0, "gpuCount must be an integer number of GPUs per worker at least 1; got 0"],
    ["gpuCount", 1.5, "gpuCount must be an integer number of GPUs per worker at least 1; got 1.5"],
    ["gpuCount", "2", 'gpuCount must be an integer number of GPUs per worker at least 1; got "2"'],
    ["executionTimeoutMs", 0, "executionTimeoutMs must be an integer number of milliseconds at least 1; got 0"],
    ["executionTimeoutMs", 2.5, "executionTimeoutMs must be an integer number of milliseconds at least 1; got 2.5"],
    [
      "allowedCudaVersions",
      ["12.1", "13"],
      'allowedCudaVersions must be a list of distinct CUDA versions as `major.minor` (e.g. "12.9") (empty = any); got ["12.1","13"]',
    ],
    ["allowedCudaVersions", ["12.1", "12.1"], expect.stringContaining("allowedCudaVersions must be a list of distinct CUDA versions")],
    ["allowedCudaVersions", "12.1,12.2", expect.stringContaining("allowedCudaVersions must be a list of distinct CUDA versions")],
    ["allowedCudaVersions", [12.1], expect.stringContaining("allowedCudaVersions must be a list")],
  ])("rejects %s = %j at preview, naming the field and its range", (field, value, reason) => {
    const r = checkEndpointInputs({ ...base, [field]: value });
    expect(r.failures).toEqual([{ property: field, reason }]);
  });

  it("skips values not known yet and checks known list elements", () => {
    expect(checkEndpointInputs({ ...base, gpuCount: UNKNOWN, executionTimeoutMs: UNKNOWN, allowedCudaVersions: UNKNOWN }).failures).toEqual([]);
    expect(checkEndpointInputs({ ...base, allowedCudaVersions: [UNKNOWN, "12.1"] }).failures).toEqual([]);
    expect(checkEndpointInputs({ ...base, allowedCudaVersions: [UNKNOWN, "9"] }).failures.map((f) => f.property)).toEqual(["allowedCudaVersions"]);
  });

  it("accepts exactly the values and bounds the emulator's GraphQL states, on the GraphQL path", () => {
    expect([...CUDA_VERSIONS]).toEqual([...ENDPOINT_FACTS.allowedCudaVersions.values]);
    const F = ENDPOINT_MODEL.fields;
    const gpuCount = F.gpuCount.onPath.graphql.rule;
    const timeout = F.executionTimeoutMs.onPath.graphql.rule;
    expect([gpuCount.min, gpuCount.max]).toEqual([ENDPOINT_FACTS.gpuCount.min, ENDPOINT_FACTS.gpuCount.max]);
    expect([timeout.min, timeout.max]).toEqual([ENDPOINT_FACTS.executionTimeoutMs.min, ENDPOINT_FACTS.executionTimeoutMs.max]);
  });
});

describe("diff", () => {
  it("an unset field shows no diff whatever the platform holds", () => {
    expect(diffEndpoint(outputs(), checked(base)).changed).toEqual([]);
    expect(diffEndpoint(outputs({ gpuCount: 4, allowedCudaVersions: null, executionTimeoutMs: 5000 }), checked(base)).changed).toEqual([]);
  });

  it("a declared field equal to the platform's value shows no diff; CUDA versions compare as a set", () => {
    const news = checked({ ...base, gpuCount: 2, allowedCudaVersions: ["12.1", "12.2"], executionTimeoutMs: 120000 });
    expect(diffEndpoint(outputs(), news)).toMatchObject({ changes: false, changed: [] });
  });

  it("a declared change updates in place", () => {
    const news = checked({ ...base, gpuCount: 3, allowedCudaVersions: ["12.1"], executionTimeoutMs: 60000 });
    expect(diffEndpoint(outputs(), news)).toMatchObject({ changes: true, changed: ["gpuCount", "allowedCudaVersions", "executionTimeoutMs"], replaces: [] });
    for (const f of PLATFORM_FIELDS) expect(changeOf(ENDPOINT_MODEL, f).policy).toBe("update");
  });

  it("over a state written before the fields existed: declared is a change (the platform's value was never read), unset is none", () => {
    const old = outputs();
    for (const f of PLATFORM_FIELDS) delete old[f];
    expect(diffEndpoint(old, checked({ ...base, gpuCount: 2 })).changed).toEqual(["gpuCount"]);
    expect(diffEndpoint(old, checked(base)).changed).toEqual([]);
  });

  it("an unknown declared value counts as changed", () => {
    expect(diffEndpoint(outputs(), checkEndpointInputs({ ...base, gpuCount: UNKNOWN }).inputs).changed).toEqual(["gpuCount"]);
  });
});

describe("state mapping", () => {
  it("outputs hold the platform's values (lists parsed) and workersStandby; null when not reported", () => {
    expect(outputs()).toMatchObject({ gpuCount: 2, allowedCudaVersions: ["12.2", "12.1"], executionTimeoutMs: 120000, workersStandby: 1 });
    const bare: Record<string, unknown> = { ...record };
    for (const f of [...PLATFORM_FIELDS, "workersStandby"]) delete bare[f];
    expect(outputsFromRecord(endpointStateFromGraphql(bare as unknown as EndpointRecord), undefined, "u")).toMatchObject({
      gpuCount: null,
      allowedCudaVersions: [],
      executionTimeoutMs: null,
      workersStandby: null,
    });
  });

  it("a create sends declared fields only (CUDA comma-separated); unset ones are left to the platform", () => {
    const declared = checked({ ...base, gpuCount: 2, allowedCudaVersions: ["12.1", "12.2"], executionTimeoutMs: 90000 }) as unknown as EndpointInputs;
    expect(saveInputFrom(declared, ["ADA_24"])).toMatchObject({ gpuCount: 2, allowedCudaVersions: "12.1,12.2", executionTimeoutMs: 90000 });
    const unset = saveInputFrom(checked(base) as unknown as EndpointInputs, ["ADA_24"]);
    for (const f of [...PLATFORM_FIELDS, "workersStandby"]) expect({ f, sent: f in unset }).toEqual({ f, sent: false });
  });

  it("a modify carries the last-read value of every unset field and of workersStandby, and the declared values over them", () => {
    const unset = saveInputFrom(checked(base) as unknown as EndpointInputs, ["ADA_24"], record.id, outputs());
    expect(unset).toMatchObject({ id: record.id, gpuCount: 2, allowedCudaVersions: "12.2,12.1", executionTimeoutMs: 120000, workersStandby: 1 });
    const declared = saveInputFrom(checked({ ...base, gpuCount: 4, allowedCudaVersions: [] }) as unknown as EndpointInputs, ["ADA_24"], record.id, outputs());
    expect(declared).toMatchObject({ gpuCount: 4, allowedCudaVersions: null, executionTimeoutMs: 120000 });
  });

  it("the REST v1 create body carries them as the REST document has them (CUDA versions as an array)", () => {
    const inputs = checked({
      name: "ep",
      templateId: "tpl_vllm",
      gpuTypeIds: ["NVIDIA L4"],
      gpuCount: 2,
      allowedCudaVersions: ["12.1", "12.2"],
      executionTimeoutMs: 90000,
    });
    expect(restCreateInputFrom(inputs as unknown as EndpointInputs)).toMatchObject({
      gpuCount: 2,
      allowedCudaVersions: ["12.1", "12.2"],
      executionTimeoutMs: 90000,
    });
    const bare = restCreateInputFrom(checked({ name: "ep", templateId: "tpl_vllm", gpuTypeIds: ["NVIDIA L4"] }) as unknown as EndpointInputs);
    for (const f of PLATFORM_FIELDS) expect({ f, sent: f in bare }).toEqual({ f, sent: false });
  });
});
