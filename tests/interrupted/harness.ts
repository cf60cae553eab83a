/**
 * Interrupting the real Pulumi CLI: run a `pulumi` command of a {@link LocalStack}, SIGKILL it by pid
 * at a chosen moment (decided by what the emulator has received), and keep hold of the processes it
 * had started (language host, program, dynamic provider host), which a killed engine leaves running.
 * Also runs the package's CLI (`dist/src/cli/main.js`) the way a user would, in the program directory.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import type { RunningEmulator } from "../../emulator";
import { ENDPOINT_TYPE, type LocalStack, type StateResource } from "../../scripts/exampleStack";
import { pulumiBinary } from "../../scripts/pulumiCli";
import { runBin, type CliResult } from "../cli/harness";
import { descendants, endProcesses, isRunning, type TrackedProcess } from "./processTree";

export interface Interruption {
  /** What `pulumi` printed before it was killed. */
  output: string;
  /** Processes it had started that were still running right after the kill. */
  leftovers: TrackedProcess[];
}

/**
 * Runs `pulumi <args>` for `stack` and SIGKILLs it (by pid) as soon as `killWhen()` holds, checked
 * every 10 ms. Its descendants are recorded all along, so those left running can be ended by pid.
 * @throws Error when the command ends before `killWhen()` held (the kill point was missed).
 */
export async function runUntilKilled(stack: LocalStack, args: string[], killWhen: () => boolean): Promise<Interruption> {
  const child = spawn(pulumiBinary(), [...args, "--stack", stack.name, "--non-interactive"], {
    cwd: stack.programDir,
    env: stack.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (b: Buffer) => (output += b.toString("utf8")));
  child.stderr.on("data", (b: Buffer) => (output += b.toString("utf8")));
  const closed = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  let exited = false;
  void closed.then(() => (exited = true));

  const seen = new Map<number, TrackedProcess>();
  const record = () => {
    for (const p of descendants(child.pid!)) if (!seen.has(p.pid)) seen.set(p.pid, p);
  };
  for (;;) {
    record();
    if (killWhen()) break;
    if (exited) {
      await endProcesses([...seen.values()]);
      throw new Error(`pulumi ${args.join(" ")} ended before the kill point was reached:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  record();
  process.kill(child.pid!, "SIGKILL");
  await closed;
  return { output, leftovers: [...seen.values()].filter(isRunning) };
}

export { endProcesses };

/** Runs `pulumi-runpod <args> --stack <stack>` (the compiled bin) in the stack's program directory, with its environment. */
export function runCli(stack: LocalStack, args: string[]): Promise<CliResult> {
  return runBin([...args, "--stack", stack.name], stack.env, { cwd: stack.programDir });
}

/** What the stack holds: its endpoints (replaced ones awaiting deletion included) and pending operations. */
export interface StackView {
  endpointIds: string[];
  /** Ids of endpoints marked for deletion (replaced, not deleted yet). */
  replacedIds: string[];
  pending: { type: string; urn: string }[];
}

export async function stackView(stack: LocalStack): Promise<StackView> {
  const { deployment } = JSON.parse(await stack.exportText()) as {
    deployment: { resources?: StateResource[]; pending_operations?: { type: string; resource: StateResource }[] };
  };
  const endpoints = (deployment.resources ?? []).filter((r) => r.type === ENDPOINT_TYPE);
  return {
    endpointIds: endpoints.map((r) => r.id!).sort(),
    replacedIds: endpoints
      .filter((r) => r.delete === true)
      .map((r) => r.id!)
      .sort(),
    pending: (deployment.pending_operations ?? []).map((op) => ({ type: op.type, urn: op.resource.urn })),
  };
}

/** Ids of the endpoints on the emulator, sorted. */
export function platformIds(emu: RunningEmulator): string[] {
  return emu
    .endpoints()
    .map((e) => e.id)
    .sort();
}

/**
 * What a killed create leaves once the user clears it without `recover`: `resource` (no id) becomes a
 * pending create of `stack`, which a completed `pulumi up` keeps (so the stack's history records it),
 * then `pulumi refresh --clear-pending-creates` drops it. Its object, if any, is the stack's orphan.
 */
export async function clearedPendingCreate(stack: LocalStack, resource: StateResource): Promise<void> {
  const state = JSON.parse(await stack.exportText()) as { deployment: { pending_operations?: unknown[] } };
  state.deployment.pending_operations = [...(state.deployment.pending_operations ?? []), { type: "creating", resource }];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-runpod-pending-"));
  try {
    const file = path.join(dir, "state.json");
    fs.writeFileSync(file, JSON.stringify(state), { mode: 0o600 });
    await stack.run(["stack", "import", "--file", file], { quiet: true });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  await stack.run(["up", "--yes"], { quiet: true });
  await stack.run(["refresh", "--yes", "--clear-pending-creates"], { quiet: true });
}
