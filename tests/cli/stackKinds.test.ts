/**
 * The stack commands' registrations of templates and registry credentials (src/cli/stack/registry.ts)
 * against the emulator: listing, tying a pending create to its object by its unique name, auto-names,
 * and removal in dependency order (a template in use is refused until its endpoint is gone).
 */
import { GraphQLRequestError } from "../../src/api";
import { kindOf, STACK_KINDS } from "../../src/cli/stack/registry";
import { AUTONAMED_PROPERTY } from "../../src/provider";
import { createEndpoint, startHarness, type Harness } from "./harness";

const endpointKind = kindOf("pulumi-nodejs:dynamic/runpod:Endpoint")!;
const networkVolumeKind = kindOf("pulumi-nodejs:dynamic/runpod:NetworkVolume")!;
const registryAuthKind = kindOf("pulumi-nodejs:dynamic/runpod:ContainerRegistryAuth")!;
const templateKind = kindOf("pulumi-nodejs:dynamic/runpod:Template")!;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

test("every resource kind of the provider is registered, endpoints first and volumes after the pods that mount them, so orphans are removed in dependency order", () => {
  expect(STACK_KINDS.map((k) => k.type)).toEqual([
    "pulumi-nodejs:dynamic/runpod:Endpoint",
    "pulumi-nodejs:dynamic/runpod:Template",
    "pulumi-nodejs:dynamic/runpod:ContainerRegistryAuth",
    "pulumi-nodejs:dynamic/runpod:Pod",
    "pulumi-nodejs:dynamic/runpod:NetworkVolume",
  ]);
  expect(kindOf("pulumi-nodejs:dynamic/runpod:Template")).toBe(templateKind);
});

describe.each(["v2", "graphql"] as const)("on API path %s (the stack's listing and deletes)", (api) => {
  test("templates and registry credentials: listed, tied by name, auto-names recognised, removed after their users", async () => {
    const registry = await h.client.saveRegistryAuth({ name: `ghcr-${api}-${process.pid}a1b2c3d`.slice(0, 40), username: "bot", password: "s3cret-pw" });
    const template = await h.client.saveTemplate({
      name: `llm-${((process.pid + (api === "v2" ? 0 : 1)) % 0xfffffff).toString(16).padStart(7, "0")}`,
      imageName: "ghcr.io/acme/llm-worker:1.4.3",
      isServerless: true,
      containerRegistryAuthId: registry.id,
    });
    const endpoint = await createEndpoint(h.client, 0);
    await h.client.updateEndpointTemplate({ endpointId: endpoint.id, templateId: template.id });

    const templates = await templateKind.list(h.client, api);
    const listed = templates.find((t) => t.id === template.id)!;
    expect(listed).toMatchObject({ name: template.name, summary: "ghcr.io/acme/llm-worker:1.4.3" });
    expect(templateKind.madeBy(listed, { name: template.name })).toBe(true);
    expect(templateKind.madeBy(listed, { name: `${template.name}x` })).toBe(false);
    expect(templateKind.isAutoNameOf(template.name, "llm")).toBe(true);
    expect(templateKind.isAutoNameOf(template.name, "ll")).toBe(false);
    const auths = await registryAuthKind.list(h.client, api);
    const auth = auths.find((r) => r.id === registry.id)!;
    expect(auth.name).toBe(registry.name);
    expect(JSON.stringify(auths)).not.toContain("s3cret-pw");

    // In use: the platform refuses, and the error reaches the caller (orphans reports it). v2 deletes
    // credentials that a template references (the template loses the reference: the document's deleteRegistry).
    if (api === "graphql") {
      await expect(registryAuthKind.remove(h.client, auth, api)).rejects.toBeInstanceOf(GraphQLRequestError);
      await expect(templateKind.remove(h.client, listed, api)).rejects.toBeInstanceOf(GraphQLRequestError);
    } else {
      await expect(templateKind.remove(h.client, listed, api)).rejects.toMatchObject({ name: "ApiHttpError", status: 400 });
    }
    await h.client.scaleDownAndDeleteEndpoint({ id: endpoint.id, name: endpoint.name, templateId: template.id, gpuIds: endpoint.gpuIds });
    await templateKind.remove(h.client, listed, api);
    await registryAuthKind.remove(h.client, auth, api);
    expect((await templateKind.list(h.client, api)).some((t) => t.id === template.id)).toBe(false);
    expect((await registryAuthKind.list(h.client, api)).some((r) => r.id === registry.id)).toBe(false);
    // Gone already counts as removed.
    await templateKind.remove(h.client, listed, api);
    await registryAuthKind.remove(h.client, auth, api);
  });

  test("network volumes: listed and deleted through REST v2 on either path, refused while an endpoint mounts one", async () => {
    const volume = await h.client.v2.createNetworkVolume({ name: `data-${api}`, size: 10, dataCenter: "EU-RO-1" });
    const listed = (await networkVolumeKind.list(h.client, api)).find((v) => v.id === volume.id)!;
    expect(listed).toEqual({ id: volume.id, name: `data-${api}`, summary: "10 GB STANDARD in EU-RO-1" });
    expect(networkVolumeKind.madeBy(listed, { name: `data-${api}` })).toBe(true);
    const endpoint = await h.client.v2.createEndpoint({
      name: `mounts-${api}`,
      image: "me/w:1",
      type: "QUEUE",
      gpu: { pools: ["ADA_24"] },
      dataCenterIds: ["EU-RO-1"],
      networkVolumes: [volume.id],
      scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
    });
    await expect(networkVolumeKind.remove(h.client, listed, api)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining(`endpoint ${endpoint.id}`),
    });
    await h.client.v2.deleteEndpoint(endpoint.id);
    await networkVolumeKind.remove(h.client, listed, api);
    expect((await networkVolumeKind.list(h.client, api)).some((v) => v.id === volume.id)).toBe(false);
    await networkVolumeKind.remove(h.client, listed, api); // gone already counts as removed
  });

  test("endpoints: listed from the path's listing, tied by name, scaled to zero and deleted", async () => {
    const endpoint = await createEndpoint(h.client, 0);
    const listed = (await endpointKind.list(h.client, api)).find((e) => e.id === endpoint.id)!;
    expect(listed.name).toBe(endpoint.name);
    expect(endpointKind.madeBy(listed, { name: endpoint.name, templateId: endpoint.templateId, [AUTONAMED_PROPERTY]: true })).toBe(true);
    expect(endpointKind.madeBy(listed, { name: `${endpoint.name}x`, templateId: endpoint.templateId, [AUTONAMED_PROPERTY]: true })).toBe(false);
    await endpointKind.remove(h.client, listed, api);
    expect((await endpointKind.list(h.client, api)).some((e) => e.id === endpoint.id)).toBe(false);
    await endpointKind.remove(h.client, listed, api); // gone already counts as removed
  });
});
