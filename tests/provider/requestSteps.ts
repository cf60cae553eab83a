/** The emulator's requests per step of a provider test: each step resets the stats, runs one operation and keeps its counts. */
import type { RunningEmulator } from "../../emulator";

export function requestSteps(emu: RunningEmulator): {
  /** Per step name: the emulator's requests by operation during that step. */
  ops: Record<string, Record<string, number>>;
  step: <T>(name: string, op: () => Promise<T>) => Promise<T>;
} {
  const ops: Record<string, Record<string, number>> = {};
  const step = async <T>(name: string, op: () => Promise<T>): Promise<T> => {
    emu.resetStats();
    const result = await op();
    ops[name] = { ...emu.stats().byOperation };
    return result;
  };
  return { ops, step };
}
