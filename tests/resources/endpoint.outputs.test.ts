/**
 * The `Endpoint` class's outputs as the provider really gives them: Pulumi mocks stand in for the
 * engine, but each registration is answered by the package's provider module (`configure`, then
 * `resources.endpoint.check` / `create` / `read`, as the dynamic provider host calls them) against the
 * emulator over HTTP. So `id`, `endpointId` and `jobUrl` are the platform's, and the job URL takes jobs.
 */
import * as pulumi from "@pulumi/pulumi";
import type { RunningEmulator } from "../../emulator";
import { configure, resources } from "../../src/provider";
import { Endpoint } from "../../src/resources/endpoint";
import type { EndpointRecord } from "../../src/api";
import { emulatorAddresses, emulatorClient, startTestEmulator, uniqueName } from "../provider/harness";

let emu: RunningEmulator;
/** Made outside Pulumi before the provider's first listing (a listing is shared for a burst of lookups). */
let existing: EndpointRecord;

beforeAll(async () => {
  emu = await startTestEmulator();
  existing = await emulatorClient(emu).saveEndpoint({ name: uniqueName("got"), templateId: "tpl_comfy", gpuIds: "AMPERE_16" });
  const config: Record<string, string> = { "runpod:apiKey": emu.apiKey };
  for (const [k, v] of Object.entries(emulatorAddresses(emu))) config[`runpod:${k}`] = v;
  await configure({ config: { get: (key) => config[key] } });
  await pulumi.runtime.setMocks(
    {
      newResource: async (args) => {
        if (args.id) {
          const read = await resources.endpoint.read(args.id, args.inputs);
          return { id: read.id ?? args.id, state: read.props ?? {} };
        }
        const checked = await resources.endpoint.check({}, args.inputs);
        if (checked.failures?.length) throw new Error(JSON.stringify(checked.failures));
        const created = await resources.endpoint.create(checked.inputs!);
        return { id: created.id, state: created.outs };
      },
      call: async (args) => args.inputs,
    },
    "proj",
    "stack",
    false,
  );
});
afterAll(() => emu.close());

const valueOf = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((resolve) => o.apply((v) => resolve(v)));

describe("Endpoint outputs from the provider, against the emulator", () => {
  it("id and endpointId are the created endpoint's id; jobUrl is {inferenceUrl}/v2/{id}/", async () => {
    const name = uniqueName("outputs");
    const ep = new Endpoint("outputs", { name, templateId: "tpl_vllm", gpuIds: ["ADA_24"], idleTimeout: 7 });
    const [id, endpointId, jobUrl] = await Promise.all([valueOf(ep.id), valueOf(ep.endpointId), valueOf(ep.jobUrl)]);
    const onPlatform = emu.endpoints(emu.apiKey).filter((e) => e.name === name);
    expect(onPlatform.map((e) => e.id)).toEqual([id]);
    expect(endpointId).toBe(id);
    expect(jobUrl).toBe(`${emu.urls.inference}/v2/${id}/`);
    expect(await valueOf(ep.idleTimeout)).toBe(7);
  });

  it("the job URL takes jobs for that endpoint", async () => {
    const ep = new Endpoint("jobs", { name: uniqueName("jobs"), templateId: "tpl_vllm", gpuIds: ["ADA_24"] });
    const [id, jobUrl] = await Promise.all([valueOf(ep.id), valueOf(ep.jobUrl)]);
    const headers = { Authorization: `Bearer ${emu.apiKey}`, "Content-Type": "application/json" };
    const run = await fetch(`${jobUrl}run`, { method: "POST", headers, body: JSON.stringify({ input: { prompt: "hi" } }) });
    expect(run.status).toBe(200);
    const job = (await run.json()) as { id: string };
    const status = await fetch(`${jobUrl}status/${job.id}`, { headers });
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({ id: job.id });
    const elsewhere = await fetch(`${emu.urls.inference}/v2/not-${id}/status/${job.id}`, { headers });
    expect(elsewhere.status).toBe(404);
  });

  it("Endpoint.get: outputs are the platform's record of that id", async () => {
    const rec = existing;
    const ep = Endpoint.get("got", rec.id);
    expect(await valueOf(ep.endpointId)).toBe(rec.id);
    expect(await valueOf(ep.jobUrl)).toBe(`${emu.urls.inference}/v2/${rec.id}/`);
    expect(await valueOf(ep.gpuIds)).toEqual(["AMPERE_16"]);
  });
});
