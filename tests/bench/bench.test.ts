/**
 * The benchmark's counting logic (bench/): the API floor issues exactly the requests the spec needs
 * for each kind (endpoints, templates), `measure` counts only what its action sent, the pool keeps to
 * its parallelism, and rows are built from medians. Against the in-process emulator over HTTP, with N = 2; no timings are asserted.
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator, type RunningEmulator } from "../../emulator";
import { createClient, resolveClientConfig, type PlatformClient } from "../../src/api";
import { BENCH_TEMPLATE, benchImageName, runApiFloor, UPDATED_IMAGE_TAG } from "../../bench/apiFloor";
import { parseDefaultParallelism } from "../../bench/cliInfo";
import { forEachLimited } from "../../bench/pool";
import { cpuRatio, formatTable, median, resultRow } from "../../bench/report";
import { RssProbe } from "../../bench/rss";
import { apiList, kindList } from "../../bench/options";
import {
  BENCH_APIS,
  CATALOG_OPERATIONS,
  OPERATIONS,
  callsNeeded,
  catalogMade,
  catalogNeeded,
  catalogOperationsNeeded,
  measure,
  requestsNeeded,
  type Measurement,
} from "../../bench/requests";

/** One catalog read, by operation name. */
const CATALOG = Object.fromEntries(CATALOG_OPERATIONS.map((op) => [op, 1]));

let emu: RunningEmulator;
let client: PlatformClient;

beforeAll(async () => {
  // The platform's own save semantics; the merge pass (tests/tiers.js) covers merge with faster scenarios.
  emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 20, logIntervalMs: 5000, jobDurationMs: 50, saveSemantics: "replace" });
  client = createClient(
    resolveClientConfig(
      { apiKey: emu.apiKey, graphqlUrl: emu.urls.graphql, restV1Url: emu.urls.restV1, restV2Url: emu.urls.restV2, inferenceUrl: emu.urls.inference },
      {},
    ),
  );
});
afterAll(() => emu.close());

