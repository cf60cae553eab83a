/**
 * Option parsers of `npm run bench` that need a test of their own (run.ts runs on load).
 */
import { InvalidArgumentError } from "commander";
import { BENCH_APIS, type BenchApi } from "./requests";

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
