/**
 * The suite's own configuration (jest.config.js, tests/tiers.js): every test file runs in exactly one tier, the fast
 * tiers need no Pulumi CLI, the merge pass names real files, and the emulator reports the saves whose outcome
 * depends on the save semantics (what tests/saveSemanticsProbe.ts relies on to keep the merge pass complete).
 */
import * as fs from "fs";
import * as path from "path";
import { globsToMatcher } from "jest-util";
import { startEmulator, type RunningEmulator } from "../../emulator";

// eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JS shared with jest.config.js
const tiers = require("../tiers") as {
  ROOT: string;
  FAST_TIERS: string[];
  TOOLS_TIERS: string[];
  MERGE_PASS: string[];
  testFiles(): string[];
  tierOf(file: string): string;
  tiers(): string[];
};

interface Project {
  displayName: string;
  testMatch: string[];
  setupFilesAfterEnv: string[];
}

/** The projects of a full run (RUNPOD_TEST_TIERS unset), as jest.config.js builds them. */
function fullRunProjects(): Project[] {
  const saved = process.env.RUNPOD_TEST_TIERS;
  delete process.env.RUNPOD_TEST_TIERS;
  try {
    let config: { projects: Project[] } | undefined;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      config = require("../../jest.config.js");
    });
    return config!.projects;
  } finally {
    if (saved !== undefined) process.env.RUNPOD_TEST_TIERS = saved;
  }
}

/** Whether a project picks up a file, by Jest's own glob matcher. */
const matches = (project: Project, file: string) =>
  globsToMatcher(project.testMatch.map((g) => g.replace("<rootDir>", tiers.ROOT)))(path.join(tiers.ROOT, file));

describe("tiers", () => {
  const projects = fullRunProjects();
  const files = tiers.testFiles();

  test("the suite has test files in the known tiers", () => {
    expect(files.length).toBeGreaterThan(50);
    for (const tier of ["api", "emulator", "provider", "e2e"]) expect(tiers.tiers()).toContain(tier);
  });

  test("every test file runs in exactly one tier (a new folder becomes a tier of its own)", () => {
    const tierProjects = projects.filter((p) => p.displayName !== "merge");
    expect(tierProjects.map((p) => p.displayName)).toEqual(tiers.tiers());
    const misplaced = files
      .map((file) => ({ file, in: tierProjects.filter((p) => matches(p, file)).map((p) => p.displayName) }))
      .filter((f) => f.in.length !== 1 || f.in[0] !== tiers.tierOf(f.file));
    expect(misplaced).toEqual([]);
  });

  test("a file in a new folder gets that folder's tier; one directly in tests/ gets the root tier", () => {
    expect(tiers.tierOf("tests/multilang/python.test.ts")).toBe("multilang");
    expect(tiers.tierOf("tests/v2/deep/endpoints.test.ts")).toBe("v2");
    expect(tiers.tierOf("tests/top.test.ts")).toBe("root");
  });

  test("the merge pass runs exactly the listed files, each an existing test file", () => {
    const merge = projects.find((p) => p.displayName === "merge")!;
    expect(merge).toBeDefined();
    for (const file of tiers.MERGE_PASS) expect(files).toContain(file);
    expect(files.filter((f) => matches(merge, f))).toEqual([...tiers.MERGE_PASS].sort());
  });

  test("the fast tiers need no Pulumi CLI: nothing in them reaches the CLI runner or the local stacks", () => {
    const users: string[] = [];
    for (const tier of tiers.FAST_TIERS) {
      const dir = path.join(tiers.ROOT, "tests", tier);
      if (!fs.existsSync(dir)) continue;
      for (const entry of fs.readdirSync(dir, { recursive: true, encoding: "utf8" })) {
        if (!/\.[jt]s$/.test(entry)) continue;
        const text = fs.readFileSync(path.join(dir, entry), "utf8");
        if (/scripts\/(pulumiCli|exampleStack)|\.pulumi\/bin|\bLocalStack\b/.test(text)) users.push(`tests/${tier}/${entry}`);
      }
    }
    expect(users).toEqual([]);
  });
});

