/**
 * One benchmark stack walked through every operation (bench/stacks.ts) against the emulator, as the bench
 * runs it: the requests each operation sent and what it left on the platform. Shared by the request-count
 * tests of tests/bench.
 */
import type { RunningEmulator } from "../../emulator";
import { OPERATIONS, measure, type BenchApi, type BenchKind, type BenchOperation, type Measurement } from "../../bench/requests";
import { BenchStack } from "../../bench/stacks";
import { randomSuffix } from "../../scripts/exampleStack";

export interface Walked {
  made: Record<BenchOperation, Measurement>;
  /** `onPlatform` after each operation. */
  after: Record<BenchOperation, unknown[]>;
}

/**
 * Creates the `kind` stack of `n` resources on `api`, runs each operation in order and disposes of it.
 * @param onPlatform the field an update changes, of each record named `${prefix}-*` on the platform.
 */
export async function walkBenchStack(
  emu: RunningEmulator,
  kind: BenchKind,
  api: BenchApi,
  n: number,
  onPlatform: (prefix: string) => unknown[] | Promise<unknown[]>,
): Promise<Walked> {
  const walked = { made: {}, after: {} } as Walked;
  const prefix = `bench-test-${kind}-${api}-${randomSuffix()}`;
  const stack = await BenchStack.create({
    program: kind,
    kind,
    n,
    api,
    parallelism: 8,
    namePrefix: prefix,
    platform: {
      addresses: { graphql: emu.urls.graphql, restV1: emu.urls.restV1, restV2: emu.urls.restV2, inference: emu.urls.inference },
      apiKey: emu.apiKey,
    },
  });
  try {
    for (const op of OPERATIONS) {
      await stack.prepare(op);
      walked.made[op] = await measure(emu, () => stack.run(op));
      walked.after[op] = await onPlatform(prefix);
    }
  } finally {
    await stack.dispose();
  }
  return walked;
}
