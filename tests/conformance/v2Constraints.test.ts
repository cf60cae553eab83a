/**
 * Every constraint the REST v2 document (docs/spec/rest-v2-openapi.json) states on a field the models
 * carry to v2, walked from the request schemas (CreateEndpointRequest, UpdateEndpointRequest,
 * CreateTemplateRequest, UpdateTemplateRequest, CreateRegistryRequest and what they reference): for
 * each one, `check` on `runpod:api v2` rejects a violating value naming the field, or the table says why
 * the constraint does not apply. A constraint the document gains fails the walk until it is recorded.
 */
import { readFileSync } from "fs";
import { join } from "path";
import type { RunningEmulator } from "../../emulator";
import { ENDPOINT_MODEL } from "../../src/provider/endpoint/model";
import { EndpointProvider } from "../../src/provider/endpoint/provider";
import type { Fields } from "../../src/provider/model/fields";
import { REGISTRY_AUTH_MODEL } from "../../src/provider/registryAuth/model";
import { RegistryAuthProvider } from "../../src/provider/registryAuth/provider";
import { PlatformSession } from "../../src/provider/session";
import { TEMPLATE_MODEL } from "../../src/provider/template/model";
import { TemplateProvider } from "../../src/provider/template/provider";
import { emulatorClient, startTestEmulator } from "../provider/harness";

type Schema = Record<string, unknown>;
const doc = JSON.parse(readFileSync(join(__dirname, "../../docs/spec/rest-v2-openapi.json"), "utf8")) as { components: { schemas: Record<string, Schema> } };
const SCHEMAS = doc.components.schemas;
const KEYWORDS = [
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minLength",
  "maxLength",
  "pattern",
  "enum",
  "const",
  "minItems",
  "maxItems",
  "uniqueItems",
];

/** The schema and its `$ref` / `allOf` / `oneOf` parts (a union's variants each bring their own properties). */
function parts(s: Schema): Schema[] {
  const out: Schema[] = [];
  if (typeof s.$ref === "string") out.push(...parts(SCHEMAS[s.$ref.split("/").pop()!]));
  out.push(s);
  for (const x of [...((s.allOf as Schema[] | undefined) ?? []), ...((s.oneOf as Schema[] | undefined) ?? [])]) out.push(...parts(x));
  return out;
}

/** The subschemas at a dotted property path (`[]`: the items of an array). */
function at(s: Schema, path: string[]): Schema[] {
  return parts(s).flatMap((x) => {
    if (path.length === 0) return [x];
    const [head, ...rest] = path;
    if (head === "[]") return x.items ? at(x.items as Schema, rest) : [];
    const props = x.properties as Record<string, Schema> | undefined;
    return props?.[head] ? at(props[head], rest) : [];
  });
}

/** `keyword` → value of every constraint at `path` (array items prefixed `items.`) in the request schemas. */
function constraints(schemas: string[], path: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of schemas) {
    for (const [prefix, p] of [
      ["", path],
      ["items.", `${path}.[]`],
    ]) {
      for (const s of at({ $ref: `#/components/schemas/${name}` }, p.split("."))) {
        for (const k of KEYWORDS) if (k in s) out[`${prefix}${k}`] = s[k];
      }
    }
  }
  return out;
}

/** A violating value `check` must reject naming the field, or why the constraint does not apply. */
type Verdict = { bad: unknown; with?: Record<string, unknown> } | { na: string };
interface Row {
  field: string;
  wire: string;
  verdicts: Record<string, Verdict>;
}

