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
  // The "engine" starts the "provider" and prints its pid; the provider configures and then idles forever.
  const providerCode = `require(${JSON.stringify(PROVIDER)}).configure({ config: { get: () => undefined } }).then(() => setInterval(() => {}, 1000));`;
  const engineCode = `const c = require("child_process").spawn(process.execPath, ["-e", ${JSON.stringify(providerCode)}], { stdio: "ignore" }); console.log(c.pid); setInterval(() => {}, 1000);`;
  const engine = spawn(process.execPath, ["-e", engineCode], { stdio: ["ignore", "pipe", "inherit"] });
  const providerPid = await new Promise<number>((resolve) => engine.stdout!.once("data", (d) => resolve(Number(String(d).trim()))));
  try {
    await new Promise((r) => setTimeout(r, 1500));
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
