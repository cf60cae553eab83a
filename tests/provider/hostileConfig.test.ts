/**
 * Issue 18 through the provider runtime (the `runpod:` configuration as the Pulumi engine hands it over):
 * a key that cannot be sent and a plain-HTTP address to a remote host are configuration errors naming
 * the setting, found before any request — not "connection failed … may have taken effect".
 */
import type { RunningEmulator } from "../../emulator";
import { ProviderRuntime } from "../../src/provider/runtime";
import { emulatorConfig, emulatorPerFile } from "./harness";

let emu: RunningEmulator;
let config: Record<string, string>;
emulatorPerFile((e) => ([emu, config] = [e, emulatorConfig(e)]));

const source = (c: Record<string, string>) => ({ config: { get: (key: string) => c[key] } });
const INPUTS = { name: "hostile-config", templateId: "tpl_vllm", gpuIds: ["ADA_24"] };

async function checkError(c: Record<string, string>): Promise<Error> {
  const runtime = new ProviderRuntime();
  runtime.configure(source(c));
  const provider = await runtime.provider("endpoint");
  return (await provider.check({}, INPUTS).then(
    () => {
      throw new Error("check succeeded");
    },
    (e: unknown) => e,
  )) as Error;
}

test.each([
  ["a newline", `${"rpa_hostile"}\nX-Injected: 1`],
  ["a non-ASCII character", "rpa_hostil\u00e9"],
])("a key with %s: ConfigurationError naming runpod:apiKey, nothing sent, key not shown", async (_label, key) => {
  emu.resetStats();
  const err = await checkError({ ...config, "runpod:apiKey": key });
  expect(err.name).toBe("ConfigurationError");
  expect(err.message).toContain("runpod:apiKey");
  expect(err.message).not.toMatch(/connection failed|may have taken effect/);
  expect(err.message).not.toContain("rpa_hostil");
  expect(emu.stats().requests).toBe(0);
});

test("plain HTTP to a remote host needs runpod:allowInsecureHttp; loopback does not", async () => {
  const remote = { ...config, "runpod:restV2Url": "http://api.example.com" };
  const err = await checkError(remote);
  expect(err.name).toBe("ConfigurationError");
  expect(err.message).toMatch(/runpod:restV2Url.*plain http:\/\/.*runpod:allowInsecureHttp/);
  // The opt-in is read from the same configuration (the address is then accepted; on the graphql path
  // check's template lookup goes to the loopback GraphQL address, so the remote one is never contacted).
  const runtime = new ProviderRuntime();
  runtime.configure(source({ ...remote, "runpod:allowInsecureHttp": "true", "runpod:api": "graphql" }));
  const provider = await runtime.provider("endpoint");
  const checked = await provider.check({}, INPUTS);
  expect(checked.failures).toEqual([]);
});
