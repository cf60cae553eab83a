/**
 * Unit tests of the Endpoint diff: every field unchanged / in place / replace, and normalisation (issue
 * #4 "diff") — of `diffEndpoint`, of the provider's own `diff()` and of `diff` as the provider module
 * serves it to the dynamic provider host.
 */
import type { EndpointRecord } from "../../src/api/types";
import { resources } from "../../src/provider";
import { checkEndpointInputs } from "../../src/provider/endpoint/check";
import { diffEndpoint } from "../../src/provider/endpoint/diff";
import { ENDPOINT_INPUT_FIELDS, ENDPOINT_MODEL } from "../../src/provider/endpoint/model";
import { EndpointProvider } from "../../src/provider/endpoint/provider";
import { API_PATH_ENV_VAR } from "../../src/provider/apiPath";
import { PlatformSession } from "../../src/provider/session";
import { endpointStateFromGraphql } from "../../src/provider/endpoint/paths/graphql";
import { outputsFromRecord } from "../../src/provider/endpoint/state";
import { changeOf } from "../../src/provider/model/fields";
import { inPreviousOrder } from "../../src/provider/model/state";
import { renderChangePolicyTable } from "../../src/provider/model/tables";
import { UNKNOWN } from "../../src/provider/unknown";

/** A platform record as saveEndpoint answers for the inputs below. */
const record: EndpointRecord = {
  id: "abc123def456gh",
  name: "ep",
  templateId: "tpl_vllm",
  gpuIds: "ADA_24,AMPERE_24",
  type: "QB",
  idleTimeout: 5,
  locations: "US,FR",
  fastBootType: null,
  scalerType: "QUEUE_DELAY",
  scalerValue: 4,
  workersMin: 0,
  workersMax: 3,
  networkVolumeId: null,
};
const args = { name: "ep", templateId: "tpl_vllm", gpuIds: ["ADA_24", "AMPERE_24"], locations: ["US", "FR"] };

const checked = (a: Record<string, unknown>) => {
  const r = checkEndpointInputs(a);
  expect(r.failures).toEqual([]);
  return r.inputs;
};
const olds = (r: Partial<EndpointRecord> = {}, gpuTypeIds?: string[] | null) =>
  outputsFromRecord(endpointStateFromGraphql({ ...record, ...r }), gpuTypeIds, "http://x/v2/abc123def456gh/") as unknown as Record<string, unknown>;

describe("the update-vs-replace table", () => {
  it("covers every input field", () => {
    const withPolicy = Object.entries(ENDPOINT_MODEL.fields)
      .filter(([, f]) => f.kind === "input" && "change" in f && f.change !== undefined)
      .map(([k]) => k);
    expect(withPolicy.sort()).toEqual([...ENDPOINT_INPUT_FIELDS].sort());
  });

  it("replaces only on type and gpuTypeIds", () => {
    const replacing = ENDPOINT_INPUT_FIELDS.filter((f) => changeOf(ENDPOINT_MODEL, f).policy === "replace");
    expect(replacing.sort()).toEqual(["gpuTypeIds", "type"]);
  });

  it("renders a README table with one row per field", () => {
    const table = renderChangePolicyTable(ENDPOINT_MODEL);
    for (const f of ENDPOINT_INPUT_FIELDS) expect(table).toMatch(new RegExp(`^\\| \`${f}\` \\| (update in place|replace) \\|`, "m"));
  });
});

describe("diffEndpoint: nothing changed", () => {
  it("reports no change between the platform's answer and the inputs it was created from", () => {
    expect(diffEndpoint(olds(), checked(args))).toEqual({ changes: false, changed: [], replaces: [], deleteBeforeReplace: false });
  });

  it("reports no change for every explicitly set field equal to the platform's answer", () => {
    const full = {
      ...args,
      type: "LB",
      idleTimeout: 60,
      fastBootType: "FASTBOOT",
      scalerType: "REQUEST_COUNT",
      scalerValue: 9,
      workersMin: 1,
      workersMax: 5,
      networkVolumeId: "nv_models01",
    };
    const o = olds({
      type: "LB",
      idleTimeout: 60,
      fastBootType: "FASTBOOT",
      scalerType: "REQUEST_COUNT",
      scalerValue: 9,
      workersMin: 1,
      workersMax: 5,
      networkVolumeId: "nv_models01",
    });
    expect(diffEndpoint(o, checked(full)).changes).toBe(false);
  });
});

