/**
 * A Python virtual environment holding runpod-python (PyPI `runpod`) at the version docs/spec/platform-clients.md
 * was read from, created on first use and cached between runs. Only tests/conformance uses it.
 */
import { spawnSync } from "child_process";
import { existsSync, mkdirSync } from "fs";
import { homedir } from "os";
import { join } from "path";

export const RUNPOD_PYTHON_VERSION = "1.12.0";

/** Cache directory: `PULUMI_RUNPOD_CACHE_DIR`, else `~/.cache/pulumi-runpod`. */
const cacheDir = process.env.PULUMI_RUNPOD_CACHE_DIR ?? join(homedir(), ".cache", "pulumi-runpod");
const venvDir = join(cacheDir, `py-runpod-${RUNPOD_PYTHON_VERSION}`);
const venvPython = join(venvDir, process.platform === "win32" ? "Scripts/python.exe" : "bin/python");

/** Why the Python conformance tests cannot run here (python3 absent), or undefined when they can. */
export function pythonUnavailable(): string | undefined {
  const probe = spawnSync("python3", ["--version"], { encoding: "utf8" });
  return probe.status === 0
    ? undefined
    : `python3 is not available (${probe.error?.message ?? probe.stderr.trim()}); the runpod-python conformance tests need it`;
}

function hasClient(): boolean {
  if (!existsSync(venvPython)) return false;
  const check = spawnSync(venvPython, ["-c", `import runpod, sys; sys.exit(0 if runpod.__version__ == "${RUNPOD_PYTHON_VERSION}" else 1)`]);
  return check.status === 0;
}

/**
 * Path of a Python interpreter with runpod-python installed, creating the cached environment when needed.
 * @throws Error with pip's output when the environment cannot be created (e.g. no access to PyPI).
 */
export function runpodPython(): string {
  if (hasClient()) return venvPython;
  mkdirSync(cacheDir, { recursive: true });
  const steps: [string, string[]][] = [
    ["python3", ["-m", "venv", "--clear", venvDir]],
    [venvPython, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", `runpod==${RUNPOD_PYTHON_VERSION}`]],
  ];
  for (const [cmd, args] of steps) {
    const r = spawnSync(cmd, args, { encoding: "utf8", timeout: 600_000 });
    if (r.status !== 0) throw new Error(`creating the runpod-python environment failed at \`${cmd} ${args.join(" ")}\`:\n${r.stdout}\n${r.stderr}`);
  }
  if (!hasClient()) throw new Error(`runpod==${RUNPOD_PYTHON_VERSION} was installed into ${venvDir} but does not import`);
  return venvPython;
}
