/**
 * Unit tests of the Endpoint provider's `check`: validation, defaults, unknowns (issue #4, issue #6
 * "Bad input"), and the model's accepted values against the spec's own tables (docs/spec/platform-api.md).
 */
import * as fs from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { ENDPOINT_TYPES, GPU_TIERS, LOCATIONS, SCALER_TYPES } from "../../src/api/spec";
import { checkEndpointInputs, isComplete } from "../../src/provider/endpoint/check";
import { ENDPOINT_ARG_FIELDS, ENDPOINT_DEFAULTS, ENDPOINT_MODEL, ENDPOINT_SETTING_DEFAULTS } from "../../src/provider/endpoint/model";
import { UNKNOWN } from "../../src/provider/unknown";

const base = { name: "my-endpoint", templateId: "tpl_vllm", gpuIds: ["ADA_24"] };

describe("unknown sentinel", () => {
  it("is the value the Pulumi SDK uses for unknown inputs", () => {
    expect(UNKNOWN).toBe(pulumi.runtime.unknownValue);
  });
});

describe("checkEndpointInputs: valid inputs", () => {
  it("fills every default so stored inputs match what the platform reports", () => {
    const r = checkEndpointInputs({ ...base, __provider: "serialized" });
    expect(r.failures).toEqual([]);
    expect(r.inputs).toEqual({
      name: "my-endpoint",
      templateId: "tpl_vllm",
      gpuIds: ["ADA_24"],
      excludedGpuTypes: [],
      dataCenterIds: [],
      type: ENDPOINT_DEFAULTS.type,
      idleTimeout: ENDPOINT_DEFAULTS.idleTimeout,
      locations: [],
      flashboot: "OFF",
      fastBootType: null,
      minCudaVersion: null,
      networkVolumeIds: [],
      scalerType: ENDPOINT_DEFAULTS.scalerType,
      scalerValue: ENDPOINT_DEFAULTS.scalerValue,
      workersMin: ENDPOINT_DEFAULTS.workersMin,
      workersMax: ENDPOINT_DEFAULTS.workersMax,
      networkVolumeId: null,
      waitForWorkers: false,
      workersReadyTimeout: 600,
      maxHourlyCostLimit: null,
      rolloutTimeout: 600,
      rolloutFailedStarts: 1,
      rollback: true,
      smokeInput: null,
      smokeStatus: "COMPLETED",
    });
    expect(ENDPOINT_SETTING_DEFAULTS).toEqual({
      waitForWorkers: false,
      workersReadyTimeout: 600,
      maxHourlyCostLimit: null,
      rolloutTimeout: 600,
      rolloutFailedStarts: 1,
      rollback: true,
      smokeInput: null,
      smokeStatus: "COMPLETED",
    });
    expect(r.inputs).not.toHaveProperty("__provider");
    expect(isComplete(r.inputs)).toBe(true);
  });

  it("the defaults are the platform's: QB, 5 s idle, QUEUE_DELAY 4, 0..3 workers, any region, no fast boot, no volume", () => {
    expect(ENDPOINT_DEFAULTS).toEqual({
      excludedGpuTypes: [],
      dataCenterIds: [],
      type: "QB",
      idleTimeout: 5,
      locations: [],
      flashboot: "OFF",
      fastBootType: null,
      minCudaVersion: null,
      networkVolumeIds: [],
      scalerType: "QUEUE_DELAY",
      scalerValue: 4,
      workersMin: 0,
      workersMax: 3,
      networkVolumeId: null,
    });
  });

  it("keeps every explicitly given value", () => {
    const given = {
      name: "full",
      templateId: "tpl-comfy_2",
      gpuTypeIds: ["NVIDIA GeForce RTX 4090", "NVIDIA A100 80GB PCIe"],
      type: "LB",
      idleTimeout: 0,
      locations: ["US", "FR"],
      fastBootType: "FASTBOOT",
      scalerType: "REQUEST_COUNT",
      scalerValue: 3600,
      workersMin: 2,
      workersMax: 100,
      networkVolumeId: "nv_models01",
      waitForWorkers: true,
      workersReadyTimeout: 3600,
      maxHourlyCostLimit: 12.5,
      rolloutTimeout: 7200,
      rolloutFailedStarts: 100,
      rollback: false,
      // A load-balancing endpoint takes no smoke job (rolloutMessage.test.ts).
      smokeInput: null,
      smokeStatus: "FAILED",
    };
    const r = checkEndpointInputs(given);
    expect(r.failures).toEqual([]);
    // The REST v2-only selections default to none.
    expect(r.inputs).toEqual({ ...given, excludedGpuTypes: [], dataCenterIds: [], flashboot: "FLASHBOOT", minCudaVersion: null, networkVolumeIds: [] });
  });

  it("accepts every GPU tier, region, type and scaler type of the spec", () => {
    const r = checkEndpointInputs({ ...base, gpuIds: [...GPU_TIERS], locations: [...LOCATIONS] });
    expect(r.failures).toEqual([]);
    for (const type of ENDPOINT_TYPES) expect(checkEndpointInputs({ ...base, type }).failures).toEqual([]);
    for (const scalerType of SCALER_TYPES) expect(checkEndpointInputs({ ...base, scalerType }).failures).toEqual([]);
  });

  it("accepts the readiness wait's bounds and keeps its settings apart from the platform's fields", () => {
    for (const workersReadyTimeout of [1, 3600]) {
      const r = checkEndpointInputs({ ...base, waitForWorkers: true, workersReadyTimeout });
      expect(r.failures).toEqual([]);
      expect(r.inputs).toMatchObject({ waitForWorkers: true, workersReadyTimeout });
    }
    expect(checkEndpointInputs({ ...base, waitForWorkers: null, workersReadyTimeout: null }).inputs).toMatchObject({
      waitForWorkers: false,
      workersReadyTimeout: 600,
      maxHourlyCostLimit: null,
    });
  });

  it("treats null as unset", () => {
    const r = checkEndpointInputs({ ...base, networkVolumeId: null, idleTimeout: null, locations: null, gpuTypeIds: null });
    expect(r.failures).toEqual([]);
    expect(r.inputs.idleTimeout).toBe(5);
    expect(r.inputs.locations).toEqual([]);
    expect(r.inputs).not.toHaveProperty("gpuTypeIds");
  });

  it("raises the default workersMax to workersMin when that is larger", () => {
    expect(checkEndpointInputs({ ...base, workersMin: 7 }).inputs.workersMax).toBe(7);
    expect(checkEndpointInputs({ ...base, workersMin: 2 }).inputs.workersMax).toBe(3);
  });

  it("flashboot: the deprecated fastBoot / fastBootType set it, and it sets GraphQL's fastBootType", () => {
    expect(checkEndpointInputs({ ...base, fastBoot: true }).inputs).toMatchObject({ flashboot: "FLASHBOOT", fastBootType: "FASTBOOT" });
    expect(checkEndpointInputs({ ...base, fastBoot: false }).inputs).toMatchObject({ flashboot: "OFF", fastBootType: null });
    expect(checkEndpointInputs({ ...base, fastBootType: "FASTBOOT" }).inputs).toMatchObject({ flashboot: "FLASHBOOT" });
    expect(checkEndpointInputs({ ...base, flashboot: "PRIORITY_FLASHBOOT" }).inputs).toMatchObject({
      flashboot: "PRIORITY_FLASHBOOT",
      fastBootType: "FASTBOOT",
    });
    expect(checkEndpointInputs({ ...base, flashboot: "OFF" }).inputs).toMatchObject({ flashboot: "OFF", fastBootType: null });
    expect(checkEndpointInputs({ ...base, flashboot: "FLASHBOOT", fastBoot: true }).failures).toEqual([]);
    expect(checkEndpointInputs({ ...base, flashboot: UNKNOWN }).inputs).toMatchObject({ flashboot: UNKNOWN, fastBootType: UNKNOWN });
    const contradiction = checkEndpointInputs({ ...base, flashboot: "OFF", fastBootType: "FASTBOOT" }).failures;
    expect(contradiction).toEqual([{ property: "flashboot", reason: expect.stringMatching(/flashboot \("OFF"\) contradicts the deprecated fastBoot/) }]);
    const bad = checkEndpointInputs({ ...base, flashboot: "TURBO" }).failures;
    expect(bad).toEqual([{ property: "flashboot", reason: expect.stringMatching(/one of OFF, FLASHBOOT, PRIORITY_FLASHBOOT; got "TURBO"/) }]);
  });

  it("minCudaVersion: a `major.minor` floor, REST v2's pattern; not together with a non-empty allowedCudaVersions", () => {
    expect(checkEndpointInputs({ ...base, minCudaVersion: "12.4" })).toMatchObject({ failures: [], inputs: { minCudaVersion: "12.4" } });
    expect(checkEndpointInputs(base).inputs.minCudaVersion).toBeNull();
    expect(checkEndpointInputs({ ...base, minCudaVersion: "12.4", allowedCudaVersions: [] }).failures).toEqual([]);
    const both = checkEndpointInputs({ ...base, minCudaVersion: "12.4", allowedCudaVersions: ["12.8"] }).failures;
    expect(both).toEqual([
      { property: "minCudaVersion", reason: expect.stringMatching(/either minCudaVersion .* or a non-empty allowedCudaVersions .* not both/) },
    ]);
    for (const bad of ["12", "v12.4", "12.4.1", "twelve"]) {
      expect(checkEndpointInputs({ ...base, minCudaVersion: bad }).failures).toEqual([
        { property: "minCudaVersion", reason: expect.stringMatching(/minCudaVersion must be a CUDA version as `major.minor`.*; got/) },
      ]);
    }
  });

  it("networkVolumeIds: one id is kept as networkVolumeId; not together with networkVolumeId", () => {
    expect(checkEndpointInputs({ ...base, networkVolumeIds: ["nv_a", "nv_b"] }).inputs).toMatchObject({
      networkVolumeIds: ["nv_a", "nv_b"],
      networkVolumeId: null,
    });
    expect(checkEndpointInputs({ ...base, networkVolumeIds: ["nv_a"] }).inputs).toMatchObject({ networkVolumeIds: [], networkVolumeId: "nv_a" });
    expect(checkEndpointInputs({ ...base, networkVolumeIds: [], networkVolumeId: "nv_a" }).failures).toEqual([]);
    expect(checkEndpointInputs({ ...base, networkVolumeIds: ["nv_a"], networkVolumeId: "nv_b" }).failures).toEqual([
      { property: "networkVolumeIds", reason: expect.stringMatching(/either networkVolumeId .* or networkVolumeIds .* not both/) },
    ]);
    expect(checkEndpointInputs({ ...base, networkVolumeIds: ["nv_a", "nv_a"] }).failures.map((f) => f.property)).toEqual(["networkVolumeIds"]);
  });

  it("folds fastBoot into fastBootType", () => {
    expect(checkEndpointInputs({ ...base, fastBoot: true }).inputs.fastBootType).toBe("FASTBOOT");
    expect(checkEndpointInputs({ ...base, fastBoot: false }).inputs.fastBootType).toBeNull();
    expect(checkEndpointInputs({ ...base, fastBoot: true, fastBootType: "FASTBOOT" }).failures).toEqual([]);
    expect(checkEndpointInputs({ ...base, fastBoot: true }).inputs).not.toHaveProperty("fastBoot");
  });
});