const ENDPOINT = ["CreateEndpointRequest", "UpdateEndpointRequest"];
const TEMPLATE = ["CreateTemplateRequest", "UpdateTemplateRequest"];
const REGISTRY = ["CreateRegistryRequest"];
/** A CPU endpoint: no GPU tiers. */
const CPU = { gpuIds: undefined };
const ENDPOINT_ROWS: Row[] = [
  { field: "name", wire: "name", verdicts: { minLength: { bad: "" } } },
  { field: "templateId", wire: "templateId", verdicts: { minLength: { bad: "" } } },
  { field: "gpuIds", wire: "gpu.pools", verdicts: { minItems: { bad: [] } } },
  {
    field: "excludedGpuTypes",
    wire: "gpu.excludedTypes",
    verdicts: { uniqueItems: { bad: ["NVIDIA L40", "NVIDIA L40"] }, "items.pattern": { bad: ["-NVIDIA L40"] } },
  },
  { field: "gpuCount", wire: "gpu.count", verdicts: { minimum: { bad: 0 } } },
  { field: "allowedCudaVersions", wire: "gpu.allowedCudaVersions", verdicts: { "items.pattern": { bad: ["12"] } } },
  { field: "minCudaVersion", wire: "gpu.minCudaVersion", verdicts: { pattern: { bad: "v12" } } },
  { field: "type", wire: "type", verdicts: { enum: { bad: "QUEUE" } } },
  { field: "idleTimeout", wire: "workers.idleTimeout", verdicts: { minimum: { bad: 0 }, maximum: { bad: 3601 } } },
  { field: "workersMin", wire: "workers.min", verdicts: { minimum: { bad: -1 } } },
  { field: "workersMax", wire: "workers.max", verdicts: { minimum: { bad: -1 } } },
  { field: "flashboot", wire: "flashboot", verdicts: { enum: { bad: "ON" } } },
  { field: "dataCenterIds", wire: "dataCenterIds", verdicts: {} },
  { field: "networkVolumeId", wire: "networkVolumes", verdicts: {} },
  { field: "networkVolumeIds", wire: "networkVolumes", verdicts: {} },
  { field: "executionTimeoutMs", wire: "timeout", verdicts: {} },
  { field: "scalerType", wire: "scaling.type", verdicts: { enum: { bad: "QUEUE" } } },
  { field: "scalerValue", wire: "scaling.queueDelay", verdicts: { minimum: { bad: 0.4 } } },
  { field: "scalerValue", wire: "scaling.requestCount", verdicts: { minimum: { bad: 0, with: { scalerType: "REQUEST_COUNT" } } } },
  { field: "imageName", wire: "image", verdicts: {} },
  { field: "dockerArgs", wire: "args", verdicts: {} },
  { field: "containerDiskInGb", wire: "disk", verdicts: { minimum: { bad: 0 } } },
  { field: "ports", wire: "ports", verdicts: {} },
  { field: "env", wire: "env", verdicts: {} },
  { field: "containerRegistryAuthId", wire: "registry", verdicts: {} },
  // One flavor list and one vCPU count make the `cpu` configurations; duplicates among them are duplicate flavors.
  { field: "cpuFlavorIds", wire: "cpu", verdicts: { minItems: { bad: [], with: CPU }, uniqueItems: { bad: ["cpu5c", "cpu5c"], with: CPU } } },
  { field: "cpuFlavorIds", wire: "cpu.[].id", verdicts: { minLength: { bad: [""], with: CPU } } },
  { field: "vcpuCount", wire: "cpu.[].vcpuCount", verdicts: { minimum: { bad: 1, with: { ...CPU, cpuFlavorIds: ["cpu5c"] } } } },
];
const TEMPLATE_ROWS: Row[] = [
  { field: "name", wire: "name", verdicts: { minLength: { bad: "" } } },
  { field: "imageName", wire: "image", verdicts: {} },
  { field: "dockerArgs", wire: "args", verdicts: {} },
  { field: "containerDiskInGb", wire: "disk", verdicts: { minimum: { bad: 0 } } },
  { field: "volumeInGb", wire: "mounts.persistent.size", verdicts: { minimum: { bad: 5 } } },
  { field: "volumeMountPath", wire: "mounts.persistent.path", verdicts: {} },
  { field: "ports", wire: "ports", verdicts: {} },
  { field: "env", wire: "env", verdicts: {} },
  { field: "containerRegistryAuthId", wire: "registry", verdicts: {} },
  { field: "category", wire: "category", verdicts: { enum: { bad: "TPU" } } },
  { field: "startSsh", wire: "startSsh", verdicts: {} },
  { field: "startJupyter", wire: "startJupyter", verdicts: {} },
  { field: "isPublic", wire: "public", verdicts: {} },
];
const REGISTRY_ROWS: Row[] = [
  { field: "name", wire: "name", verdicts: { minLength: { bad: "" } } },
  { field: "username", wire: "username", verdicts: { minLength: { bad: "" } } },
  { field: "password", wire: "password", verdicts: { minLength: { bad: "" } } },
];

