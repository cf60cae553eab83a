/**
 * `npm run demo` as a user runs it (the compiled dist/scripts/demo.js in a child process): it must
 * pass every one of its own checks, never print the API key, and leave nothing behind — no stack
 * config file next to the root Pulumi.yaml, no state directory, no endpoint (its emulator dies with it).
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { DEFAULT_KEYS } from "../../emulator";
import { repoRoot } from "../../scripts/pulumiCli";

jest.setTimeout(300_000);

function runDemo(): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repoRoot(), "dist", "scripts", "demo.js")], {
      cwd: repoRoot(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (b: Buffer) => (output += b.toString("utf8")));
    child.stderr.on("data", (b: Buffer) => (output += b.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

test("the demo runs every step, checks each against the emulator, and exits 0", async () => {
  const stackFiles = () => fs.readdirSync(repoRoot()).filter((f) => /^Pulumi\..+\.yaml$/.test(f) && f !== "Pulumi.yaml");
  const before = stackFiles();

  const { code, output } = await runDemo();
  if (code !== 0) throw new Error(`demo exited ${code}:\n${output}`);

  const steps = output.match(/^==> \[\d+\/\d+\] .*$/gm) ?? [];
  expect(
    steps.map(
      (s) =>
        s
          .replace(/\s+\(\+[\d.]+s\)$/, "")
          .replace(/^==> \[\d+\/\d+\] /, "")
          .split(" — ")[0],
    ),
  ).toEqual([
    "Start the platform emulator (in this process, random port)",
    "Create a throwaway stack of the root project, program examples/basic (local file backend, passphrase secrets)",
    "pulumi preview",
    "pulumi up --yes --skip-preview",
    "pulumi stack output",
    "Change the inference endpoint behind Pulumi's back (API call: workersMax +3)",
    "pulumi refresh --yes",
    "pulumi up --yes --skip-preview",
    "Roll out image 1.4.4: pulumi config set workerImageTag 1.4.4, pulumi up --yes",
    "pulumi-runpod cost --since 1d",
    "pulumi destroy --yes",
    "Remove the throwaway stack and stop the emulator",
  ]);
  expect(output).toMatch(/^ {4}✓ the emulator still has no endpoints$/m);
  // refresh saw the drift, and only it: the estimates are check's figures for the program (docs/operations.md, Drift)
  expect(output).toMatch(/~\s+pulumi-nodejs:dynamic\/runpod:Endpoint inference updated .*\[diff: ~workersMax\]$/m);
  expect(output).toMatch(/~ workersMax\s*: 6 => 3/);
  expect(output).toMatch(/runpod:apiKey\s+\[secret\]/);
  expect(output).toMatch(/registryPassword\s+\[secret\]/);
  expect(output).toMatch(/hfToken\s+\[secret\]/);
  // The rollout: the template modified in place (not replaced), the endpoint kept, workers on the new image.
  expect(output).toMatch(/~\s+pulumi-nodejs:dynamic\/runpod:Template llm updated .*\[diff: ~imageName\]/);
  expect(output).not.toMatch(/Template llm replaced/);
  expect(output).toMatch(/✓ template \S+ modified in place, endpoint \S+ kept; its \d+ worker\(s\) run ghcr\.io\/acme\/llm-worker:1\.4\.4$/m);
  expect(output).toMatch(/^Demo finished: every step checked against the emulator/m);

  for (const key of Object.values(DEFAULT_KEYS)) expect(output).not.toContain(key);
  expect(output).not.toMatch(/api_key=(?!\[)/i);
  expect(output).not.toContain("MASKED");

  expect(stackFiles()).toEqual(before);
  const stateDir = /state in (\S+)/.exec(output)?.[1];
  expect(stateDir).toBeDefined();
  expect(fs.existsSync(stateDir!)).toBe(false);
});