/** [description, inputs, field that must be named, text the reason must contain] */
const BAD: [string, Record<string, unknown>, string, string][] = [
  ["name missing", { templateId: "tpl_vllm", gpuIds: ["ADA_24"] }, "name", "required"],
  ["name empty", { ...base, name: "" }, "name", "non-empty"],
  ["name blank", { ...base, name: "   " }, "name", "non-empty"],
  ["name with surrounding spaces", { ...base, name: " x " }, "name", "leading or trailing"],
  ["name too long", { ...base, name: "x".repeat(192) }, "name", "at most 191"],
  ["name a number", { ...base, name: 42 }, "name", "string"],
  ["neither templateId nor imageName", { name: "n", gpuIds: ["ADA_24"] }, "imageName", "templateId (a serverless template)"],
  ["templateId malformed", { ...base, templateId: "tpl vllm!" }, "templateId", "letters, digits"],
  ["templateId empty", { ...base, templateId: "" }, "templateId", "template id"],
  ["templateId too long", { ...base, templateId: "t".repeat(65) }, "templateId", "1 to 64"],
  ["gpuIds unknown tier", { ...base, gpuIds: ["AMPERE_99"] }, "gpuIds", "ADA_80_PRO"],
  ["gpuIds empty list", { ...base, gpuIds: [] }, "gpuIds", "non-empty"],
  ["gpuIds a string", { ...base, gpuIds: "ADA_24" }, "gpuIds", "list"],
  ["gpuIds repeated tier", { ...base, gpuIds: ["ADA_24", "ADA_24"] }, "gpuIds", "distinct"],
  ["gpuIds lower case", { ...base, gpuIds: ["ada_24"] }, "gpuIds", "AMPERE_16"],
  ["both gpuIds and gpuTypeIds", { ...base, gpuTypeIds: ["NVIDIA GeForce RTX 4090"] }, "gpuTypeIds", "exactly one"],
  ["neither gpuIds nor gpuTypeIds", { name: "n", templateId: "tpl_vllm" }, "gpuIds", "gpuTypeIds"],
  ["gpuTypeIds empty list", { name: "n", templateId: "tpl_vllm", gpuTypeIds: [] }, "gpuTypeIds", "non-empty"],
  ["gpuTypeIds empty name", { name: "n", templateId: "tpl_vllm", gpuTypeIds: [""] }, "gpuTypeIds", "GPU type names"],
  ["gpuTypeIds repeated", { name: "n", templateId: "tpl_vllm", gpuTypeIds: ["A", "A"] }, "gpuTypeIds", "distinct"],
  ["type unknown", { ...base, type: "SERVERLESS" }, "type", "QB, LB"],
  ["type lower case", { ...base, type: "qb" }, "type", "QB, LB"],
  ["idleTimeout negative", { ...base, idleTimeout: -1 }, "idleTimeout", "0 to 3600"],
  ["idleTimeout fractional", { ...base, idleTimeout: 1.5 }, "idleTimeout", "integer"],
  ["idleTimeout too large", { ...base, idleTimeout: 3601 }, "idleTimeout", "0 to 3600"],
  ["idleTimeout a string", { ...base, idleTimeout: "5" }, "idleTimeout", "integer"],
  ["locations unknown region", { ...base, locations: ["DE"] }, "locations", "CZ, FR, GB, NO, RO, US"],
  ["locations a string", { ...base, locations: "US" }, "locations", "list"],
  ["locations repeated", { ...base, locations: ["US", "US"] }, "locations", "distinct"],
  ["fastBoot a string", { ...base, fastBoot: "yes" }, "fastBoot", "true or false"],
  ["fastBootType unknown", { ...base, fastBootType: "TURBO" }, "fastBootType", "FASTBOOT"],
  ["fastBoot contradicts fastBootType", { ...base, fastBoot: false, fastBootType: "FASTBOOT" }, "fastBoot", "contradicts"],
  ["scalerType unknown", { ...base, scalerType: "CPU" }, "scalerType", "QUEUE_DELAY, REQUEST_COUNT"],
  ["scalerValue zero", { ...base, scalerValue: 0 }, "scalerValue", "at least 0.5"],
  ["scalerValue fractional with REQUEST_COUNT", { ...base, scalerType: "REQUEST_COUNT", scalerValue: 2.5 }, "scalerValue", "integer"],
  ["workersMin negative", { ...base, workersMin: -1 }, "workersMin", "at least 0"],
  ["workersMin fractional", { ...base, workersMin: 0.5 }, "workersMin", "integer"],
  // Above 100 is refused on the GraphQL path only (tests/conformance/v2Constraints.test.ts): REST v2 sets no maximum.
  ["workersMax negative", { ...base, workersMax: -3 }, "workersMax", "at least 0"],
  ["workersMax NaN-like string", { ...base, workersMax: "three" }, "workersMax", "integer"],
  ["workersMin > workersMax", { ...base, workersMin: 4, workersMax: 2 }, "workersMin", "must not exceed workersMax (2)"],
  ["networkVolumeId malformed", { ...base, networkVolumeId: "../etc" }, "networkVolumeId", "network volume"],
  ["networkVolumeId a number", { ...base, networkVolumeId: 7 }, "networkVolumeId", "network volume"],
  ["misspelt property", { ...base, workerMax: 3 }, "workerMax", "unknown property"],
  ["waitForWorkers a string", { ...base, waitForWorkers: "yes" }, "waitForWorkers", "true or false"],
  ["workersReadyTimeout zero", { ...base, workersReadyTimeout: 0 }, "workersReadyTimeout", "seconds from 1 to 3600"],
  ["workersReadyTimeout too large", { ...base, workersReadyTimeout: 3601 }, "workersReadyTimeout", "seconds from 1 to 3600"],
  ["workersReadyTimeout negative", { ...base, workersReadyTimeout: -5 }, "workersReadyTimeout", "got -5"],
  ["workersReadyTimeout fractional", { ...base, workersReadyTimeout: 1.5 }, "workersReadyTimeout", "integer"],
  ["workersReadyTimeout a string", { ...base, workersReadyTimeout: "600" }, "workersReadyTimeout", "seconds from 1 to 3600"],
];