/** Inputs v2 carries that have no wire field of their own. */
const SPELLINGS: Record<string, string> = { fastBootType: "GraphQL's spelling of flashboot (deprecated), sent as flashboot" };

let emu: RunningEmulator;
let session: PlatformSession;
beforeAll(async () => {
  emu = await startTestEmulator();
  const client = emulatorClient(emu);
  session = new PlatformSession(() => client, { api: "v2" });
});
afterAll(() => emu.close());

const kinds = [
  {
    kind: "Endpoint",
    schemas: ENDPOINT,
    rows: ENDPOINT_ROWS,
    base: { name: "c", templateId: "tpl_vllm", gpuIds: ["ADA_24"] },
    provider: () => new EndpointProvider(session),
    model: ENDPOINT_MODEL,
  },
  {
    kind: "Template",
    schemas: TEMPLATE,
    rows: TEMPLATE_ROWS,
    base: { name: "c", imageName: "me/w:1" },
    provider: () => new TemplateProvider(session),
    model: TEMPLATE_MODEL,
  },
  {
    kind: "ContainerRegistryAuth",
    schemas: REGISTRY,
    rows: REGISTRY_ROWS,
    base: { name: "c", username: "u", password: "p" },
    provider: () => new RegistryAuthProvider(session),
    model: REGISTRY_AUTH_MODEL,
  },
];

describe.each(kinds)("$kind: the document's constraints on REST v2", ({ schemas, rows, base, provider, model }) => {
  it("every input the model carries to v2 has a row (or is another field's spelling)", () => {
    const onV2 = Object.entries(model.fields as Fields)
      .filter(([, f]) => f.kind === "input" && !f.alias && (!f.paths || f.paths.includes("v2")))
      .map(([name]) => name)
      .filter((name) => !(name in SPELLINGS));
    expect(onV2.filter((name) => !rows.some((r) => r.field === name))).toEqual([]);
  });

  it.each(rows.map((r) => [`${r.field} (${r.wire})`, r] as const))("%s: every constraint is recorded", (_label, row) => {
    expect(Object.keys(row.verdicts).sort()).toEqual(Object.keys(constraints(schemas, row.wire)).sort());
    for (const verdict of Object.values(row.verdicts)) if ("na" in verdict) expect(verdict.na.length).toBeGreaterThan(0);
  });

  const cases = rows.flatMap((r) =>
    Object.entries(r.verdicts)
      .filter((e): e is [string, { bad: unknown; with?: Record<string, unknown> }] => "bad" in e[1])
      .map(([k, v]) => [`${r.field} (${r.wire}) ${k}`, r.field, v] as const),
  );
  it.each(cases)("%s: check rejects a violating value, naming the field", async (_label, field, verdict) => {
    const r = await provider().check(undefined, { ...base, ...verdict.with, [field]: verdict.bad });
    const mine = (r.failures ?? []).filter((f) => f.property === field);
    expect(mine).toHaveLength(1);
    expect(mine[0].reason).toContain(field);
  });
});

