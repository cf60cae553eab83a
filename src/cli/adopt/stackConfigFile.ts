/**
 * The stack's configuration as `adopt` changes it: values set through `pulumi config set` (a secret's
 * value on stdin, never on a command line), and the file kept byte for byte to put back when the
 * adoption fails.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ConfigValue } from "./plan";
import { PulumiCommandError } from "../stack/pulumiCommand";

/** Runs `pulumi <args>` with `input` on stdin (what {@link PulumiRunner} lacks). */
export type PulumiWithInput = (args: string[], input: string) => Promise<void>;

export function pulumiWithInput(options: { stack?: string; cwd?: string; env: Record<string, string | undefined> }): PulumiWithInput {
  return (args, input) =>
    new Promise((resolve, reject) => {
      const full = [...args, "--non-interactive", ...(options.stack ? ["--stack", options.stack] : [])];
      const child = spawn("pulumi", full, { cwd: options.cwd, env: options.env as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "pipe"] });
      const out: Buffer[] = [];
      child.stdout.on("data", (b: Buffer) => out.push(b));
      child.stderr.on("data", (b: Buffer) => out.push(b));
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve() : reject(new PulumiCommandError(args, code, Buffer.concat(out).toString("utf8")))));
      child.stdin.end(input);
    });
}

/** Sets each value (`--path` for a map's entries, `--secret` for secrets); values go on stdin. */
export async function setConfig(pulumi: PulumiWithInput, values: readonly ConfigValue[]): Promise<void> {
  for (const v of values) {
    const secret = v.secret ? ["--secret"] : ["--plaintext"];
    if (typeof v.value === "string") {
      await pulumi(["config", "set", ...secret, v.key], v.value);
      continue;
    }
    for (const [name, value] of Object.entries(v.value)) {
      await pulumi(["config", "set", ...secret, "--path", `${v.key}[${JSON.stringify(name)}]`], value);
    }
  }
}

/** The stack's config file as it is now; `restore()` puts it back (or removes it when there was none). */
export function keepConfigFile(configDir: string, stack: string): { restore(): void } {
  const file = join(configDir, `Pulumi.${stack.slice(stack.lastIndexOf("/") + 1)}.yaml`);
  const before = existsSync(file) ? readFileSync(file) : undefined;
  return {
    restore() {
      if (before === undefined) rmSync(file, { force: true });
      else writeFileSync(file, before);
    },
  };
}