describe("API floor", () => {
  it("endpoints, N = 2: each operation makes exactly the requests needed, of the expected kinds, and leaves nothing behind", async () => {
    const prefix = `floor-test-${Date.now().toString(36)}`;
    const floor = await runApiFloor("endpoints", client, emu, { n: 2, parallelism: 8, prefix });
    for (const op of OPERATIONS) expect({ op, requests: floor[op].requests }).toEqual({ op, requests: requestsNeeded("endpoints", op, 2) });
    // `myself` is the template listing (preview, create: the templateId check) or the endpoint listing (refresh).
    expect(floor.preview.byOperation).toEqual({ myself: 1, ...CATALOG });
    expect(floor.create.byOperation).toEqual({ myself: 1, saveEndpoint: 2, ...CATALOG });
    expect(floor.refresh.byOperation).toEqual({ myself: 1 });
    expect(floor.update.byOperation).toEqual({ saveEndpoint: 2 });
    expect(floor.destroy.byOperation).toEqual({ listWorkers: 2, saveEndpoint: 2, deleteEndpoint: 2 });
    expect(emu.endpoints(emu.apiKey).filter((e) => e.name.startsWith(prefix))).toEqual([]);
  });

  it("templates, N = 2: each operation makes exactly the requests needed, rolls the image, and leaves nothing behind", async () => {
    const prefix = `floor-tpl-test-${Date.now().toString(36)}`;
    const mine = () => emu.templates(emu.apiKey).filter((t) => t.name.startsWith(prefix));
    const floor = await runApiFloor("templates", client, emu, { n: 2, parallelism: 8, prefix });
    for (const op of OPERATIONS) expect({ op, requests: floor[op].requests }).toEqual({ op, requests: requestsNeeded("templates", op, 2) });
    expect(floor.preview.byOperation).toEqual({});
    expect(floor.create.byOperation).toEqual({ saveTemplate: 2 });
    expect(floor.refresh.byOperation).toEqual({ myself: 1 });
    // The update's `myself` is the endpoint listing: the endpoints using a template follow its rollout.
    expect(floor.update.byOperation).toEqual({ saveTemplate: 2, myself: 1 });
    expect(floor.destroy.byOperation).toEqual({ myself: 1, deleteTemplate: 2 });
    expect(mine()).toEqual([]);
  });

  it("templates: the update modifies each template in place onto the new image, env kept", async () => {
    const prefix = `floor-tpl-upd-${Date.now().toString(36)}`;
    const seen: { image: string[]; env: unknown[] } = { image: [], env: [] };
    // Snapshots this floor's templates before each measured operation (measure resets the counter first).
    const counter = {
      resetStats: () => {
        const mine = emu.templates(emu.apiKey).filter((t) => t.name.startsWith(prefix));
        seen.image.push(mine.map((t) => t.imageName).join(","));
        seen.env.push(mine.map((t) => t.env));
        emu.resetStats();
      },
      stats: () => emu.stats(),
    };
    await runApiFloor("templates", client, counter, { n: 2, parallelism: 8, prefix });
    // Before each of preview, create, refresh, update, destroy:
    expect(seen.image).toEqual([
      "",
      "",
      `${benchImageName(BENCH_TEMPLATE.imageTag)},${benchImageName(BENCH_TEMPLATE.imageTag)}`,
      `${benchImageName(BENCH_TEMPLATE.imageTag)},${benchImageName(BENCH_TEMPLATE.imageTag)}`,
      `${benchImageName(UPDATED_IMAGE_TAG)},${benchImageName(UPDATED_IMAGE_TAG)}`,
    ]);
    expect(seen.env[4]).toEqual([[{ key: "MODEL", value: "llama-3-8b" }], [{ key: "MODEL", value: "llama-3-8b" }]]);
  });

  it("REST v2, endpoints N = 2: each operation makes exactly the requests needed, of the expected kinds, and leaves nothing behind", async () => {
    const prefix = `floor-v2-test-${Date.now().toString(36)}`;
    const floor = await runApiFloor("endpoints", client, emu, { n: 2, parallelism: 8, prefix }, "v2");
    for (const op of OPERATIONS) expect({ op, requests: floor[op].requests }).toEqual({ op, requests: requestsNeeded("endpoints", op, 2, "v2") });
    expect(floor.preview.byOperation).toEqual({ listTemplates: 1, ...CATALOG });
    expect(floor.create.byOperation).toEqual({ listTemplates: 1, createEndpoint: 2, ...CATALOG });
    // The copy each endpoint runs against its template's settings (templateCurrent; the update's diff), and
    // each endpoint's releases (the engine diffs a refresh's outputs; the diff compares the release followed).
    expect(floor.refresh.byOperation).toEqual({ listEndpoints: 1, listTemplates: 1, listEndpointReleases: 2 });
    expect(floor.update.byOperation).toEqual({ listEndpoints: 1, listTemplates: 1, listEndpointReleases: 4, updateEndpoint: 2 });
    expect(floor.destroy.byOperation).toEqual({ listWorkers: 2, deleteEndpoint: 2 });
    expect(emu.endpoints(emu.apiKey).filter((e) => e.name.startsWith(prefix))).toEqual([]);
  });

  it("REST v2, templates N = 2: each operation makes exactly the requests needed, rolls the image, and leaves nothing behind", async () => {
    const prefix = `floor-v2-tpl-${Date.now().toString(36)}`;
    const images: string[] = [];
    const counter = {
      resetStats: () => {
        images.push(
          emu
            .templates(emu.apiKey)
            .filter((t) => t.name.startsWith(prefix))
            .map((t) => t.imageName)
            .join(","),
        );
        emu.resetStats();
      },
      stats: () => emu.stats(),
    };
    const floor = await runApiFloor("templates", client, counter, { n: 2, parallelism: 8, prefix }, "v2");
    for (const op of OPERATIONS) expect({ op, requests: floor[op].requests }).toEqual({ op, requests: requestsNeeded("templates", op, 2, "v2") });
    expect(floor.preview.byOperation).toEqual({});
    expect(floor.create.byOperation).toEqual({ createTemplate: 2 });
    expect(floor.refresh.byOperation).toEqual({ listTemplates: 1 });
    expect(floor.update.byOperation).toEqual({ updateTemplate: 2 });
    expect(floor.destroy.byOperation).toEqual({ deleteTemplate: 2 });
    // Before the destroy, both templates are on the new image.
    expect(images[4]).toBe(`${benchImageName(UPDATED_IMAGE_TAG)},${benchImageName(UPDATED_IMAGE_TAG)}`);
    expect(emu.templates(emu.apiKey).filter((t) => t.name.startsWith(prefix))).toEqual([]);
  });

  // Network volumes and pods speak REST v2 whatever runpod:api says: the same floor on both paths.
  it.each(BENCH_APIS)(
    "network volumes on runpod:api %s, N = 2: each operation makes exactly the requests needed, REST v2 only, and leaves nothing behind",
    async (api) => {
      const prefix = `floor-vol-${api}-${Date.now().toString(36)}`;
      const floor = await runApiFloor("networkVolumes", client, emu, { n: 2, parallelism: 8, prefix }, api);
      for (const op of OPERATIONS) expect({ op, requests: floor[op].requests }).toEqual({ op, requests: requestsNeeded("networkVolumes", op, 2, api) });
      expect(floor.preview.byOperation).toEqual({ listDataCenters: 1 });
      expect(floor.create.byOperation).toEqual({ listDataCenters: 1, createNetworkVolume: 2 });
      expect(floor.refresh.byOperation).toEqual({ listNetworkVolumes: 1 });
      expect(floor.update.byOperation).toEqual({ listDataCenters: 1, updateNetworkVolume: 2 });
      expect(floor.destroy.byOperation).toEqual({ deleteNetworkVolume: 2 });
      expect((await client.v2.listNetworkVolumes()).filter((v) => v.name.startsWith(prefix))).toEqual([]);
    },
  );

  it.each(BENCH_APIS)(
    "CPU pods on runpod:api %s, N = 2: each operation makes exactly the requests needed, REST v2 only, and leaves nothing behind",
    async (api) => {
      const prefix = `floor-pod-${api}-${Date.now().toString(36)}`;
      const floor = await runApiFloor("pods", client, emu, { n: 2, parallelism: 8, prefix }, api);
      for (const op of OPERATIONS) expect({ op, requests: floor[op].requests }).toEqual({ op, requests: requestsNeeded("pods", op, 2, api) });
      expect(floor.preview.byOperation).toEqual({ listCpuTypes: 1 });
      expect(floor.create.byOperation).toEqual({ listCpuTypes: 1, createPod: 2 });
      expect(floor.refresh.byOperation).toEqual({ listPods: 1 });
      expect(floor.update.byOperation).toEqual({ updatePod: 2 });
      expect(floor.destroy.byOperation).toEqual({ deletePod: 2 });
      expect((await client.v2.listPods()).filter((p) => p.name.startsWith(prefix))).toEqual([]);
    },
  );

  it("network volumes and pods need the same on both paths: the catalog's data centers (volumes: preview, create and the size's update) or CPU flavors (CPU pods: preview, create), one call per create, update and delete, one listing per refresh", () => {
    for (const api of BENCH_APIS) {
      expect(OPERATIONS.map((op) => callsNeeded("networkVolumes", op, 7, api))).toEqual([1, 8, 1, 8, 7]);
      expect(OPERATIONS.map((op) => requestsNeeded("networkVolumes", op, 7, api))).toEqual([1, 8, 1, 8, 7]);
      expect(OPERATIONS.map((op) => requestsNeeded("pods", op, 7, api))).toEqual([1, 8, 1, 7, 7]);
    }
    expect(OPERATIONS.map((op) => catalogOperationsNeeded("networkVolumes", op, 7))).toEqual([
      ["listDataCenters"],
      ["listDataCenters"],
      [],
      ["listDataCenters"],
      [],
    ]);
    expect(OPERATIONS.map((op) => catalogOperationsNeeded("pods", op, 7))).toEqual([["listCpuTypes"], ["listCpuTypes"], [], [], []]);
    expect(OPERATIONS.map((op) => requestsNeeded("pods", op, 0))).toEqual([0, 0, 0, 0, 0]);
    expect(OPERATIONS.map((op) => requestsNeeded("networkVolumes", op, 0))).toEqual([0, 0, 0, 0, 0]);
  });

  it("the catalog is needed once per preview and create of endpoints, whatever N, on both paths; never for templates or other operations", () => {
    expect(OPERATIONS.map((op) => catalogNeeded("endpoints", op, 200))).toEqual([3, 3, 0, 0, 0]);
    expect(OPERATIONS.map((op) => catalogNeeded("templates", op, 200))).toEqual([0, 0, 0, 0, 0]);
    expect(catalogNeeded("endpoints", "preview", 0)).toBe(0);
    expect(catalogMade({ listGpuTypes: 1, listCpuTypes: 1, listDataCenters: 1, listTemplates: 1 })).toBe(3);
  });

  it("REST v2 needed counts: endpoints 1 listing + catalog for a preview, 1 call per create (plus those), the endpoint and template listings plus each endpoint's releases for a refresh, the listings before the updates (the template re-apply comparison) and 2 release listings + 1 PATCH per update, 2 per delete (workers, delete); templates delete by id", () => {
    expect(OPERATIONS.map((op) => callsNeeded("endpoints", op, 7, "v2"))).toEqual([4, 11, 9, 23, 14]);
    expect(OPERATIONS.map((op) => requestsNeeded("endpoints", op, 7, "v2"))).toEqual([4, 11, 9, 23, 14]);
    expect(OPERATIONS.map((op) => requestsNeeded("templates", op, 7, "v2"))).toEqual([0, 7, 1, 7, 7]);
    expect(requestsNeeded("endpoints", "refresh", 0, "v2")).toBe(0);
    expect(requestsNeeded("endpoints", "update", 0, "v2")).toBe(0);
  });

  it("the needed counts follow the spec: endpoints 1 listing (plus the catalog) for a preview, 1 call per create (plus those) and update, 3 per delete (the worker listing, then 2 in 1 request), one listing for a refresh", () => {
    expect(OPERATIONS.map((op) => callsNeeded("endpoints", op, 7))).toEqual([4, 11, 1, 7, 21]);
    expect(OPERATIONS.map((op) => requestsNeeded("endpoints", op, 7))).toEqual([4, 11, 1, 7, 14]);
    expect(requestsNeeded("endpoints", "refresh", 0)).toBe(0);
    expect(requestsNeeded("endpoints", "create", 0)).toBe(0);
  });

  it("templates: nothing for a preview, 1 call per create, 1 per update plus the endpoint listing (the rollout's users), one listing for a refresh, one listing plus 1 call per delete", () => {
    expect(OPERATIONS.map((op) => callsNeeded("templates", op, 7))).toEqual([0, 7, 1, 8, 8]);
    expect(OPERATIONS.map((op) => requestsNeeded("templates", op, 7))).toEqual([0, 7, 1, 8, 8]);
    expect(requestsNeeded("templates", "destroy", 0)).toBe(0);
    expect(requestsNeeded("templates", "update", 0)).toBe(0);
  });
});

