/**
 * Peak memory and CPU time of the processes a Pulumi command starts: the program and the dynamic
 * provider host report their peak resident set size and CPU time when they end (rssPreload.ts, loaded
 * through `NODE_OPTIONS`), so a run's CPU splits into the program's, the provider host's and the rest
 * (the CLI's engine, the language host).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { repoRoot } from "../scripts/pulumiCli";

/** Peak RSS of one command's processes, MB (the largest process of each role). */
export interface PeakRss {
  program?: number;
  providerHost?: number;
}

/** CPU time (user + system) of one command's processes, ms, summed per role. */
export interface ProcessCpu {
  program?: number;
  providerHost?: number;
}

/** What one command's processes reported. */
export interface ProcessReports {
  peakRssMb: PeakRss;
  cpuMs: ProcessCpu;
}

/** A directory the processes of one stack report into, and the environment that makes them. */
export class RssProbe {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-runpod-rss-"));

  /** Environment for the CLI runs: the preload (compiled, dist/bench, also when this runs from source) and where it writes. */
  get env(): Record<string, string> {
    const preload = path.join(repoRoot(), "dist", "bench", "rssPreload.js");
    const inherited = process.env.NODE_OPTIONS ? `${process.env.NODE_OPTIONS} ` : "";
    return { NODE_OPTIONS: `${inherited}--require ${JSON.stringify(preload)}`, PULUMI_RUNPOD_RSS_DIR: this.dir };
  }

  /** The peaks and CPU times reported since the last call; the reports are removed. */
  take(): ProcessReports {
    const out: PeakRss = {};
    const cpu: ProcessCpu = {};
    for (const f of fs.readdirSync(this.dir)) {
      const file = path.join(this.dir, f);
      try {
        const r = JSON.parse(fs.readFileSync(file, "utf8")) as { role: string; maxRssKb: number; cpuMs?: number };
        if (r.role === "program" || r.role === "providerHost") {
          out[r.role] = Math.max(out[r.role] ?? 0, Math.round(r.maxRssKb / 102.4) / 10);
          if (typeof r.cpuMs === "number") cpu[r.role] = Math.round((cpu[r.role] ?? 0) + r.cpuMs);
        }
      } catch {
        // A report still being written belongs to no measured run.
      }
      fs.rmSync(file, { force: true });
    }
    return { peakRssMb: out, cpuMs: cpu };
  }

  dispose(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
