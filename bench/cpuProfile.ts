/**
 * Reading V8 CPU profiles (`node --cpu-prof`, *.cpuprofile): which process a profile is of (the Pulumi
 * program, the dynamic provider host), and where its time went — self time by place (this package's
 * files, each dependency, node's internals, GC) and inclusive time of this package's functions.
 */
import * as fs from "fs";
import * as path from "path";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

/** The JSON of a `.cpuprofile` file. */
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export type ProcessRole = "program" | "provider host" | "other";

/** One line of a summary: what, how many ms, which share of the profile's sampled time. */
export interface ProfileItem {
  name: string;
  ms: number;
  share: number;
}

export interface ProfileSummary {
  file: string;
  role: ProcessRole;
  /** Sampled time, idle excluded, ms. */
  busyMs: number;
  /** Self time by place: `pulumi-runpod <file>`, `<package>`, `node:<internal>`, `(garbage collector)`, … */
  byPlace: ProfileItem[];
  /** Inclusive time of this package's functions (each sample counted once per function). */
  ours: ProfileItem[];
  /** Inclusive time of @pulumi/pulumi's files and of a few of its functions (e.g. closure serialization). */
  pulumi: ProfileItem[];
}

const PULUMI_FUNCTIONS = ["serializeFunction", "serializeProvider", "registerResource", "prepareResource", "serializeProperties", "deserializeProperties"];

/** Where a frame's code lives: this package's file, a dependency's name, or node's internals. */
function placeOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node:" + url.slice(5).split("/")[0];
  const file = url.replace(/^file:\/\//, "");
  const nm = file.lastIndexOf("/node_modules/");
  if (nm >= 0) {
    const rest = file.slice(nm + "/node_modules/".length).split("/");
    const pkg = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
    // This package, linked into a program's node_modules, resolves to its real path; a copy would not.
    if (pkg !== "pulumi-runpod") return pkg;
  }
  const dist = file.lastIndexOf("/dist/");
  if (dist >= 0) return `pulumi-runpod ${file.slice(dist + "/dist/".length)}`;
  return path.basename(file);
}

const isOurs = (frame: CallFrame) => placeOf(frame).startsWith("pulumi-runpod ");

/** The role of a profiled process, from the code it ran. */
function roleOf(profile: CpuProfile): ProcessRole {
  const urls = new Set(profile.nodes.map((n) => n.callFrame.url));
  const has = (part: string) => [...urls].some((u) => u.includes(part));
  if (has("/cmd/dynamic-provider/")) return "provider host";
  if (has("/cmd/run/")) return "program";
  return "other";
}

function top(map: Map<string, number>, total: number, limit: number): ProfileItem[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, us]) => ({ name, ms: Math.round(us / 100) / 10, share: Math.round((us / total) * 1000) / 10 }));
}

/** Summarises one profile; `limit` items per list. */
export function summarise(file: string, profile: CpuProfile, limit = 12): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const pulumi = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id)!;
    if (node.callFrame.functionName === "(idle)") return;
    busy += us;
    const place = placeOf(node.callFrame);
    self.set(place, (self.get(place) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur)!.callFrame;
      if (isOurs(f)) {
        const key = `${f.functionName || "(anonymous)"} ${placeOf(f).slice("pulumi-runpod ".length)}:${f.lineNumber + 1}`;
        if (!seen.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + us);
        seen.add(key);
      } else if (f.url.includes("/@pulumi/pulumi/")) {
        const file = f.url.slice(f.url.indexOf("/@pulumi/pulumi/") + "/@pulumi/pulumi/".length);
        const key = PULUMI_FUNCTIONS.includes(f.functionName) ? `${f.functionName} ${file}` : file;
        if (!seen.has(key)) pulumi.set(key, (pulumi.get(key) ?? 0) + us);
        seen.add(key);
      }
    }
  });
  const total = Math.max(busy, 1);
  return {
    file,
    role: roleOf(profile),
    busyMs: Math.round(busy / 1000),
    byPlace: top(self, total, limit),
    ours: top(inclusive, total, limit),
    pulumi: top(pulumi, total, limit),
  };
}

/** Summaries of every `.cpuprofile` in `dir`, the program and provider host first. */
export function summariseDir(dir: string, limit?: number): ProfileSummary[] {
  const order: ProcessRole[] = ["program", "provider host", "other"];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => summarise(f, JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as CpuProfile, limit))
    .sort((a, b) => order.indexOf(a.role) - order.indexOf(b.role) || b.busyMs - a.busyMs);
}

/** Plain-text report of summaries. */
export function formatSummaries(summaries: readonly ProfileSummary[]): string {
  const list = (title: string, items: readonly ProfileItem[]) =>
    items.length === 0 ? [] : [`  ${title}:`, ...items.map((i) => `    ${i.share.toFixed(1).padStart(5)} %  ${i.ms.toFixed(0).padStart(6)} ms  ${i.name}`)];
  return summaries
    .flatMap((s) => [
      `${s.role} (${s.file}): ${s.busyMs} ms sampled, idle excluded`,
      ...list("self time by place", s.byPlace),
      ...list("inclusive, pulumi-runpod functions", s.ours),
      ...list("inclusive, @pulumi/pulumi", s.pulumi),
      "",
    ])
    .join("\n");
}
