/**
 * Auth (docs: README › Troubleshooting): missing key, invalid key, read-only key on a mutation — each error says what to
 * fix, 401 and 403 are told apart, and no partial resource is left.
 */
import { AuthenticationError, ConfigurationError, PermissionError, createClient, explainError, resolveClientConfig } from "../../../src/api";
import { PULUMI_HINTS } from "../../../src/provider/providerConfig";
import { EndpointProvider } from "../../../src/provider/endpoint/provider";
import * as providerModule from "../../../src/provider";
import { DEFAULT_KEYS } from "../../../emulator";
import { addressesOf, mutationCounts, relClient, runpodConfig, thrown, uniqueName, useRelEmulator } from "../harness";
import { createChecked } from "./rateLimits";
import { PlatformSession } from "../../../src/provider/session";

const ARGS = { templateId: "tpl_vllm", gpuIds: ["ADA_24"], workersMin: 1, workersMax: 2 };

export function authSuite(): void {
  describe("auth", () => {
    const emu = useRelEmulator();

    const providerWithKey = (apiKey: string) => new EndpointProvider(new PlatformSession(() => relClient(emu, { apiKey })));

    it("missing key: check (preview) stops with a ConfigurationError naming runpod:apiKey and RUNPOD_API_KEY; nothing is sent", async () => {
      const saved = process.env.RUNPOD_API_KEY;
      delete process.env.RUNPOD_API_KEY;
      try {
        const config = runpodConfig(emu);
        await providerModule.configure({ config: { get: (key: string) => config[key] } });
        const err = await thrown(() => providerModule.endpoint.check(undefined as never, { name: uniqueName("nokey"), ...ARGS }));
        expect(err).toBeInstanceOf(ConfigurationError);
        expect(err.message).toContain("runpod:apiKey");
        expect(err.message).toContain("RUNPOD_API_KEY");
        expect(err.message).toMatch(/--secret/);
        expect(emu.stats().requests).toBe(0);
      } finally {
        if (saved !== undefined) process.env.RUNPOD_API_KEY = saved;
        await providerModule.configure({ config: { get: () => undefined } });
      }
    });

    it.each([
      ["an unknown key", "rpa_not_a_real_key_123456"],
      ["an expired key", DEFAULT_KEYS.expired],
    ])("%s: 401 AuthenticationError telling to check the key; nothing created", async (_what, apiKey) => {
      const provider = providerWithKey(apiKey);
      const name = uniqueName("badkey");
      const err = await thrown(() => createChecked(provider, { name, ...ARGS }));
      expect(err).toBeInstanceOf(AuthenticationError);
      expect((err as AuthenticationError).status).toBe(401);
      expect(err.message).toMatch(/\(HTTP 401, /);
      // The hint is the front end's: the provider module adds it (see the `pulumi preview` suite).
      expect(explainError(err, { hints: PULUMI_HINTS })).toMatch(/Check the API key: set it with `pulumi config set --secret runpod:apiKey <key>`/);
      expect(err.message).not.toContain(apiKey);
      expect(emu.endpoints()).toEqual([]);
      expect(mutationCounts(emu)).toEqual({ saveEndpoint: 0, restCreateEndpoint: 0, deleteEndpoint: 0 });
    });

    it("an invalid key fails at check (preview) when the inputs need a lookup (networkVolumeId)", async () => {
      const provider = providerWithKey("rpa_not_a_real_key_123456");
      const err = await thrown(() => provider.check(undefined, { name: uniqueName("badkey-vol"), ...ARGS, networkVolumeId: "nv_models01" }));
      expect(err).toBeInstanceOf(AuthenticationError);
      expect(err.message).toMatch(/\(HTTP 401, /);
    });

    it("read-only key on a create: 403 PermissionError asking for a read/write key; nothing created", async () => {
      const provider = providerWithKey(emu.readOnlyApiKey);
      const name = uniqueName("readonly");
      const err = await thrown(() => createChecked(provider, { name, ...ARGS, networkVolumeId: "nv_models01" }));
      expect(err).toBeInstanceOf(PermissionError);
      expect((err as PermissionError).status).toBe(403);
      expect(err.message).toMatch(/\(HTTP 403, /);
      expect(explainError(err, { hints: PULUMI_HINTS })).toMatch(/read\/write/);
      expect(err.message).not.toMatch(/Check the API key/);
      expect(err.message).not.toContain(emu.readOnlyApiKey);
      expect(emu.endpoints()).toEqual([]);
    });

    it("read-only key on update and delete: 403, and the endpoint is left exactly as it was (no half-done scale-down)", async () => {
      const { id, outs, inputs } = await createChecked(new EndpointProvider(new PlatformSession(() => relClient(emu))), {
        name: uniqueName("ro-target"),
        ...ARGS,
      });
      emu.expectedAtEnd += 1;
      const before = emu.endpoints(emu.apiKey).find((e) => e.id === id);
      const provider = providerWithKey(emu.readOnlyApiKey);
      const next = (await provider.check(inputs, { ...inputs, workersMax: 6 })).inputs;
      expect(await thrown(() => provider.update(id, outs, next))).toBeInstanceOf(PermissionError);
      expect(await thrown(() => provider.delete(id, outs))).toBeInstanceOf(PermissionError);
      expect(emu.endpoints(emu.apiKey).find((e) => e.id === id)).toEqual(before);
    });

    it("401 and 403 are distinct classes with distinct advice", async () => {
      const direct = (apiKey: string) =>
        createClient(resolveClientConfig({ apiKey, ...addressesOf(emu), retry: { retries: 0, minDelayMs: 1, maxDelayMs: 1, deadlineMs: 1000 } }, {}));
      const unauthorized = await thrown(() => direct("rpa_not_a_real_key_123456").saveEndpoint({ name: "x", templateId: "tpl_vllm", gpuIds: "ADA_24" }));
      const forbidden = await thrown(() => direct(emu.readOnlyApiKey).saveEndpoint({ name: "x", templateId: "tpl_vllm", gpuIds: "ADA_24" }));
      expect(unauthorized).toBeInstanceOf(AuthenticationError);
      expect(forbidden).toBeInstanceOf(PermissionError);
      expect(unauthorized).not.toBeInstanceOf(PermissionError);
      expect(forbidden).not.toBeInstanceOf(AuthenticationError);
      expect(unauthorized.message).not.toEqual(forbidden.message);
      expect(emu.endpoints().filter((e) => e.name === "x")).toEqual([]);
    });
  });
}
