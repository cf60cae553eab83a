/**
 * The dynamic provider ends when its engine dies (parentWatch.ts): a real process tree — a stand-in
 * engine that starts a process running the provider module's `configure`, then is SIGKILLed.
 */
import { spawn } from "child_process";
import * as path from "path";

const PROVIDER = path.join(__dirname, "..", "..", "dist", "src", "provider", "index.js");

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it("a provider process whose parent is killed exits by itself within seconds", async () => {
  // The "engine" starts the "provider", which says `ready <pid>` once `configure` has run (the watch is
  // then on: killing the engine sooner, under load, would test nothing) and then idles forever.
  const providerCode = `require(${JSON.stringify(PROVIDER)}).configure({ config: { get: () => undefined } }).then(() => { console.log("ready " + process.pid); setInterval(() => {}, 1000); });`;
  const engineCode = `require("child_process").spawn(process.execPath, ["-e", ${JSON.stringify(providerCode)}], { stdio: ["ignore", "inherit", "inherit"] }); setInterval(() => {}, 1000);`;
  const engine = spawn(process.execPath, ["-e", engineCode], { stdio: ["ignore", "pipe", "inherit"] });
  let said = "";
  const providerPid = await new Promise<number>((resolve) =>
    engine.stdout!.on("data", (d) => {
      said += String(d);
      const m = /ready (\d+)/.exec(said);
      if (m) resolve(Number(m[1]));
    }),
  );
  try {
    expect(alive(providerPid)).toBe(true);
    engine.kill("SIGKILL");
    const deadline = Date.now() + 10_000;
    while (alive(providerPid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(alive(providerPid)).toBe(false);
  } finally {
    if (alive(providerPid)) process.kill(providerPid, "SIGKILL");
    if (engine.exitCode === null) engine.kill("SIGKILL");
  }
});