describe("order and the tooling", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- plain JS, as jest.config.js names it
  const Sequencer = require("../sequencer") as new () => { sort(tests: { path: string; duration?: number; context: unknown }[]): { path: string }[] };
  const test_ = (file: string, size: number) => ({ path: path.join(tiers.ROOT, file), context: { config: {}, hasteFS: { getSize: () => size } } });

  test("slow tiers first (the waiting tiers' files first of all), the tooling tiers' files after the first round of six and then in one order with the other slow files, the fast files spread among the rest", () => {
    const files = [
      test_("tests/reliability/quota.test.ts", 10),
      ...[1, 2, 3, 4, 5, 6].map((n) => test_(`tests/api/a${n}.test.ts`, 9000 - n)),
      test_("tests/multilang/big.test.ts", 8000),
      test_("tests/tooling/st.test.ts", 50),
      ...[1, 2, 3, 4, 5, 6, 7].map((n) => test_(`tests/e2e/f${n}.test.ts`, 1000 - n)),
    ];
    const order = new Sequencer().sort(files).map((t) => path.relative(tiers.ROOT, t.path));
    expect(order).toEqual([
      "tests/reliability/quota.test.ts",
      "tests/e2e/f1.test.ts",
      "tests/e2e/f2.test.ts",
      "tests/e2e/f3.test.ts",
      "tests/e2e/f4.test.ts",
      "tests/e2e/f5.test.ts",
      "tests/multilang/big.test.ts",
      "tests/api/a1.test.ts",
      "tests/e2e/f6.test.ts",
      "tests/api/a2.test.ts",
      "tests/e2e/f7.test.ts",
      "tests/api/a3.test.ts",
      "tests/api/a4.test.ts",
      "tests/tooling/st.test.ts",
      "tests/api/a5.test.ts",
      "tests/api/a6.test.ts",
    ]);
  });

  test("with no durations of its own (a fresh clone), slow files follow tests/fileDurations.json, longest first; a file it lacks goes first", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the recorded file itself
    const { seconds } = require("../fileDurations.json") as { seconds: Record<string, number> };
    const e2e = Object.entries(seconds)
      .filter(([f]) => f.startsWith("tests/e2e/"))
      .sort((a, b) => b[1] - a[1]);
    expect(e2e.length).toBeGreaterThan(1);
    const [longest, shortest] = [e2e[0][0], e2e[e2e.length - 1][0]];
    const files = [test_(shortest, 9000), test_(longest, 10), test_("tests/e2e/notRecorded.test.ts", 5)];
    const order = new Sequencer().sort(files).map((t) => path.relative(tiers.ROOT, t.path));
    expect(order).toEqual(["tests/e2e/notRecorded.test.ts", longest, shortest]);
  });

  test("tests/fileDurations.json names only test files that exist", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the recorded file itself
    const { seconds } = require("../fileDurations.json") as { seconds: Record<string, number> };
    const files = new Set(tiers.testFiles());
    for (const file of Object.keys(seconds)) expect(files.has(file) ? file : `${file} (not a test file)`).toBe(file);
  });

  test("exactly the tooling tiers wait for the tooling's build (tests/toolsReady.ts), and none of them is fast", () => {
    const waiting = fullRunProjects()
      .filter((p) => p.setupFilesAfterEnv.some((f) => f.endsWith("/toolsReady.ts")))
      .map((p) => p.displayName);
    expect(waiting.sort()).toEqual(tiers.TOOLS_TIERS.filter((t) => tiers.tiers().includes(t)).sort());
    for (const t of tiers.TOOLS_TIERS) expect(tiers.FAST_TIERS).not.toContain(t);
  });
});

describe("the emulator counts saves whose outcome depends on the save semantics", () => {
  let emu: RunningEmulator;
  // Pinned: this file's own saves must not count as following the environment (tests/saveSemanticsProbe.ts).
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, quiet: true, workerStartMs: 10, saveSemantics: "replace" });
  });
  afterAll(() => emu.close());

  async function save(input: string): Promise<string> {
    const res = await fetch(`${emu.urls.graphql}?api_key=${emu.apiKey}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: `mutation { saveEndpoint(input: { ${input} }) { id idleTimeout } }` }),
    });
    const body = (await res.json()) as { data?: { saveEndpoint: { id: string } }; errors?: unknown };
    expect(body.errors).toBeUndefined();
    return body.data!.saveEndpoint.id;
  }

  test("a modify leaving out a field whose stored value is not its default counts; a full or default-only one does not", async () => {
    expect(emu.saveSemantics()).toEqual({ semantics: "replace", fromEnvironment: false, dependentSaves: 0 });
    const base = `name: "probe", templateId: "tpl_vllm", gpuIds: "AMPERE_16"`;
    const id = await save(`${base}, idleTimeout: 42`);
    expect(emu.saveSemantics().dependentSaves).toBe(0); // a create depends on nothing stored
    await save(`id: "${id}", ${base}, idleTimeout: 42`);
    expect(emu.saveSemantics().dependentSaves).toBe(0); // every non-default field given
    await save(`id: "${id}", ${base}`);
    expect(emu.saveSemantics().dependentSaves).toBe(1); // idleTimeout 42 left out: merge keeps it, replace resets it
    await save(`id: "${id}", ${base}`);
    expect(emu.saveSemantics().dependentSaves).toBe(1); // now at its default: both semantics agree
  });

  test("an emulator without the option follows the environment and says so", async () => {
    const env = await startEmulator({ port: 0, quiet: true });
    try {
      expect(env.saveSemantics()).toMatchObject({ fromEnvironment: true, semantics: process.env.RUNPOD_EMULATOR_SAVE_SEMANTICS ?? "replace" });
    } finally {
      await env.close();
    }
  });
});