/** One row per field: a new input value and whether it applies in place or replaces. */
const CHANGES: [field: string, newArgs: Record<string, unknown>, kind: "update" | "replace"][] = [
  ["name", { name: "ep-renamed" }, "update"],
  ["templateId", { templateId: "tpl_comfy" }, "update"],
  ["gpuIds", { gpuIds: ["AMPERE_80"] }, "update"],
  ["type", { type: "LB" }, "replace"],
  ["idleTimeout", { idleTimeout: 30 }, "update"],
  ["locations", { locations: ["US"] }, "update"],
  ["scalerType", { scalerType: "REQUEST_COUNT" }, "update"],
  ["scalerValue", { scalerValue: 10 }, "update"],
  ["workersMin", { workersMin: 1 }, "update"],
  ["workersMax", { workersMax: 10 }, "update"],
  ["networkVolumeId", { networkVolumeId: "nv_models01" }, "update"],
];

describe("diffEndpoint: one field changed", () => {
  it.each(CHANGES)("%s %j → %s", (field, change, kind) => {
    const d = diffEndpoint(olds(), checked({ ...args, ...change }));
    expect(d.changes).toBe(true);
    expect(d.changed).toEqual([field]);
    expect(d.replaces).toEqual(kind === "replace" ? [field] : []);
    expect(d.deleteBeforeReplace).toBe(false);
  });

  it.each([{ flashboot: "FLASHBOOT" }, { fastBootType: "FASTBOOT" }, { fastBoot: true }])(
    "flashboot: %j → update (GraphQL's fastBootType changes with it)",
    (change) => {
      const d = diffEndpoint(olds(), checked({ ...args, ...change }));
      expect(d.changed).toEqual(["flashboot", "fastBootType"]);
      expect(d.replaces).toEqual([]);
    },
  );

  it("flashboot: FLASHBOOT → PRIORITY_FLASHBOOT is an update of flashboot alone", () => {
    const d = diffEndpoint(olds({ flashboot: "FLASHBOOT", fastBootType: "FASTBOOT" } as never), checked({ ...args, flashboot: "PRIORITY_FLASHBOOT" }));
    expect(d.changed).toEqual(["flashboot"]);
  });

  it("shows drift: a field changed on the platform differs from the unchanged inputs", () => {
    const d = diffEndpoint(olds({ workersMax: 9, idleTimeout: 120 }), checked(args));
    expect(d.changed).toEqual(["idleTimeout", "workersMax"]);
    expect(d.replaces).toEqual([]);
  });

  it("removing the network volume is an in-place change", () => {
    const d = diffEndpoint(olds({ networkVolumeId: "nv_models01" }), checked(args));
    expect(d.changed).toEqual(["networkVolumeId"]);
  });

  it("replacement is create-before-delete, also when the name stays", () => {
    const d = diffEndpoint(olds(), checked({ ...args, type: "LB" }));
    expect(d.replaces).toEqual(["type"]);
    expect(d.deleteBeforeReplace).toBe(false);
  });
});

/**
 * The provider's `diff()` itself (what the engine gets), directly and through the provider module's
 * `resources.endpoint`, on GraphQL: there endpoints follow their template, so diff needs no client (on
 * REST v2 it compares the endpoint's container with its template live: templateReapply.integration.test.ts).
 */