describe("measure", () => {
  it("counts only the requests its action sent (stats are reset first), per operation", async () => {
    await client.listEndpoints();
    await client.listNetworkVolumes();
    const m = await measure(emu, async () => {
      await client.listEndpoints();
      await Promise.all([client.listNetworkVolumes(), client.listNetworkVolumes()]);
    });
    expect(m.requests).toBe(3);
    expect(m.byOperation).toEqual({ myself: 1, listNetworkVolumes: 2 });
    expect(m.ms).toBeGreaterThan(0);
  });

  it("passes the action's error on", async () => {
    await expect(measure(emu, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
  });
});

describe("forEachLimited", () => {
  it("runs every item once with never more than `parallelism` in flight", async () => {
    let inFlight = 0;
    let most = 0;
    const seen: number[] = [];
    await forEachLimited([...Array(20).keys()], 3, async (item) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setImmediate(r));
      seen.push(item);
      inFlight--;
    });
    expect(most).toBe(3);
    expect([...seen].sort((a, b) => a - b)).toEqual([...Array(20).keys()]);
  });

  it("rejects with the first error and refuses a parallelism below 1", async () => {
    await expect(
      forEachLimited([1, 2, 3], 2, async (i) => {
        if (i === 2) throw new Error("item 2");
      }),
    ).rejects.toThrow("item 2");
    await expect(forEachLimited([1], 0, async () => undefined)).rejects.toThrow(/parallelism/);
  });
});