describe("checkEndpointInputs: bad inputs", () => {
  it.each(BAD)("%s → one failure naming the field", (_desc, inputs, field, text) => {
    const r = checkEndpointInputs(inputs);
    expect(r.failures).toHaveLength(1);
    expect(r.failures[0].property).toBe(field);
    expect(r.failures[0].reason).toContain(field);
    expect(r.failures[0].reason).toContain(text);
  });

  it("reports every bad field at once, one failure each", () => {
    const r = checkEndpointInputs({ name: "", templateId: "!", gpuIds: ["X"], type: "Z", workersMin: -1, workersMax: 1.5, locations: ["ZZ"] });
    expect(r.failures.map((f) => f.property).sort()).toEqual(["gpuIds", "locations", "name", "templateId", "type", "workersMax", "workersMin"]);
  });

  it("shows the received value in the reason", () => {
    expect(checkEndpointInputs({ ...base, workersMin: -7 }).failures[0].reason).toContain("got -7");
  });
});

describe("checkEndpointInputs: values unknown during preview", () => {
  // The compute family is judged on whether a selection is given, known or not (below).
  it.each(ENDPOINT_ARG_FIELDS.filter((f) => !["gpuTypeIds", "cpuFlavorIds", "vcpuCount"].includes(f)))(
    "skips %s when unknown and keeps the sentinel",
    (field) => {
      const r = checkEndpointInputs({ ...base, [field]: UNKNOWN });
      expect(r.failures).toEqual([]);
      if (field === "fastBoot") expect(r.inputs.fastBootType).toBe(UNKNOWN);
      else expect(r.inputs[field]).toBe(UNKNOWN);
      expect(isComplete(r.inputs)).toBe(false);
    },
  );

  it("skips unknown gpuTypeIds", () => {
    const r = checkEndpointInputs({ name: "n", templateId: "tpl_vllm", gpuTypeIds: UNKNOWN });
    expect(r.failures).toEqual([]);
    expect(r.inputs.gpuTypeIds).toBe(UNKNOWN);
  });

  it("skips unknown cpuFlavorIds and vcpuCount of a CPU endpoint", () => {
    const r = checkEndpointInputs({ name: "n", imageName: "me/x:1", cpuFlavorIds: UNKNOWN, vcpuCount: UNKNOWN });
    expect(r.failures).toEqual([]);
    expect(r.inputs).toMatchObject({ cpuFlavorIds: UNKNOWN, vcpuCount: UNKNOWN });
  });

  it("accepts unknown elements inside lists but still checks the known ones", () => {
    expect(checkEndpointInputs({ ...base, gpuIds: ["ADA_24", UNKNOWN, UNKNOWN], locations: [UNKNOWN, "US"] }).failures).toEqual([]);
    const r = checkEndpointInputs({ ...base, locations: [UNKNOWN, "XX"] });
    expect(r.failures.map((f) => f.property)).toEqual(["locations"]);
  });

  it("leaves workersMax unknown when it defaults from an unknown workersMin", () => {
    const r = checkEndpointInputs({ ...base, workersMin: UNKNOWN });
    expect(r.inputs.workersMax).toBe(UNKNOWN);
    expect(r.failures).toEqual([]);
  });

  it("does not compare workersMin with an unknown workersMax", () => {
    expect(checkEndpointInputs({ ...base, workersMin: 50, workersMax: UNKNOWN }).failures).toEqual([]);
  });
});

