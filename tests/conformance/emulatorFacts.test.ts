/**
 * The emulator's statement of the platform's facts (emulator/facts.ts) against the spec's own tables
 * (docs/spec/platform-api.md, read by tests/spec/specTables.ts). Defaults and bounds the spec leaves open
 * are the emulator's choices and are not compared here.
 */
import { ENDPOINT_FACTS, LOG_FACTS, RATE_LIMIT_WINDOWS } from "../../emulator/facts";
import { SPEC_TABLES as SPEC } from "../spec/specTables";

test("the spec states each fact the same way wherever it repeats it", () => {
  expect(SPEC.logSourceParameter).toEqual(SPEC.logSources);
  expect(SPEC.tailParameter).toEqual(SPEC.tail);
  expect(SPEC.rateLimitHeaderWindows).toEqual(SPEC.rateLimitWindows);
});

describe("endpoint fields: the emulator accepts exactly the spec's values", () => {
  test.each([
    ["gpuIds", ENDPOINT_FACTS.gpuIds.values, SPEC.gpuTiers],
    ["locations", ENDPOINT_FACTS.locations.values, SPEC.locations],
    ["type", ENDPOINT_FACTS.type.values, SPEC.endpointTypes],
    ["scalerType", ENDPOINT_FACTS.scalerType.values, SPEC.scalerTypes],
    ["fastBootType", ENDPOINT_FACTS.fastBootType.values, SPEC.fastBootTypes],
  ])("%s", (_field, emulator, spec) => {
    expect([...emulator]).toEqual(spec);
  });

  test("type defaults to the value the spec marks as default", () => {
    expect(ENDPOINT_FACTS.type.default).toBe(SPEC.endpointTypeDefault);
  });

  test("locations default to null, which the spec reads as any region", () => {
    expect(ENDPOINT_FACTS.locations.default).toBeNull();
  });
});

test("log stream: the spec's sources and tail bounds and default", () => {
  expect([...LOG_FACTS.sources]).toEqual(SPEC.logSources);
  expect(LOG_FACTS.tail).toEqual(SPEC.tail);
});

test("rate limits: the spec's windows, in its order", () => {
  expect([...RATE_LIMIT_WINDOWS]).toEqual(SPEC.rateLimitWindows);
});
