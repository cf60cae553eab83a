/**
 * Preloaded (`NODE_OPTIONS=--require …/profilePreload.js`) into the processes the engine starts, since
 * node refuses `--cpu-prof` in NODE_OPTIONS: profiles the whole process with the inspector and writes
 * `<pid>.cpuprofile` into `PULUMI_RUNPOD_CPU_PROF_DIR` when it exits, also when the engine ends it by
 * a signal. Not a module to import.
 */
import * as fs from "fs";
import * as inspector from "inspector";
import * as path from "path";

const dir = process.env.PULUMI_RUNPOD_CPU_PROF_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 500 });
  session.post("Profiler.start");
  let written = false;
  // The main thread's session answers synchronously, so this works in an exit handler.
  const write = () => {
    if (written) return;
    written = true;
    session.post("Profiler.stop", (err, result) => {
      if (!err) fs.writeFileSync(path.join(dir, `${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  };
  process.on("exit", write);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      write();
      process.kill(process.pid, signal);
    });
  }
}
