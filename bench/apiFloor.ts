/**
 * The API's floor: the fewest requests the spec allows for each benchmark operation, issued directly
 * with the api client at the engine's parallelism — what the operation would cost with no engine and
 * no provider in between (see requests.ts for the counts).
 */
import type { PlatformClient } from "../src/api";
import { forEachLimited } from "./pool";
import { measure, type BenchOperation, type Measurement, type RequestCounter } from "./requests";

/** The endpoint the benchmark stacks declare (bench/programs/*), as the platform takes it. */
export const BENCH_ENDPOINT = { templateId: "tpl_vllm", gpuIds: "ADA_24", idleTimeout: 30 } as const;
/** `idleTimeout` after the benchmark's one-field update. */
export const UPDATED_IDLE_TIMEOUT = 60;

export interface ApiFloorOptions {
  /** Number of endpoints. */
  n: number;
  /** Requests in flight at most (the engine's `--parallel`). */
  parallelism: number;
  /** Endpoint names are `${prefix}-${i}`. */
  prefix: string;
}

/**
 * Creates `n` endpoints, lists them once, updates one field of each, deletes them (scale to zero,
 * then delete, in one request) — each step timed and counted.
 * @returns one measurement per operation.
 * @throws the first api client error (endpoints created so far are left on the platform).
 */
export async function runApiFloor(client: PlatformClient, counter: RequestCounter, opts: ApiFloorOptions): Promise<Record<BenchOperation, Measurement>> {
  const indexes = Array.from({ length: opts.n }, (_, i) => i);
  const ids: string[] = [];
  const name = (i: number) => `${opts.prefix}-${i}`;

  const create = await measure(counter, () =>
    forEachLimited(indexes, opts.parallelism, async (i) => {
      ids[i] = (await client.saveEndpoint({ name: name(i), ...BENCH_ENDPOINT })).id;
    }),
  );
  const refresh = await measure(counter, () => client.listEndpoints());
  const update = await measure(counter, () =>
    forEachLimited(indexes, opts.parallelism, async (i) => {
      await client.saveEndpoint({ id: ids[i], name: name(i), templateId: BENCH_ENDPOINT.templateId, gpuIds: BENCH_ENDPOINT.gpuIds, idleTimeout: UPDATED_IDLE_TIMEOUT });
    }),
  );
  const destroy = await measure(counter, () =>
    forEachLimited(indexes, opts.parallelism, async (i) => {
      await client.scaleDownAndDeleteEndpoint({ id: ids[i], name: name(i), templateId: BENCH_ENDPOINT.templateId, gpuIds: BENCH_ENDPOINT.gpuIds });
    }),
  );
  return { create, refresh, update, destroy };
}
