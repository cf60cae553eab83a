/**
 * Reading a `file://` backend's own files (Pulumi's diy backend layout): every stack's current
 * checkpoint, and the earlier checkpoints it keeps of one stack. Pulumi's CLI exports only a
 * stack's latest state from such a backend (`stack export --version` needs the Pulumi Cloud), so
 * the stack commands read the files. Layout, under `<backend>/.pulumi/`, with `<ref>` =
 * `<project>/<stack>` (or `<stack>` in the legacy layout):
 * - `stacks/<ref>.json` — the current checkpoint (`.json.bak`: the one before the last write;
 *   `.json.<ns>`: every write, with `PULUMI_RETAIN_CHECKPOINTS`);
 * - `history/<ref>/<stack>-<ns>.checkpoint.json` — the checkpoint at the end of each update;
 * - `backups/<ref>/<stack>.<ns>.json` — the same (unless `PULUMI_DIY_BACKEND_DISABLE_CHECKPOINT_BACKUPS`).
 * Any of them may be gzipped (`.gz`) or zstd-compressed (`.zst`, not read here).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import type { Checkpoint, Deployment } from "./checkpoint";
import type { PulumiRunner } from "./pulumiCommand";

/** The directory of the stack's backend when it is a `file://` one (`pulumi whoami --json`), else undefined. */
export async function fileBackendDir(pulumi: PulumiRunner): Promise<string | undefined> {
  const { url } = JSON.parse(await pulumi(["whoami", "--json"], { anyStack: true })) as { url?: string };
  return url?.startsWith("file://") ? fileURLToPath(url.replace(/\?.*$/, "")) : undefined;
}

/** One stack's current checkpoint file. */
export interface StackFile {
  /** `<project>/<stack>` (or `<stack>`): its path under `.pulumi/stacks/`, without the extension. */
  ref: string;
  file: string;
}

const CURRENT = /\.json(\.gz|\.zst)?$/;

/** Every stack of the backend in `dir` (none when it has no stacks yet). */
export function stackFiles(dir: string): StackFile[] {
  const root = join(dir, ".pulumi", "stacks");
  return walk(root)
    .filter((file) => CURRENT.test(file))
    .map((file) => ({ ref: relative(root, file).replace(CURRENT, "").split(sep).join("/"), file }));
}

/** The checkpoint files the backend in `dir` keeps of the stack `ref` besides its current one. */
export function earlierCheckpointFiles(dir: string, ref: string): string[] {
  const base = join(dir, ".pulumi");
  const parts = ref.split("/");
  const name = parts[parts.length - 1].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const named = (folder: string, pattern: string) => filesIn(folder).filter((f) => new RegExp(`^${name}${pattern}$`).test(basename(f)));
  return [
    ...named(join(base, "history", ...parts), "-\\d+\\.checkpoint\\.json(\\.gz)?"),
    ...named(join(base, "backups", ...parts), "\\.\\d+\\.json(\\.gz)?"),
    ...named(join(base, "stacks", ...parts.slice(0, -1)), "\\.json(\\.gz)?\\.(bak|\\d+)"),
  ];
}

/**
 * A checkpoint file of the backend as the stack commands read an export: `{version, checkpoint:
 * {latest}}` → `{version, deployment}`.
 * @throws Error when the file cannot be read (zstd: Node.js 20 has no decoder) or is not a checkpoint.
 */
export function readCheckpointFile(file: string): Checkpoint {
  if (/\.zst(\.|$)/.test(file)) throw new Error(`${file} is zstd-compressed, which this command cannot read`);
  let bytes = readFileSync(file);
  if (/\.gz(\.|$)/.test(file) || (bytes[0] === 0x1f && bytes[1] === 0x8b)) bytes = gunzipSync(bytes);
  const parsed = JSON.parse(bytes.toString("utf8")) as { version?: unknown; checkpoint?: { latest?: Deployment } };
  if (typeof parsed?.version !== "number" || typeof parsed.checkpoint !== "object" || parsed.checkpoint === null) {
    throw new Error(`${file} is not a Pulumi checkpoint`);
  }
  return { version: parsed.version, deployment: parsed.checkpoint.latest ?? {} };
}

/** The files in `dir`, not below (none when it does not exist). */
function filesIn(dir: string): string[] {
  return walk(dir, false);
}

/** Files under `dir`, recursively (none when it does not exist). */
function walk(dir: string, deep = true): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const file = join(dir, name);
    if (!statSync(file).isDirectory()) return [file];
    return deep ? walk(file) : [];
  });
}
