/**
 * The stack commands' registrations of templates and registry credentials (src/cli/stack/templateKinds.ts)
 * against the emulator: listing, tying a pending create to its object by its unique name, auto-names,
 * and removal in dependency order (a template in use is refused until its endpoint is gone).
 */
import { GraphQLRequestError } from "../../src/api";
import { kindOf, RESOURCE_KINDS } from "../../src/cli/stack/registry";
import { registryAuthKind, templateKind } from "../../src/cli/stack/templateKinds";
import { createEndpoint, startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

test("every resource kind of the provider is registered, endpoints first so orphans are removed in dependency order", () => {
  expect(RESOURCE_KINDS.map((k) => k.type)).toEqual([
    "pulumi-nodejs:dynamic/runpod:Endpoint",
    "pulumi-nodejs:dynamic/runpod:Template",
    "pulumi-nodejs:dynamic/runpod:ContainerRegistryAuth",
  ]);
  expect(kindOf("pulumi-nodejs:dynamic/runpod:Template")).toBe(templateKind);
});

test("templates and registry credentials: listed, tied by name, auto-names recognised, removed after their users", async () => {
  const registry = await h.client.saveRegistryAuth({ name: `ghcr-${process.pid}a1b2c3d`.slice(0, 40), username: "bot", password: "s3cret-pw" });
  const template = await h.client.saveTemplate({
    name: `llm-${(process.pid % 0xfffffff).toString(16).padStart(7, "0")}`,
    imageName: "ghcr.io/acme/llm-worker:1.4.3",
    isServerless: true,
    containerRegistryAuthId: registry.id,
  });
  const endpoint = await createEndpoint(h.client, 0);
  await h.client.updateEndpointTemplate({ endpointId: endpoint.id, templateId: template.id });

  const templates = await templateKind.list(h.client);
  const listed = templates.find((t) => t.id === template.id)!;
  expect(listed).toMatchObject({ name: template.name, summary: "ghcr.io/acme/llm-worker:1.4.3" });
  expect(templateKind.madeBy(listed, { name: template.name })).toBe(true);
  expect(templateKind.madeBy(listed, { name: `${template.name}x` })).toBe(false);
  expect(templateKind.isAutoNameOf(template.name, "llm")).toBe(true);
  expect(templateKind.isAutoNameOf(template.name, "ll")).toBe(false);
  const auths = await registryAuthKind.list(h.client);
  const auth = auths.find((r) => r.id === registry.id)!;
  expect(auth.name).toBe(registry.name);
  expect(JSON.stringify(auths)).not.toContain("s3cret-pw");

  // In use: the platform refuses, and the error reaches the caller (orphans reports it).
  await expect(registryAuthKind.remove(h.client, auth)).rejects.toBeInstanceOf(GraphQLRequestError);
  await expect(templateKind.remove(h.client, listed)).rejects.toBeInstanceOf(GraphQLRequestError);
  await h.client.scaleDownAndDeleteEndpoint({ id: endpoint.id, name: endpoint.name, templateId: template.id, gpuIds: endpoint.gpuIds });
  await templateKind.remove(h.client, listed);
  await registryAuthKind.remove(h.client, auth);
  expect((await templateKind.list(h.client)).some((t) => t.id === template.id)).toBe(false);
  expect((await registryAuthKind.list(h.client)).some((r) => r.id === registry.id)).toBe(false);
  // Gone already counts as removed.
  await templateKind.remove(h.client, listed);
  await registryAuthKind.remove(h.client, auth);
});
