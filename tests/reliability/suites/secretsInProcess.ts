/**
 * Issue #6 "Secrets", error text: every error the provider and client raise under faults — the
 * GraphQL URL (which carries `?api_key=`) included — is free of the key however it is printed.
 * The CLI suite covers state, the serialized provider and verbose logs.
 */
import { createServer } from "net";
import { ConfigurationError, NetworkError, createClient, resolveClientConfig } from "../../../src/api";
import { EndpointProvider } from "../../../src/provider/endpoint/provider";
import type { FaultConfig } from "../../../emulator";
import { ProviderHost } from "../host";
import { addressesOf, relClient, runpodConfig, thrown, uniqueName, useRelEmulator } from "../harness";
import { linesWithSecret, renderError } from "../scan";
import { createChecked } from "./rateLimits";
import { PlatformSession } from "../../../src/provider/session";

async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

export function secretsInProcessSuite(): void {
  describe("secrets: error text", () => {
    const emu = useRelEmulator();

    const expectClean = (err: unknown, key = emu.apiKey) => expect(linesWithSecret(renderError(err), key)).toEqual([]);

    it("a GraphQL address that cannot be reached: the error shows the URL with api_key=REDACTED", async () => {
      const graphqlUrl = `http://127.0.0.1:${await closedPort()}/graphql`;
      const provider = new EndpointProvider(new PlatformSession(() => relClient(emu, { graphqlUrl, retry: { retries: 1 } })));
      const err = await thrown(() => createChecked(provider, { name: uniqueName("nogql"), templateId: "tpl_vllm", gpuIds: ["ADA_24"] }));
      expect(err).toBeInstanceOf(NetworkError);
      expect(err.message).toContain("api_key=REDACTED");
      expect(err.message).toContain("ECONNREFUSED");
      expectClean(err);
    });

    it.each<[string, FaultConfig]>([
      ["GraphQL connection dropped after the answer", { dropAfterRate: 1, match: ["myself"] }],
      ["GraphQL connection dropped before", { dropBeforeRate: 1, match: ["myself"] }],
      ["GraphQL 5xx", { errorRate: 1, match: ["myself"] }],
      ["GraphQL 429 beyond the deadline", { force429: 20, retryAfterSeconds: 600, match: ["myself"] }],
      ["GraphQL timeout", { latencyMs: 1000, match: ["myself"] }],
      ["REST create answered 5xx twice", { errorRate: 1, match: ["restCreateEndpoint"] }],
      ["REST create losing its connection twice before taking effect", { dropBeforeRate: 1, match: ["restCreateEndpoint"] }],
    ])("%s: the provider's error is free of the key", async (_what, faults) => {
      const provider = new EndpointProvider(new PlatformSession(() => relClient(emu, { timeoutMs: 200, retry: { retries: 1, deadlineMs: 3000 } })));
      emu.setFaults(faults);
      const err = await thrown(() => createChecked(provider, { name: uniqueName("leak"), templateId: "tpl_comfy", gpuTypeIds: ["NVIDIA L4"] }));
      expectClean(err);
      expect(emu.endpoints()).toEqual([]);
    });

    it("invalid and read-only keys: the 401/403 errors are free of the key that was sent", async () => {
      const badKey = "rpa_wrong_key_that_must_not_leak";
      const e401 = await thrown(() => relClient(emu, { apiKey: badKey }).listEndpoints());
      const e401rest = await thrown(() => relClient(emu, { apiKey: badKey }).listNetworkVolumes());
      const e403 = await thrown(() => relClient(emu, { apiKey: emu.readOnlyApiKey }).saveEndpoint({ name: "x", templateId: "tpl_vllm", gpuIds: "ADA_24" }));
      expectClean(e401, badKey);
      expectClean(e401rest, badKey);
      expectClean(e403, emu.readOnlyApiKey);
    });

    it("configuration errors that echo a bad address do not echo the key", () => {
      const key = emu.apiKey;
      for (const graphqlUrl of [`http://h/graphql?api_key=${key}`, `not a url ${key}`]) {
        let err: unknown;
        try {
          createClient(resolveClientConfig({ apiKey: key, ...addressesOf(emu), graphqlUrl }, {}));
        } catch (e) {
          err = e;
        }
        expect(err).toBeInstanceOf(ConfigurationError);
        expectClean(err);
      }
    });

    it("the dynamic provider host's error reports (gRPC errors and its stderr) are free of the key", async () => {
      const host = await ProviderHost.start(runpodConfig(emu, emu.apiKey));
      try {
        const { inputs } = await host.check({ name: uniqueName("host-leak"), templateId: "tpl_vllm", gpuIds: ["ADA_24"] });
        // Both create attempts lose their connection before taking effect: node-fetch's message names the GraphQL URL.
        emu.setFaults({ dropBeforeRate: 1, match: ["saveEndpoint"] });
        const err = await thrown(() => host.create(inputs));
        expect(renderError(err)).toContain("api_key=REDACTED");
        expectClean(err);
        // A check that fails inside the host with the provider's own error reaches the engine only: the
        // host prints no second copy (and no stack) to its stderr (src/provider/quietErrors.ts).
        emu.setFaults({ force429: 5, retryAfterSeconds: 600, match: ["listNetworkVolumes"] });
        const checkErr = await thrown(() => host.check({ name: "x", templateId: "tpl_vllm", gpuIds: ["ADA_24"], networkVolumeId: "nv_models01" }));
        expect(renderError(checkErr)).toMatch(/429/);
        expectClean(checkErr);
        expect(host.stderr.text).not.toMatch(/RateLimitError|429/);
        expect(linesWithSecret(host.stderr.text, emu.apiKey)).toEqual([]);
      } finally {
        await host.stop();
      }
    });
  });
}
