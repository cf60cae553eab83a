/**
 * Pulumi auto-naming of endpoints whose `name` is unset (src/provider/naming.ts), through the
 * provider's `check` and `create` against the emulator over HTTP: how the name is drawn and kept, and
 * that an auto-named create needs no listing in advance yet is still never repeated blindly (issue #6).
 */
import type { RunningEmulator } from "../../emulator";
import type { PlatformClient } from "../../src/api/types";
import type { ApiPath } from "../../src/provider/apiPath";
import { EndpointProvider } from "../../src/provider/endpoint/provider";
import { PlatformSession } from "../../src/provider/session";
import { checked, emulatorPerFile, uniqueName } from "./harness";

/** Each path's create and listing, as the emulator counts them (GraphQL `saveEndpoint` / `myself`; REST v2 `createEndpoint` / `listEndpoints`). */
const OPS = {
  graphql: { create: "saveEndpoint", list: "myself" },
  v2: { create: "createEndpoint", list: "listEndpoints" },
} as const;

let emu: RunningEmulator;
let client: PlatformClient;
emulatorPerFile((e, c) => ([emu, client] = [e, c]));
beforeEach(() => emu.setFaults({}));

const args = (prefix: string) => ({ __namePrefix: prefix, templateId: "tpl_vllm", gpuIds: ["ADA_24"] });
const named = (prefix: string) => emu.endpoints(emu.apiKey).filter((e) => e.name.startsWith(`${prefix}-`));

describe.each(["v2", "graphql"] as const)("on API path %s", (api: ApiPath) => {
  const ops = OPS[api];
  /** A provider on its own session of `api` (no environment involved). */
  const endpoints = () => new EndpointProvider(new PlatformSession(() => client, { api }));

  describe("auto-naming in check", () => {
    const provider = endpoints();

    it("no name: `<resource name>-<7 hex digits>`, marked as generated, the prefix not kept", async () => {
      const inputs = await checked(provider, args("llm"));
      expect(inputs.name).toMatch(/^llm-[0-9a-f]{7}$/);
      expect(inputs.__autonamed).toBe(true);
      expect(inputs).not.toHaveProperty("__namePrefix");
    });

    it("an update keeps the name from the old inputs (no diff); a replacement's re-check without them draws a new one", async () => {
      const first = await checked(provider, args("keep"));
      const again = await checked(provider, { ...args("keep"), idleTimeout: 30 }, first);
      expect(again.name).toBe(first.name);
      expect(again).not.toHaveProperty("__autonamed");
      expect((await provider.diff("id", { ...first, idleTimeout: 5 }, again)).changed).toEqual(["idleTimeout"]);
      const replacement = await checked(provider, { ...args("keep"), type: "LB", scalerType: "REQUEST_COUNT" });
      expect(replacement.name).toMatch(/^keep-[0-9a-f]{7}$/);
      expect(replacement.name).not.toBe(first.name);
    });

    it("a chosen name wins over the prefix, and setting one later renames in place", async () => {
      const auto = await checked(provider, args("web"));
      const chosen = await checked(provider, { ...args("web"), name: "web-prod" }, auto);
      expect(chosen.name).toBe("web-prod");
      expect(chosen).not.toHaveProperty("__autonamed");
      const d = await provider.diff("id", auto, chosen);
      expect(d).toMatchObject({ changes: true, changed: ["name"], replaces: [] });
    });

    it("a prefix that makes too long a name fails on `name`", async () => {
      const r = await provider.check(undefined, args("x".repeat(190)));
      expect(r.failures).toEqual([expect.objectContaining({ property: "name" })]);
    });
  });

  describe("auto-named endpoint renamed outside Pulumi", () => {
    it("a refresh takes the platform's name into outputs and inputs; later ups keep it (no diff)", async () => {
      const provider = endpoints();
      const declared = args(uniqueName("drift"));
      const inputs = await checked(provider, declared);
      const { id, outs } = await provider.create(inputs);
      // Renamed through the path's own interface (a GraphQL modify of a v2 endpoint would reset its v2 settings).
      if (api === "v2") await client.v2.updateEndpoint(id, { name: "renamed-by-hand" });
      else await client.saveEndpoint({ id, name: "renamed-by-hand", templateId: "tpl_vllm", gpuIds: "ADA_24" });

      const refreshed = await endpoints().read(id, outs as never);
      expect(refreshed.props).toMatchObject({ name: "renamed-by-hand" });
      expect(refreshed.inputs).toMatchObject({ name: "renamed-by-hand" });
      // The engine stores the returned inputs; check keeps their name, as Pulumi's own providers do.
      const next = await checked(provider, declared, refreshed.inputs as never);
      expect(next.name).toBe("renamed-by-hand");
      expect(await provider.diff(id, refreshed.props as never, next)).toMatchObject({ changes: false });
      await provider.delete(id, refreshed.props as never);
    });
  });

  describe("auto-named create", () => {
    /** A new provider and the checked inputs of an auto-named endpoint; counting starts after the check. */
    async function prepared(label: string) {
      const prefix = uniqueName(label);
      const provider = endpoints();
      const inputs = await checked(provider, args(prefix));
      emu.resetStats();
      return { prefix, provider, inputs };
    }
    /** Creates under `faults` (cleared afterwards, also on failure). */
    async function createUnder(faults: Parameters<RunningEmulator["setFaults"]>[0], provider: EndpointProvider, inputs: Record<string, unknown>) {
      emu.setFaults(faults);
      try {
        return await provider.create(inputs);
      } finally {
        emu.setFaults({});
      }
    }

    it("costs exactly one request", async () => {
      const { prefix, provider, inputs } = await prepared("one");
      const r = await createUnder({}, provider, inputs);
      expect(emu.stats().byOperation).toEqual({ [ops.create]: 1 });
      expect(named(prefix).map((e) => [e.id, e.name])).toEqual([[r.id, inputs.name]]);
      await provider.delete(r.id, r.outs as unknown as Record<string, unknown>);
    });

    it("answer lost after it took effect: looks once, adopts it — exactly one endpoint", async () => {
      const { prefix, provider, inputs } = await prepared("lost");
      const r = await createUnder({ dropAfterRate: 1, match: [ops.create] }, provider, inputs);
      expect(emu.stats().byOperation).toEqual({ [ops.create]: 1, [ops.list]: 1 });
      expect(named(prefix).map((e) => e.id)).toEqual([r.id]);
      await provider.delete(r.id, r.outs as unknown as Record<string, unknown>);
    });

    it("refused before taking effect, twice: looked for after each attempt, never before; fails with nothing created", async () => {
      const { prefix, provider, inputs } = await prepared("refused");
      await expect(createUnder({ errorRate: 1, match: [ops.create] }, provider, inputs)).rejects.toMatchObject({ outcomeUnknown: true });
      expect(emu.stats().byOperation).toEqual({ [ops.create]: 2, [ops.list]: 2 });
      expect(named(prefix)).toEqual([]);
    });
  });
});