describe("REST v2 rules the document states across fields", () => {
  it("a LOAD_BALANCER endpoint scales on request count: LB with QUEUE_DELAY fails check on v2 only", async () => {
    const args = { name: "lb", templateId: "tpl_vllm", gpuIds: ["ADA_24"], type: "LB" };
    const r = await new EndpointProvider(session).check(undefined, args);
    expect(r.failures).toEqual([{ property: "type", reason: expect.stringContaining('type "LB" needs scalerType "REQUEST_COUNT" on API path v2') }]);
    expect((await new EndpointProvider(session).check(undefined, { ...args, scalerType: "REQUEST_COUNT" })).failures).toEqual([]);
  });

  it("CUDA versions follow the document's major.minor pattern on v2 (12.9, 13.0), the known set on graphql", async () => {
    const args = { name: "cuda", templateId: "tpl_vllm", gpuIds: ["ADA_24"], allowedCudaVersions: ["12.9", "13.0"] };
    // The shape is accepted; the catalog review may still say no GPU type is offered with them (the emulator's catalog stops at 12.8).
    const shape = (r: { failures?: { reason: string }[] }) => (r.failures ?? []).filter((f) => /must be/.test(f.reason));
    expect(shape(await new EndpointProvider(session).check(undefined, args))).toEqual([]);
    expect(shape(await new EndpointProvider(session).check(undefined, { ...args, allowedCudaVersions: undefined, minCudaVersion: "13.0" }))).toEqual([]);
    const onGraphql = new PlatformSession(() => emulatorClient(emu), { api: "graphql" });
    const r = await new EndpointProvider(onGraphql).check(undefined, args);
    expect(r.failures?.map((f) => f.property)).toEqual(["allowedCudaVersions"]);
    expect(r.failures?.[0].reason).toMatch(/12\.8.*on API path graphql/);
  });

  it("path bounds do not reach the other path: idleTimeout 0 and volumeInGb 5 pass on graphql", async () => {
    const onGraphql = new PlatformSession(() => emulatorClient(emu), { api: "graphql" });
    expect(
      (await new EndpointProvider(onGraphql).check(undefined, { name: "i", templateId: "tpl_vllm", gpuIds: ["ADA_24"], idleTimeout: 0 })).failures,
    ).toEqual([]);
    expect((await new TemplateProvider(onGraphql).check(undefined, { name: "v", imageName: "me/w:1", volumeInGb: 5 })).failures).toEqual([]);
    const v2 = await new TemplateProvider(session).check(undefined, { name: "v", imageName: "me/w:1", volumeInGb: 5 });
    expect(v2.failures).toEqual([
      { property: "volumeInGb", reason: "volumeInGb must be 0 (none) or an integer number of GB at least 10 on API path v2 (runpod:api); got 5" },
    ]);
  });

  // The document bounds these from below only; GraphQL's maxima are that path's own.
  it.each([
    ["Endpoint", "workersMin", 101, "an integer from 0 to 100", { workersMax: 101 }],
    ["Endpoint", "workersMax", 150, "an integer from 0 to 100", {}],
    ["Endpoint", "gpuCount", 9, "an integer number of GPUs per worker from 1 to 8", {}],
    ["Endpoint", "executionTimeoutMs", 700_000_000, "an integer number of milliseconds from 5000 to 604800000", {}],
    ["Endpoint", "executionTimeoutMs", 1000, "an integer number of milliseconds from 5000 to 604800000", {}],
    ["Template", "containerDiskInGb", 2048, "an integer number of GB from 1 to 1024", {}],
    ["Template", "volumeInGb", 5000, "an integer number of GB from 0 to 4096", {}],
  ] as const)("%s.%s %p: check accepts it on v2, refuses it on graphql naming the field, the range and the path", async (kind, field, value, range, extra) => {
    const onGraphql = new PlatformSession(() => emulatorClient(emu), { api: "graphql" });
    const args =
      kind === "Endpoint"
        ? { name: "big", templateId: "tpl_vllm", gpuIds: ["ADA_24"], ...extra, [field]: value }
        : { name: "big", imageName: "me/w:1", ...extra, [field]: value };
    const make = (s: PlatformSession) => (kind === "Endpoint" ? new EndpointProvider(s) : new TemplateProvider(s));
    const onV2 = await make(session).check(undefined, args);
    // gpuCount stays bounded on v2 by the catalog review (the chosen types' own maximum, the platform's live figure), not by a rule.
    const ruled = (onV2.failures ?? []).filter((f) => f.property === field && !/is more GPUs than one worker of the selected GPU types/.test(f.reason));
    expect(ruled).toEqual([]);
    const refused = await make(onGraphql).check(undefined, args);
    expect((refused.failures ?? []).filter((f) => f.property === field)).toEqual([
      { property: field, reason: `${field} must be ${range} on API path graphql (runpod:api); got ${value}` },
    ]);
  });
});
