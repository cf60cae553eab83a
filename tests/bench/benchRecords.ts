/**
 * The benchmark's endpoint and template records on the emulator, as the request-count tests check them after each
 * operation: tests/bench/endpointTemplateRequests.test.ts (through the CLI, on v2) and
 * tests/provider/benchGraphqlRequests.test.ts (the provider driven as the engine does, on graphql). No CLI here.
 */
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
