/**
 * The processes a test started, followed through /proc (Linux): a `pulumi` run spawns a language
 * host, the program, and the dynamic provider host, which outlive a killed engine. Each is
 * recorded with its start time, so it is ended by pid only while that pid is still the same process.
 */
import * as fs from "fs";

/** A process seen in the tree: pid, its start time (clock ticks since boot) and its command line. */
export interface TrackedProcess {
  pid: number;
  startTime: string;
  command: string;
}

interface ProcStat {
  ppid: number;
  startTime: string;
  zombie: boolean;
}

function statOf(pid: number): ProcStat | undefined {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { ppid: Number(fields[1]), startTime: fields[19], zombie: fields[0] === "Z" };
  } catch {
    return undefined;
  }
}

function commandOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/** Every descendant of `root` now running. */
export function descendants(root: number): TrackedProcess[] {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (stat) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), Number(entry)]);
  }
  const out: TrackedProcess[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const pid of children.get(queue.shift()!) ?? []) {
      const stat = statOf(pid);
      if (!stat) continue;
      out.push({ pid, startTime: stat.startTime, command: commandOf(pid) });
      queue.push(pid);
    }
  }
  return out;
}

/** True while `p` runs (the same process: same pid and start time, not a zombie). */
export function isRunning(p: TrackedProcess): boolean {
  const stat = statOf(p.pid);
  return stat !== undefined && stat.startTime === p.startTime && !stat.zombie;
}

/** Sends SIGKILL to each of `processes` still running, by pid, and waits until they are gone. */
export async function endProcesses(processes: readonly TrackedProcess[]): Promise<void> {
  for (const p of processes) {
    if (!isRunning(p)) continue;
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {
      // exited in between
    }
  }
  while (processes.some(isRunning)) await new Promise((r) => setTimeout(r, 20));
}