describe.each([
  [
    "EndpointProvider.diff",
    (o: Record<string, unknown>, n: Record<string, unknown>) =>
      new EndpointProvider(
        new PlatformSession(
          () => {
            throw new Error("diff needs no client");
          },
          { api: "graphql" },
        ),
      ).diff("abc123def456gh", o, n),
  ],
  ["resources.endpoint.diff", (o: Record<string, unknown>, n: Record<string, unknown>) => resources.endpoint.diff("abc123def456gh", o, n)],
])("%s: the result the engine acts on", (_name, diff) => {
  const before = process.env[API_PATH_ENV_VAR];
  beforeAll(() => {
    process.env[API_PATH_ENV_VAR] = "graphql";
  });
  afterAll(() => {
    if (before === undefined) delete process.env[API_PATH_ENV_VAR];
    else process.env[API_PATH_ENV_VAR] = before;
  });
  it.each(CHANGES)("%s %j → changes, and replaces exactly when the policy says %s", async (field, change, kind) => {
    const d = await diff(olds(), checked({ ...args, ...change }));
    expect(d.changes).toBe(true);
    expect(d.replaces ?? []).toEqual(kind === "replace" ? [field] : []);
    expect(d.deleteBeforeReplace).toBe(false);
  });

  it("type changed → replaces contains type", async () => {
    expect((await diff(olds(), checked({ ...args, type: "LB" }))).replaces).toContain("type");
  });

  it("gpuIds → gpuTypeIds → replaces contains gpuTypeIds; the reverse updates in place", async () => {
    expect((await diff(olds(), checked({ name: "ep", templateId: "tpl_vllm", gpuTypeIds: ["NVIDIA L4"], locations: ["US", "FR"] }))).replaces).toEqual([
      "gpuTypeIds",
    ]);
    expect((await diff(olds({}, ["NVIDIA L4"]), checked(args))).replaces ?? []).toEqual([]);
  });

  it("nothing changed, or only a provider setting → no changes", async () => {
    expect((await diff(olds(), checked(args))).changes).toBe(false);
    expect((await diff(olds(), checked({ ...args, waitForWorkers: true, workersReadyTimeout: 30 }))).changes).toBe(false);
  });
});

describe("diffEndpoint: normalisation", () => {
  it("locations: order does not matter", () => {
    expect(diffEndpoint(olds({ locations: "FR,US" }), checked(args)).changes).toBe(false);
  });

  it("locations: null, empty string and [] all mean any region", () => {
    const any = checked({ ...args, locations: [] });
    expect(diffEndpoint(olds({ locations: null }), any).changes).toBe(false);
    expect(diffEndpoint(olds({ locations: "" }), any).changes).toBe(false);
    expect(diffEndpoint(olds({ locations: null }), checked({ ...args, locations: undefined })).changes).toBe(false);
  });

  it("gpuIds: order matters (priority list) and is an in-place change", () => {
    const d = diffEndpoint(olds(), checked({ ...args, gpuIds: ["AMPERE_24", "ADA_24"] }));
    expect(d.changed).toEqual(["gpuIds"]);
    expect(d.replaces).toEqual([]);
  });

  it("unset equals default: an older state without a field, or null from the platform, equals the default input", () => {
    const o = olds();
    delete o.idleTimeout;
    delete o.scalerType;
    expect(diffEndpoint(o, checked(args)).changes).toBe(false);
    expect(diffEndpoint(olds({ scalerValue: null, idleTimeout: null, scalerType: null }), checked(args)).changes).toBe(false);
  });

  it("fastBootType: absent equals null; fastBoot: false equals no fast boot", () => {
    const o = olds();
    delete o.fastBootType;
    expect(diffEndpoint(o, checked({ ...args, fastBoot: false })).changes).toBe(false);
  });

  it("networkVolumeId: empty string equals none", () => {
    expect(diffEndpoint(olds({ networkVolumeId: "" as unknown as null }), checked(args)).changes).toBe(false);
  });
});

describe("diffEndpoint: GPU type names", () => {
  const types = ["NVIDIA GeForce RTX 4090", "NVIDIA RTX A5000"];
  const typeArgs = { name: "ep", templateId: "tpl_vllm", gpuTypeIds: types, locations: ["US", "FR"] };

  it("no change when the same type names are given (the platform's tiers are not compared)", () => {
    expect(diffEndpoint(olds({}, types), checked(typeArgs)).changes).toBe(false);
  });

  it("gpuTypeIds order matters and replaces", () => {
    const d = diffEndpoint(olds({}, types), checked({ ...typeArgs, gpuTypeIds: [...types].reverse() }));
    expect(d.changed).toEqual(["gpuTypeIds"]);
    expect(d.replaces).toEqual(["gpuTypeIds"]);
  });

  it("switching from gpuIds to gpuTypeIds replaces", () => {
    const d = diffEndpoint(olds(), checked(typeArgs));
    expect(d.replaces).toEqual(["gpuTypeIds"]);
  });

  it("switching from gpuTypeIds to gpuIds updates in place", () => {
    const d = diffEndpoint(olds({}, types), checked(args));
    expect(d.changed).toEqual(["gpuIds"]);
    expect(d.replaces).toEqual([]);
  });

  it("type names cleared by a refresh that saw the tiers drift → replace to restore them", () => {
    const d = diffEndpoint(olds({ gpuIds: "AMPERE_80" }, null), checked(typeArgs));
    expect(d.replaces).toEqual(["gpuTypeIds"]);
  });
});