/**
 * The spec's table "Serverless endpoint (GraphQL record and creation input)": field → its Notes cell.
 * A minimal reader of the vendored spec, on purpose independent of the code under test.
 */
function specEndpointNotes(): Record<string, string> {
  const spec = fs.readFileSync(path.join(__dirname, "..", "..", "docs", "spec", "platform-api.md"), "utf8");
  const start = spec.indexOf("### Serverless endpoint (GraphQL record and creation input)");
  if (start < 0) throw new Error("the spec has no endpoint record table");
  const notes: Record<string, string> = {};
  const lines = spec.slice(start).split("\n").slice(1);
  for (const line of lines.slice(lines.findIndex((l) => l.startsWith("|")) + 2)) {
    if (!line.startsWith("|")) break;
    const [field, , note] = line
      .slice(1, -1)
      .split("|")
      .map((c) => c.trim());
    notes[field.replace(/`/g, "")] = note;
  }
  return notes;
}
/** The backticked values of a Notes cell, e.g. `QB`, `LB`. */
const codes = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

describe("the model's accepted values are the spec's", () => {
  const notes = specEndpointNotes();
  const values = (field: keyof typeof ENDPOINT_MODEL.fields) =>
    [...((ENDPOINT_MODEL.fields[field] as { rule: { values?: readonly string[] } }).rule.values ?? [])].sort();

  it.each(["gpuIds", "type", "locations", "fastBootType", "scalerType"] as const)("%s: the values the spec lists, no more, no fewer", (field) => {
    expect(notes[field]).toBeDefined();
    expect(values(field)).toEqual(codes(notes[field]).sort());
  });

  it('type defaults to the spec\'s default (QB, "(default)")', () => {
    expect(notes.type).toMatch(new RegExp(`\`${ENDPOINT_DEFAULTS.type}\` [^,]*\\(default\\)`));
  });

  it("locations: empty means any region, as the spec says, and is the default", () => {
    expect(notes.locations).toMatch(/empty or null means any region/);
    expect(ENDPOINT_DEFAULTS.locations).toEqual([]);
  });

  it("networkVolumeId is optional, null when none, and unset by default", () => {
    expect(notes.networkVolumeId).toMatch(/null when none/);
    expect(ENDPOINT_DEFAULTS.networkVolumeId).toBeNull();
  });

  it("every field of the spec's endpoint record that an endpoint is configured with is a model input", () => {
    const reportedOnly = ["id", "pods"];
    const inputs = Object.entries(ENDPOINT_MODEL.fields)
      .filter(([, f]) => f.kind === "input")
      .map(([k]) => k);
    expect(
      Object.keys(notes)
        .filter((f) => !reportedOnly.includes(f))
        .sort(),
    ).toEqual(inputs.filter((f) => notes[f] !== undefined).sort());
  });

  it("the README's GPU tier labels are the spec's (memory and family)", () => {
    const specLabels = Object.fromEntries([...notes.gpuIds.matchAll(/`([^`]+)` \(([^)]+)\)/g)].map((m) => [m[1], m[2].replace(/\s+/g, "")]));
    const labels = ENDPOINT_MODEL.fields.gpuIds.rule.labels ?? {};
    expect(Object.fromEntries(Object.entries(labels).map(([k, v]) => [k, v.replace(/\s+/g, "")]))).toEqual(specLabels);
  });

  it("rejects a value next to the spec's (lower case, unknown) for each enumerated field", () => {
    for (const field of ["type", "fastBootType", "scalerType"] as const) {
      const r = checkEndpointInputs({ ...base, [field]: values(field)[0].toLowerCase() });
      expect(r.failures.map((f) => f.property)).toEqual([field]);
    }
  });
});
