/**
 * Smoke test of the project-local Pulumi toolchain (scripts/install-pulumi.sh + scripts/pulumiCli.ts):
 * the real engine runs a TypeScript program whose dynamic provider writes and deletes a file, with a
 * file backend and passphrase secrets. Fails (does not skip) when the CLI is missing: run `npm run setup`.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { localWorkspaceStack, pulumiBinary, pulumiEnv, pulumiInstalled, repoRoot, runPulumi } from "../../scripts/pulumiCli";

jest.setTimeout(180_000);

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";

// Creates a file named after the resource in \`dir\`; the file's presence is what the test checks.
const provider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: any) {
    const fs = require("fs");
    const path = require("path");
    const file = path.join(inputs.dir, inputs.name);
    fs.writeFileSync(file, inputs.content);
    return { id: file, outs: { ...inputs, file } };
  },
  async delete(id: string) {
    require("fs").rmSync(id, { force: true });
  },
};

class MarkerFile extends pulumi.dynamic.Resource {
  declare readonly file: pulumi.Output<string>;
  constructor(name: string, args: { dir: string; content: pulumi.Input<string> }) {
    super(provider, name, { ...args, name, file: undefined }, {});
  }
}

const cfg = new pulumi.Config();
const marker = new MarkerFile("marker", { dir: cfg.require("dir"), content: cfg.require("content") });
export const file = marker.file;
export const token = cfg.requireSecret("token");
`;

function writeProgram(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: clismoke\nruntime: nodejs\n");
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "clismoke", private: true, main: "index.ts" }));
  fs.writeFileSync(path.join(dir, "index.ts"), PROGRAM);
  // The program shares the repository's dependencies (one copy of @pulumi/pulumi).
  fs.symlinkSync(path.join(repoRoot(), "node_modules"), path.join(dir, "node_modules"), "dir");
}

let work: string;

beforeAll(() => {
  if (!pulumiInstalled()) {
    throw new Error(`Pulumi CLI missing in ${path.dirname(pulumiBinary())}: run \`bash scripts/install-pulumi.sh\``);
  }
  work = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-cli-smoke-"));
});

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("CLI: stack init, preview, up, no-op preview, destroy with a dynamic provider", async () => {
  const prog = path.join(work, "cli-prog");
  const world = path.join(work, "cli-world");
  fs.mkdirSync(world);
  writeProgram(prog);
  const env = pulumiEnv({ stateDir: path.join(work, "cli-state") });
  const run = async (args: string[], expectCode = 0) => {
    const r = await runPulumi([...args, "--non-interactive"], { cwd: prog, env });
    if (r.code !== expectCode) throw new Error(`pulumi ${args.join(" ")} exited ${r.code}\n${r.stdout}\n${r.stderr}`);
    return r;
  };

  await run(["stack", "init", "dev"]);
  await run(["config", "set", "dir", world]);
  await run(["config", "set", "content", "hello"]);
  await run(["config", "set", "--secret", "token", "tok-SMOKE-1234"]);

  const preview = await run(["preview"]);
  expect(preview.stdout).toMatch(/\+ 2 to create/);
  expect(fs.readdirSync(world)).toEqual([]);

  // Previewed just above: the up skips its own preview (one program run fewer).
  await run(["up", "--yes", "--skip-preview"]);
  const marker = path.join(world, "marker");
  expect(fs.readFileSync(marker, "utf8")).toBe("hello");
  const outputs = JSON.parse((await run(["stack", "output", "--json"])).stdout);
  expect(outputs).toEqual({ file: marker, token: "[secret]" });

  await run(["preview", "--expect-no-changes"]);

  const exported = (await run(["stack", "export"])).stdout;
  expect(exported).not.toContain("tok-SMOKE-1234");
  expect(JSON.parse(exported).deployment.resources).toHaveLength(3); // stack, dynamic provider, marker

  await run(["destroy", "--yes"]);
  expect(fs.existsSync(marker)).toBe(false);
  expect(JSON.parse((await run(["stack", "export"])).stdout).deployment.resources ?? []).toHaveLength(0);
});

test("CLI: a failing program fails the preview with its message and creates nothing", async () => {
  const prog = path.join(work, "fail-prog");
  writeProgram(prog);
  const env = pulumiEnv({ stateDir: path.join(work, "fail-state") });
  expect((await runPulumi(["stack", "init", "dev"], { cwd: prog, env })).code).toBe(0);
  // `dir` is deliberately not set: cfg.require throws inside the program.
  const r = await runPulumi(["preview", "--non-interactive"], { cwd: prog, env });
  expect(r.code).not.toBe(0);
  expect(r.stdout + r.stderr).toMatch(/Missing required configuration variable 'clismoke:dir'/);
  expect(r.stdout + r.stderr).not.toMatch(/\x1b\[/); // NO_COLOR: plain text for assertions
});

test("Automation API: LocalWorkspace drives the local CLI through up and destroy", async () => {
  const prog = path.join(work, "auto-prog");
  const world = path.join(work, "auto-world");
  fs.mkdirSync(world);
  writeProgram(prog);
  const stack = await localWorkspaceStack({ workDir: prog, stackName: "auto", stateDir: path.join(work, "auto-state") });
  await stack.setAllConfig({
    dir: { value: world },
    content: { value: "from-automation" },
    token: { value: "tok-AUTO-5678", secret: true },
  });

  const up = await stack.up();
  expect(up.summary.result).toBe("succeeded");
  expect(up.outputs.file.value).toBe(path.join(world, "marker"));
  expect(up.outputs.token.secret).toBe(true);
  expect(fs.readFileSync(path.join(world, "marker"), "utf8")).toBe("from-automation");

  const again = await stack.preview();
  expect(again.changeSummary).toEqual({ same: 2 });

  const down = await stack.destroy();
  expect(down.summary.result).toBe("succeeded");
  expect(fs.existsSync(path.join(world, "marker"))).toBe(false);
});
