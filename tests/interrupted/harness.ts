/**
 * Interrupting the real Pulumi CLI: run a `pulumi` command of a {@link LocalStack}, SIGKILL it by pid
 * at a chosen moment (decided by what the emulator has received), and keep hold of the processes it
 * had started (language host, program, dynamic provider host), which a killed engine leaves running.
 * Also runs the package's CLI (`dist/src/cli/main.js`) the way a user would, in the program directory.
 */
import { spawn } from "child_process";
import type { RunningEmulator } from "../../emulator";
import { ENDPOINT_TYPE, type LocalStack } from "../../scripts/exampleStack";
import { pulumiBinary, recordCliRun } from "../../scripts/pulumiCli";
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
  recordCliRun(args);
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
  // The checkpoint `pulumi stack export` prints, read from the backend's file (no CLI run per look).
  const deployment = await stack.deployment();
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