describe("report", () => {
  const m = (ms: number, requests: number): Measurement => ({ ms, requests, byOperation: { saveEndpoint: requests }, localCpuMs: 1 });

  it("a row holds the median times, the ratio to the larger floor and the most requests of any run", () => {
    const row = resultRow("endpoints", "create", 2, [m(300, 3), m(100, 3), m(200, 4)], [m(150, 0), m(50, 0), m(100, 0)], [m(10, 2), m(30, 2), m(20, 2)], {
      requests: 2,
      calls: 2,
    });
    expect(row).toMatchObject({
      kind: "endpoints",
      operation: "create",
      oursMs: 200,
      engineFloorMs: 100,
      apiFloorMs: 20,
      ratio: 2,
      requestsMade: 4,
      requestsNeeded: 2,
      callsMade: 4,
      callsNeeded: 2,
      apiFloorRequests: 2,
      engineFloorRequests: 0,
    });
    expect(row.runsMs.ours).toEqual([300, 100, 200]);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("the table has the required columns and one line per row", () => {
    const destroyRun: Measurement = { ms: 2500, requests: 3, byOperation: { saveEndpoint: 2, deleteEndpoint: 2, myself: 1 }, localCpuMs: 1 };
    const row = resultRow("templates", "destroy", 2, [destroyRun], [m(2000, 0)], [m(100, 2)], { requests: 2, calls: 4 });
    const lines = formatTable([row]).split("\n");
    expect(lines[0].split(/\s{2,}/)).toEqual([
      "resource",
      "provider",
      "api",
      "operation",
      "N",
      "ours s",
      "engine floor s",
      "API floor s",
      "ratio",
      "CPU ratio",
      "requests made",
      "requests needed",
      "calls made",
      "calls needed",
      "catalog made",
      "catalog needed",
    ]);
    // No CPU figures in these runs: the CPU ratio is unknown.
    expect(lines[2].split(/\s+/)).toEqual([
      "templates",
      "dynamic",
      "graphql",
      "destroy",
      "2",
      "2.50",
      "2.00",
      "0.10",
      "1.25x",
      "?",
      "3",
      "2",
      "5",
      "4",
      "0",
      "0",
    ]);
  });

  it("a row names its API path and counts the catalog requests of the run with the most requests", () => {
    const run = (requests: number, byOperation: Record<string, number>): Measurement => ({ ms: 100, requests, byOperation, localCpuMs: 1 });
    const row = resultRow(
      "endpoints",
      "preview",
      50,
      [run(4, { listTemplates: 1, ...CATALOG }), run(7, { listTemplates: 1, listGpuTypes: 2, listCpuTypes: 2, listDataCenters: 2 })],
      [run(0, {}), run(0, {})],
      [run(4, {}), run(4, {})],
      { requests: 4, calls: 4, catalog: 3 },
      "v2",
    );
    expect(row).toMatchObject({ api: "v2", requestsMade: 7, requestsNeeded: 4, catalogMade: 6, catalogNeeded: 3 });
    expect(formatTable([row]).split("\n")[2].split(/\s+/).slice(0, 4)).toEqual(["endpoints", "dynamic", "v2", "preview"]);
    // The plugin's rows share the floors and needed counts; the table names what served them.
    expect(
      formatTable([{ ...row, provider: "plugin" }])
        .split("\n")[2]
        .split(/\s+/)
        .slice(0, 4),
    ).toEqual(["endpoints", "plugin", "v2", "preview"]);
  });

  it("the CPU ratio is the median child CPU of our runs over the engine floor's; peak RSS is the largest of any run, per process", () => {
    const run = (ms: number, cpu: number, program: number | undefined, providerHost: number, load1: number): Measurement => ({
      ms,
      requests: 0,
      byOperation: {},
      localCpuMs: 1,
      childCpuMs: cpu,
      peakRssMb: program === undefined ? { providerHost } : { program, providerHost },
      load1,
    });
    const row = resultRow(
      "endpoints",
      "refresh",
      50,
      [run(100, 1100, 200, 150, 3), run(100, 1300, 210, 140, 4), run(100, 1200, undefined, 160, 5)],
      [run(100, 1000, 190, 130, 3), run(100, 1000, 180, 135, 4), run(100, 1000, 185, 120, 5)],
      [run(10, 0, undefined, 0, 0)],
      { requests: 0, calls: 0 },
    );
    expect(cpuRatio(row)).toBe(1.2);
    expect(row.peakRssMb).toEqual({ ours: { program: 210, providerHost: 160 }, engineFloor: { program: 190, providerHost: 135 } });
    expect(row.load1).toEqual([3, 4, 5]);
    expect(formatTable([row]).split("\n")[2].split(/\s+/)[9]).toBe("1.20x");
  });
});

describe("peak RSS and CPU per process", () => {
  it("a program process and a provider host started with the probe's environment report their peaks and CPU times; other processes are ignored", async () => {
    const probe = new RssProbe();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rss-test-"));
    try {
      // Stand-ins named like the engine's scripts (@pulumi/pulumi/cmd/run, cmd/dynamic-provider).
      const scripts = ["cmd/run/index.js", "cmd/dynamic-provider/index.js", "other.js"].map((rel) => {
        const file = path.join(dir, rel);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, "globalThis.keep = Buffer.alloc(64 * 1024 * 1024, 1);\n");
        return file;
      });
      for (const script of scripts) execFileSync(process.execPath, [script], { env: { ...process.env, ...probe.env } });
      const { peakRssMb: peak, cpuMs } = probe.take();
      expect(Object.keys(peak).sort()).toEqual(["program", "providerHost"]);
      // Each held 64 MB.
      expect(peak.program).toBeGreaterThan(64);
      expect(peak.providerHost).toBeGreaterThan(64);
      // Each ran node's start-up and filled 64 MB: some CPU time, reported per role.
      expect(Object.keys(cpuMs).sort()).toEqual(["program", "providerHost"]);
      expect(cpuMs.program).toBeGreaterThan(0);
      expect(cpuMs.providerHost).toBeGreaterThan(0);
      expect(probe.take()).toEqual({ peakRssMb: {}, cpuMs: {} });
    } finally {
      probe.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("plugin program", () => {
  it("declares N endpoints with the dynamic program's inputs, the plugin from this repository, and idleTimeout as a typed config value", async () => {
    const { pluginProgramText } = await import("../../bench/stacks");
    const text = pluginProgramText(3, "bench-plugin-x");
    expect(text).toContain(`path: ${JSON.stringify(path.join(__dirname, "..", "..", "bin"))}`);
    expect(fs.existsSync(path.join(__dirname, "..", "..", "bin", "pulumi-resource-runpod"))).toBe(true);
    const names = [...text.matchAll(/^ {2}(bench-plugin-x-\d+):$/gm)].map((m) => m[1]);
    expect(names).toEqual(["bench-plugin-x-0", "bench-plugin-x-1", "bench-plugin-x-2"]);
    expect(text.match(/type: runpod:index:Endpoint/g)).toHaveLength(3);
    expect(text.match(/idleTimeout: \$\{idleTimeout\}/g)).toHaveLength(3);
    expect(text).toMatch(/config:\n {2}idleTimeout:\n {4}type: integer\n {4}default: 30\n/);
  });
});

describe("options", () => {
  it("--kinds takes benchmarked kinds, run in the benchmark's order, without repeats, and names the allowed values otherwise", () => {
    expect(kindList("pods,networkVolumes")).toEqual(["networkVolumes", "pods"]);
    expect(kindList(" endpoints , endpoints")).toEqual(["endpoints"]);
    expect(kindList("templates,endpoints,pods,networkVolumes")).toEqual(["endpoints", "templates", "networkVolumes", "pods"]);
    expect(() => kindList("volumes")).toThrow('expected one or more of endpoints, templates, networkVolumes, pods, comma-separated; got "volumes"');
  });

  it("--api takes v2 and/or graphql, in order, without repeats, and names the allowed values otherwise", () => {
    expect(apiList("v2,graphql")).toEqual(["v2", "graphql"]);
    expect(apiList("graphql")).toEqual(["graphql"]);
    expect(apiList(" v2 , v2")).toEqual(["v2"]);
    expect(() => apiList("v1")).toThrow('expected v2 and/or graphql, comma-separated; got "v1"');
  });
});

describe("cliInfo", () => {
  it("reads the --parallel default from `pulumi up --help`", () => {
    const help = "  -p, --parallel int32                          Allow P resource operations to run in parallel at once (1 for no parallelism). (default 8)\n";
    expect(parseDefaultParallelism(help)).toBe(8);
    expect(parseDefaultParallelism("  --yes  Automatically approve\n")).toBeUndefined();
  });
});

describe("provider start-up probe", () => {
  it("loads the serialized stub and the packaged provider (dist/) in a fresh process and answers a check", async () => {
    const { measureStartup } = await import("../../bench/startup");
    const { copyProgram, tempDir } = await import("../../scripts/exampleStack");
    const fs = await import("fs");
    const path = await import("path");
    const work = tempDir("pulumi-runpod-startup-test-");
    try {
      const programDir = copyProgram(path.join(__dirname, "..", "..", "bench", "programs", "endpoints"), path.join(work, "program"));
      const config = {
        "runpod:apiKey": emu.apiKey,
        "runpod:graphqlUrl": emu.urls.graphql,
        "runpod:restV1Url": emu.urls.restV1,
        "runpod:restV2Url": emu.urls.restV2,
        "runpod:inferenceUrl": emu.urls.inference,
      };
      emu.resetStats();
      const result = await measureStartup(programDir, config, 1);
      expect(result.runs).toHaveLength(1);
      expect(result.median.providerModuleMs).toBeGreaterThan(0);
      expect(result.median.totalMs).toBeCloseTo(result.median.stubMs + result.median.providerModuleMs + result.median.clientMs, 5);
      expect(result.stubBytes).toBeGreaterThan(0);
      // start-up (configure + a check of an existing, unchanged endpoint as this version stores it) sends
      // nothing: no template lookup, and no catalog read for an unchanged GPU selection
      expect(emu.stats().requests).toBe(0);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }, 60_000);
});
