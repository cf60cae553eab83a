/**
 * Reading and writing a stack's state with Pulumi's own commands (`pulumi stack export` / `stack
 * import`), and releasing the lock a killed `pulumi` left behind.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCheckpoint, type Checkpoint } from "./checkpoint";
import { isStaleLock, lockHolderOf, type PulumiRunner } from "./pulumiCommand";
import { emptySidecarAdvice, emptySidecars, isEmptySidecarError, removeSidecars } from "./stateSidecars";

/**
 * The stack's state (`pulumi stack export`).
 * @throws Error naming the empty metadata sidecar when a killed `pulumi` left the state unreadable
 *   (stateSidecars.ts); PulumiCommandError otherwise.
 */
export async function exportCheckpoint(pulumi: PulumiRunner): Promise<Checkpoint> {
  try {
    return parseCheckpoint(await pulumi(["stack", "export"]));
  } catch (err) {
    if (!isEmptySidecarError(err)) throw err;
    throw new Error(emptySidecarAdvice(await emptySidecars(pulumi).catch(() => [])));
  }
}

/**
 * {@link exportCheckpoint} for `recover`: with `mend`, the empty metadata sidecars a killed `pulumi`
 * left are removed (`notice` is told which) and the state is read again.
 */
export async function exportMendingSidecars(pulumi: PulumiRunner, mend: boolean, notice: (line: string) => void): Promise<Checkpoint> {
  try {
    return parseCheckpoint(await pulumi(["stack", "export"]));
  } catch (err) {
    if (!isEmptySidecarError(err)) throw err;
    const files = await emptySidecars(pulumi);
    if (!mend || files.length === 0) throw new Error(emptySidecarAdvice(files));
    removeSidecars(files);
    notice(`removed the empty metadata sidecar${files.length === 1 ? "" : "s"} a killed \`pulumi\` left: ${files.join(", ")}`);
    return exportCheckpoint(pulumi);
  }
}

/** Replaces the stack's state with `checkpoint` (`pulumi stack import`, which checks its integrity). */
export async function importCheckpoint(pulumi: PulumiRunner, checkpoint: Checkpoint): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "pulumi-runpod-state-"));
  try {
    const file = join(dir, "state.json");
    writeFileSync(file, JSON.stringify(checkpoint), { mode: 0o600 });
    await pulumi(["stack", "import", "--file", file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs `write` (a command that needs the stack's lock). When the lock is held by a `pulumi` of this
 * machine that no longer runs — what a killed `pulumi up` leaves — it is released with
 * `pulumi cancel` and `write` runs once more; `notice` is told. A lock held by a live process, or
 * by another machine, is an error that says who holds it.
 */
export async function withStaleLockReleased<T>(pulumi: PulumiRunner, notice: (line: string) => void, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const holder = lockHolderOf(err);
    if (!holder) throw err;
    if (!isStaleLock(holder)) {
      throw new Error(
        `the stack is locked by ${holder.user}@${holder.host} (pid ${holder.pid}), which may still be running; ` +
          "wait for it to end, or run `pulumi cancel` once you are sure it has stopped",
      );
    }
    await pulumi(["cancel", "--yes"]);
    notice(`released the stack lock left by pid ${holder.pid} (no longer running on this machine)`);
    return write();
  }
}
