/**
 * The benchmark's endpoint and template records on the emulator, as the request-count tests check them after each
 * operation: tests/bench/endpointTemplateRequests.test.ts (through the CLI, on v2) and
 * tests/provider/benchGraphqlRequests.test.ts (the provider driven as the engine does, on graphql). No CLI here.
 */
import { benchImageName, BENCH_ENDPOINT, BENCH_TEMPLATE, UPDATED_IDLE_TIMEOUT, UPDATED_IMAGE_TAG } from "../../bench/apiFloor";
import type { BenchOperation } from "../../bench/requests";
import type { RunningEmulator } from "../../emulator";

/** The benchmark kinds whose requests differ between the two API paths. */
export type EndpointOrTemplate = "endpoints" | "templates";

/** The field the benchmark's update changes, of each `kind` record named `${prefix}-*` on the platform. */
export function updatedFieldOnPlatform(emu: RunningEmulator, kind: EndpointOrTemplate, prefix: string): unknown[] {
  if (kind === "endpoints")
    return emu
      .endpoints(emu.apiKey)
      .filter((e) => e.name.startsWith(`${prefix}-`))
      .map((e) => e.idleTimeout);
  return emu
    .templates(emu.apiKey)
    .filter((t) => t.name.startsWith(`${prefix}-`))
    .map((t) => t.imageName);
}

/**
 * What {@link updatedFieldOnPlatform} reads after each operation of a walk of `n` records: nothing before the create
 * and after the destroy, the declared value after the create and the refresh, the updated one after the update.
 */
export function updatedFieldThroughWalk(kind: EndpointOrTemplate, n: number): Record<BenchOperation, unknown[]> {
  const [declared, updated] =
    kind === "endpoints" ? [BENCH_ENDPOINT.idleTimeout, UPDATED_IDLE_TIMEOUT] : [benchImageName(BENCH_TEMPLATE.imageTag), benchImageName(UPDATED_IMAGE_TAG)];
  const each = (value: unknown) => Array.from({ length: n }, () => value);
  return { preview: [], create: each(declared), refresh: each(declared), update: each(updated), destroy: [] };
}
