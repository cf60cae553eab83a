/**
 * Provider setting `runpod:api` (environment `RUNPOD_API`): which interface the provider manages
 * resources through. Picked once per session from the stack configuration, then the environment, then
 * the default; a bad value is a configuration error at `check` naming the setting and its values, with
 * no request sent; a changed value gets a new session.
 */
import type { RunningEmulator } from "../../emulator";
import { API_PATHS, DEFAULT_API_PATH, resolveApiPath } from "../../src/provider/apiPath";
import { ProviderRuntime } from "../../src/provider/runtime";
import { PlatformSession } from "../../src/provider/session";
import { emulatorClient, emulatorConfig, emulatorPerFile } from "./harness";

let emu: RunningEmulator;
let config: Record<string, string>;
emulatorPerFile((e) => ([emu, config] = [e, emulatorConfig(e)]));

const source = (c: Record<string, string>) => ({ config: { get: (key: string) => c[key] } });

describe("resolveApiPath", () => {
  it("takes the stack's runpod:api, then RUNPOD_API, then the default", () => {
    expect(resolveApiPath("graphql", { RUNPOD_API: "v2" })).toBe("graphql");
    expect(resolveApiPath("v2", { RUNPOD_API: "graphql" })).toBe("v2");
    expect(resolveApiPath(undefined, { RUNPOD_API: "graphql" })).toBe("graphql");
    expect(resolveApiPath("", { RUNPOD_API: "v2" })).toBe("v2");
    expect(resolveApiPath(undefined, {})).toBe(DEFAULT_API_PATH);
    expect(DEFAULT_API_PATH).toBe("v2"); // REST v2, the platform's current interface (docs/api-paths.md)
    expect(resolveApiPath(" GraphQL ", {})).toBe("graphql");
  });

  it("a value it does not know names the setting and the values it accepts", () => {
    expect(() => resolveApiPath("v1", {})).toThrow(`runpod:api must be one of ${API_PATHS.join(", ")}; got "v1"`);
    expect(() => resolveApiPath(undefined, { RUNPOD_API: "rest" })).toThrow(`environment variable RUNPOD_API must be one of v2, graphql; got "rest"`);
  });

  it("a session resolves it once", () => {
    const session = new PlatformSession(() => emulatorClient(emu), { api: "graphql" });
    expect(session.api).toBe("graphql");
  });
});

describe("runpod:api through the provider runtime", () => {
  it("a bad value fails check with a ConfigurationError naming runpod:api, before any request", async () => {
    const runtime = new ProviderRuntime();
    runtime.configure(source({ ...config, "runpod:api": "soap" }));
    const provider = await runtime.provider("template");
    emu.resetStats();
    const err = (await provider.check({}, { name: "t", imageName: "img:1" }).then(
      () => new Error("check succeeded"),
      (e: unknown) => e,
    )) as Error;
    expect(err.name).toBe("ConfigurationError");
    expect(err.message).toBe(`runpod:api must be one of v2, graphql; got "soap"`);
    expect(emu.stats().requests).toBe(0);
  });

  it("a changed runpod:api is a new configuration: a new session and providers on the new path", async () => {
    const runtime = new ProviderRuntime();
    runtime.configure(source({ ...config, "runpod:api": "graphql" }));
    const before = await runtime.provider("endpoint");
    runtime.configure(source({ ...config, "runpod:api": "graphql" }));
    expect(runtime.configurationCount).toBe(1);
    runtime.configure(source({ ...config, "runpod:api": "v2" }));
    expect(runtime.configurationCount).toBe(2);
    expect(await runtime.provider("endpoint")).not.toBe(before);
  });
});
