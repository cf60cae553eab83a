/**
 * The metadata files a killed `pulumi` can leave empty in a file backend. Pulumi's file backend
 * (gocloud.dev fileblob) writes the checkpoint atomically (a temporary file, then a rename) but its
 * `<file>.attrs` sidecar in place, so a SIGKILL between the two leaves a zero-length sidecar, and
 * every later read of the stack fails with `failed to load checkpoint: EOF` although the checkpoint
 * itself is whole. A zero-length sidecar holds nothing (a written one is at least `{}`), and the
 * backend reads a missing one as "no metadata", so removing it loses nothing.
 */
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { PulumiCommandError, type PulumiRunner } from "./pulumiCommand";

/** True for the error of a `pulumi` command whose stack a killed `pulumi` left unreadable this way. */
export function isEmptySidecarError(err: unknown): boolean {
  return err instanceof PulumiCommandError && /failed to load checkpoint: EOF/.test(err.output);
}

/**
 * The zero-length `.attrs` files under the backend's `.pulumi/stacks/` (absolute paths, sorted);
 * none when the backend is not a `file://` one (`pulumi whoami --json`).
 */
export async function emptySidecars(pulumi: PulumiRunner): Promise<string[]> {
  const { url } = JSON.parse(await pulumi(["whoami", "--json"], { anyStack: true })) as { url?: string };
  if (!url?.startsWith("file://")) return [];
  const root = join(fileURLToPath(url.replace(/\?.*$/, "")), ".pulumi", "stacks");
  const found: string[] = [];
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const file = join(dir, name);
      const stat = statSync(file);
      if (stat.isDirectory()) walk(file);
      else if (name.endsWith(".attrs") && stat.size === 0) found.push(file);
    }
  };
  walk(root);
  return found.sort();
}

/** Removes the given sidecars (from {@link emptySidecars}). */
export function removeSidecars(files: string[]): void {
  for (const file of files) rmSync(file, { force: true });
}

/** What to tell the user when {@link isEmptySidecarError} holds and `recover` is not mending it. */
export function emptySidecarAdvice(files: string[]): string {
  const which = files.length > 0 ? `: ${files.join(", ")} ${files.length === 1 ? "is" : "are"} empty` : "";
  return (
    `the stack's state cannot be read: a killed \`pulumi\` left its file backend's metadata sidecar unwritten${which}. ` +
    "The checkpoint itself is whole; `pulumi-runpod recover --yes` removes the empty sidecar and goes on with the recovery"
  );
}
