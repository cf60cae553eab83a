/**
 * Option parsers of `npm run bench` that need a test of their own (run.ts runs on load).
 */
import { InvalidArgumentError } from "commander";
import { BENCH_APIS, BENCH_KINDS, type BenchApi, type BenchKind } from "./requests";

/**
 * `--api v2,graphql`: each a `runpod:api` value (docs/api-paths.md), repeats dropped, order kept.
 * @throws InvalidArgumentError naming the allowed values when one is not a path.
 */
export function apiList(value: string): BenchApi[] {
  const apis = value.split(",").map((s) => s.trim());
  for (const a of apis)
    if (!(BENCH_APIS as readonly string[]).includes(a)) throw new InvalidArgumentError(`expected ${BENCH_APIS.join(" and/or ")}, comma-separated; got "${a}"`);
  return [...new Set(apis)] as BenchApi[];
}

/**
 * `--kinds endpoints,pods`: each a benchmarked kind, repeats dropped, run in the order of {@link BENCH_KINDS}.
 * @throws InvalidArgumentError naming the allowed values when one is not a kind.
 */
export function kindList(value: string): BenchKind[] {
  const kinds = value.split(",").map((s) => s.trim());
  for (const k of kinds)
    if (!(BENCH_KINDS as readonly string[]).includes(k))
      throw new InvalidArgumentError(`expected one or more of ${BENCH_KINDS.join(", ")}, comma-separated; got "${k}"`);
  return BENCH_KINDS.filter((k) => kinds.includes(k));
}
