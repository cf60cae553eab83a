/**
 * Runs `fn` over `items` with at most `parallelism` calls in flight — the way the Pulumi engine
 * schedules resource steps under `--parallel P` — so the API floor is measured at the same parallelism.
 * @throws the first error any call throws (calls already started still run to completion).
 */
export async function forEachLimited<T>(items: readonly T[], parallelism: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  if (!Number.isInteger(parallelism) || parallelism < 1) throw new Error(`parallelism must be a positive integer, got ${parallelism}`);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  const lanes = Array.from({ length: Math.min(parallelism, items.length) }, lane);
  const results = await Promise.allSettled(lanes);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed) throw failed.reason;
}