describe("diffEndpoint: values unknown during preview", () => {
  it.each(CHANGES.filter(([f], i, all) => all.findIndex(([g]) => g === f) === i))("unknown %s counts as changed, with its policy", (field, _c, kind) => {
    const news = checked(args);
    news[field] = UNKNOWN;
    const d = diffEndpoint(olds(), news);
    expect(d.changed).toEqual([field]);
    expect(d.replaces).toEqual(kind === "replace" ? [field] : []);
  });

  it("an unknown element in a list counts as changed", () => {
    expect(diffEndpoint(olds(), checked({ ...args, locations: ["US", UNKNOWN] })).changed).toEqual(["locations"]);
  });

  it("unknown gpuTypeIds replace", () => {
    expect(diffEndpoint(olds({}, ["A"]), { ...checked({ ...args, gpuIds: undefined, gpuTypeIds: ["A"] }), gpuTypeIds: UNKNOWN }).replaces).toEqual([
      "gpuTypeIds",
    ]);
  });
});

describe("diffEndpoint: provider-only settings (waitForWorkers, workersReadyTimeout)", () => {
  const withSettings = (s: Record<string, unknown>) => ({ ...olds(), ...s });

  it.each([
    ["waitForWorkers turned on", { waitForWorkers: true }],
    ["workersReadyTimeout raised", { workersReadyTimeout: 1800 }],
    ["both changed", { waitForWorkers: true, workersReadyTimeout: 5 }],
  ])("%s alone → no change (no update, no replace)", (_desc, change) => {
    expect(diffEndpoint(olds(), checked({ ...args, ...change }))).toEqual({ changes: false, changed: [], replaces: [], deleteBeforeReplace: false });
  });

  it("turning them off again, or an older state without them, is no change either", () => {
    expect(diffEndpoint(withSettings({ waitForWorkers: true, workersReadyTimeout: 30 }), checked(args)).changes).toBe(false);
    const o = olds();
    delete o.waitForWorkers;
    delete o.workersReadyTimeout;
    expect(diffEndpoint(o, checked({ ...args, waitForWorkers: true })).changes).toBe(false);
  });

  it("unknown during preview → still no change", () => {
    const news = checked(args);
    news.waitForWorkers = UNKNOWN;
    news.workersReadyTimeout = UNKNOWN;
    expect(diffEndpoint(olds(), news).changes).toBe(false);
  });

  it("next to a real change, only the real change is listed", () => {
    const d = diffEndpoint(olds(), checked({ ...args, waitForWorkers: true, workersMin: 1 }));
    expect(d.changed).toEqual(["workersMin"]);
  });

  it("outputs carry the settings given, or their defaults", () => {
    expect(olds()).toMatchObject({ waitForWorkers: false, workersReadyTimeout: 600 });
    expect(outputsFromRecord(endpointStateFromGraphql(record), undefined, "u", { waitForWorkers: true, workersReadyTimeout: 30 })).toMatchObject({
      waitForWorkers: true,
      workersReadyTimeout: 30,
    });
  });

  it("the README table lists them as never compared", () => {
    const table = renderChangePolicyTable(ENDPOINT_MODEL);
    for (const f of ["waitForWorkers", "workersReadyTimeout"]) expect(table).toMatch(new RegExp(`^\\| \`${f}\` \\| no diff \\| not compared \\|`, "m"));
  });
});

describe("inPreviousOrder (locations after a refresh)", () => {
  it("keeps the previous order when the regions are the same set", () => {
    expect(inPreviousOrder(["FR", "US"], ["US", "FR"])).toEqual(["US", "FR"]);
    expect(inPreviousOrder([], [])).toEqual([]);
  });

  it("takes the platform's list when the regions differ, or nothing usable was stored", () => {
    expect(inPreviousOrder(["FR", "US", "RO"], ["US", "FR"])).toEqual(["FR", "US", "RO"]);
    expect(inPreviousOrder(["FR"], ["US"])).toEqual(["FR"]);
    expect(inPreviousOrder(["FR", "US"], undefined)).toEqual(["FR", "US"]);
    expect(inPreviousOrder(["FR", "US"], "US,FR")).toEqual(["FR", "US"]);
    expect(inPreviousOrder(["FR", "US"], ["US", "US"])).toEqual(["FR", "US"]);
  });
});
