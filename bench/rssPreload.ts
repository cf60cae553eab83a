/**
 * Preloaded (`NODE_OPTIONS=--require …/rssPreload.js`) into the processes the engine starts during a
 * benchmark run: when the process ends (also by the engine's signal) it writes its peak resident set
 * size, its CPU time and its role into `PULUMI_RUNPOD_RSS_DIR/<pid>.json` (rss.ts reads them). Not a
 * module to import.
 */
import * as fs from "fs";
import * as path from "path";

const dir = process.env.PULUMI_RUNPOD_RSS_DIR;
if (dir) {
  const script = process.argv[1] ?? "";
  const role = script.includes("dynamic-provider") ? "providerHost" : /cmd[/\\]run/.test(script) ? "program" : "other";
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    // maxRSS is in kilobytes, CPU times in microseconds.
    const usage = process.resourceUsage();
    const cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000;
    fs.writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify({ pid: process.pid, role, maxRssKb: usage.maxRSS, cpuMs }));
  };
  process.on("exit", write);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      write();
      process.kill(process.pid, signal);
    });
  }
}
