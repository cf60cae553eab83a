/**
 * Safe rollouts on REST v2 against the emulator (issue 30): a container change on an endpoint — here a
 * re-applied template — is followed to health; a release whose workers fail to start (the emulator's
 * `failingImages` fault), a smoke job ending otherwise than expected, or a rollout past `rolloutTimeout`
 * fails the update with a message naming the endpoint, the release, the failed workers and the last log
 * lines of one, env values redacted; the previous container settings are put back first unless
 * `rollback: false`.
 */
import type { RunningEmulator } from "../../emulator";
import { createClient, resolveClientConfig, type PlatformClient } from "../../src/api";
import { EndpointProvider } from "../../src/provider/endpoint/provider";
import { PlatformSession } from "../../src/provider/session";
import { TemplateProvider } from "../../src/provider/template/provider";
import { emulatorAddresses, emulatorPerFile, uniqueName } from "./harness";

jest.setTimeout(120_000);

let emu: RunningEmulator;
let client: PlatformClient;

emulatorPerFile((e, c) => ([emu, client] = [e, c]), { workerStartMs: 100, logIntervalMs: 5000 });
afterEach(() => emu.setFaults({}));

type Props = Record<string, unknown>;
const SECRET = "hf_rollout-secret-6931471805";

const newProcess = () => {
  const session = new PlatformSession(() => client, { api: "v2" });
  return { templates: new TemplateProvider(session, { deadlineMs: 3000, firstPauseMs: 50 }), endpoints: new EndpointProvider(session) };
};

async function checked(p: { check(o: unknown, n: Props): Promise<{ inputs?: Props; failures?: unknown[] }> }, args: Props): Promise<Props> {
  const r = await p.check(undefined, args);
  expect(r.failures).toEqual([]);
  return r.inputs!;
}

/** A template on `image` (env with a secret) and an endpoint from it with one warm worker; `settings` are the endpoint's. */
async function deployed(image: string, settings: Props = {}) {
  const { templates, endpoints } = newProcess();
  const tIn = await checked(templates, { name: uniqueName("roll"), imageName: image, env: { HF_TOKEN: SECRET } });
  const t = await templates.create(tIn);
  const eIn = await checked(endpoints, {
    name: uniqueName("roll-ep"),
    templateId: t.id,
    gpuIds: ["ADA_24"],
    workersMin: 1,
    workersMax: 2,
    waitForWorkers: true,
    ...settings,
  });
  const e = await endpoints.create(eIn);
  return { t: { id: t.id, inputs: tIn, outs: t.outs as Props }, e: { id: e.id, inputs: eIn, outs: e.outs as Props } };
}

/** The template's image changed (the Template update of a deployment), then the endpoint's update as the engine runs it. */
async function rollTo(d: Awaited<ReturnType<typeof deployed>>, image: string): Promise<unknown> {
  const p = newProcess();
  await p.templates.update(d.t.id, d.t.outs, { ...d.t.inputs, imageName: image });
  expect((await p.endpoints.diff(d.e.id, d.e.outs, d.e.inputs)).changed).toEqual(["templateId"]);
  return p.endpoints.update(d.e.id, d.e.outs, d.e.inputs).then(
    () => undefined,
    (err: Error) => err,
  );
}

const workers = async (id: string) => (await client.v2.listEndpointWorkers(id)).workers;

describe("a re-applied template whose image fails to start", () => {
  it("is rolled back: the update fails naming endpoint, release, failed workers and their last log lines; every worker runs the previous image again", async () => {
    const d = await deployed("me/good:1");
    emu.setFaults({ failingImages: ["me/bad:2"] });
    const err = (await rollTo(d, "me/bad:2")) as Error;
    expect(err).toBeInstanceOf(Error);
    const m = err.message;
    expect(m).toContain(`Endpoint ${d.e.inputs.name} (${d.e.id}): the rollout of release rel_`);
    expect(m).toMatch(/failed: 1 worker failed to start \(UNHEALTHY\)\./);
    expect(m).toMatch(/Last log lines of worker \S+:\n( {2}.*\n)* {2}.*container exited with code 1 during startup/);
    expect(m).toContain("Rolled back: every worker runs the previous container settings again (image me/good:1)");
    expect(m).toMatch(/What to do: .*pulumi up.*rollback: false/);
    expect(m).not.toContain(SECRET);

    expect((await client.v2.getEndpoint(d.e.id)).image).toBe("me/good:1");
    const ws = await workers(d.e.id);
    expect(ws.length).toBeGreaterThan(0);
    expect(ws.every((w) => w.image === "me/good:1" && !w.isStale)).toBe(true);
    // The template keeps the bad image (v2 endpoints hold copies): the next diff shows the re-apply again, and the
    // rollback's release, which the failed update could not record in the state.
    expect((await newProcess().endpoints.diff(d.e.id, d.e.outs, d.e.inputs)).changed).toEqual(["templateId", "releaseVersion"]);
  });

  it("with rollback: false the failed release stays in place and the message says so", async () => {
    const d = await deployed("me/good:1", { rollback: false });
    emu.setFaults({ failingImages: [{ image: "me/bad:3", failure: "pull" }] });
    const err = (await rollTo(d, "me/bad:3")) as Error;
    expect(err.message).toMatch(/failed: 1 worker failed to start/);
    expect(err.message).toMatch(/image pull failed: me\/bad:3/);
    expect(err.message).toContain("Not rolled back (rollback: false)");
    expect((await client.v2.getEndpoint(d.e.id)).image).toBe("me/bad:3");
  });

  it("with rolloutFailedStarts above what happens in time, rolloutTimeout ends it", async () => {
    const d = await deployed("me/good:1", { rolloutFailedStarts: 100, rolloutTimeout: 2 });
    emu.setFaults({ failingImages: ["me/bad:4"] });
    const err = (await rollTo(d, "me/bad:4")) as Error;
    expect(err.message).toMatch(/it was not done within rolloutTimeout \(2 s\): 0 of 2 workers on it; 1 worker failed to start/);
    expect((await client.v2.getEndpoint(d.e.id)).image).toBe("me/good:1");
  });
});

describe("the smoke gate", () => {
  it("a smoke job ending otherwise than smokeStatus fails the rollout and rolls it back; one ending as expected lets it through", async () => {
    const d = await deployed("me/good:1", { smokeInput: JSON.stringify({ fail: true }) });
    const err = (await rollTo(d, "me/good:2")) as Error;
    expect(err.message).toMatch(/its smoke job \S+ ended FAILED \(handler error: .*\), not the expected smokeStatus/);
    expect(err.message).toContain("Rolled back");
    expect((await client.v2.getEndpoint(d.e.id)).image).toBe("me/good:1");

    const p = newProcess();
    const inputs = await checked(p.endpoints, { ...d.e.inputs, __autonamed: undefined, smokeInput: JSON.stringify({ prompt: "ping" }) });
    await p.endpoints.update(d.e.id, d.e.outs, inputs);
    expect((await client.v2.getEndpoint(d.e.id)).image).toBe("me/good:2");
  });

  it("the smoke job goes to the endpoint's requestUrls, not to URLs built from inferenceUrl", async () => {
    const d = await deployed("me/good:1", { smokeInput: JSON.stringify({ prompt: "ping" }) });
    // Nothing listens at this inference address: only the record's requestUrls reach the job interface.
    const dead = createClient(resolveClientConfig({ apiKey: emu.apiKey, ...emulatorAddresses(emu), inferenceUrl: "http://127.0.0.1:1", timeoutMs: 5000 }, {}));
    const session = new PlatformSession(() => dead, { api: "v2" });
    const p = { templates: new TemplateProvider(session, { deadlineMs: 3000, firstPauseMs: 50 }), endpoints: new EndpointProvider(session) };
    emu.resetStats();
    await p.templates.update(d.t.id, d.t.outs, { ...d.t.inputs, imageName: "me/good:7" });
    await p.endpoints.update(d.e.id, d.e.outs, d.e.inputs);
    expect((await client.v2.getEndpoint(d.e.id)).image).toBe("me/good:7");
    expect(emu.stats().byOperation.run).toBe(1);
  });

  it("on a load-balancing endpoint the smoke request goes to requestUrls.base once health answers 200; a release whose workers fail is rolled back", async () => {
    const { endpoints } = newProcess();
    const args = {
      name: uniqueName("roll-lb"),
      type: "LB",
      imageName: "me/lb:1",
      gpuIds: ["ADA_24"],
      scalerType: "REQUEST_COUNT",
      scalerValue: 4,
      workersMin: 1,
      workersMax: 1,
      waitForWorkers: true,
      smokeInput: JSON.stringify({ prompt: "ping" }),
      rolloutTimeout: 30,
    };
    const e = await endpoints.create(await checked(endpoints, args));
    emu.resetStats();
    const next = newProcess().endpoints;
    const outs = (await next.update(e.id, e.outs as Props, await checked(next, { ...args, imageName: "me/lb:2" }))).outs as Props;
    expect((await client.v2.getEndpoint(e.id)).image).toBe("me/lb:2");
    const ops = emu.stats().byOperation;
    expect({ run: ops.run ?? 0, lbRequest: ops.lbRequest, pinged: (ops.lbPing ?? 0) > 0 }).toEqual({ run: 0, lbRequest: 1, pinged: true });

    emu.setFaults({ failingImages: ["me/lb:3"] });
    const last = newProcess().endpoints;
    const err = (await last.update(e.id, outs, await checked(last, { ...args, imageName: "me/lb:3" })).then(
      () => undefined,
      (x: Error) => x,
    )) as Error;
    expect(err?.message).toMatch(/failed: 1 worker failed to start \(UNHEALTHY\)/);
    expect(err.message).toContain("Rolled back: every worker runs the previous container settings again (image me/lb:2)");
    await last.delete(e.id, outs);
  });

  it("smokeInput must be JSON object text, smokeStatus a terminal job status (at check, naming the field)", async () => {
    const { endpoints } = newProcess();
    const r = await endpoints.check(undefined, { name: "x", templateId: "tpl_vllm", gpuIds: ["ADA_24"], smokeInput: "[1]", smokeStatus: "DONE" });
    expect(r.failures?.map((f) => f.property).sort()).toEqual(["smokeInput", "smokeStatus"]);
  });
});

describe("the smoke gate on an endpoint scaled to zero (issue 40: jobs run on workers)", () => {
  it("a release whose workers cannot start fails it: the smoke job stays queued while the workers its queue started crash, and the update rolls back naming both", async () => {
    const d = await deployed("me/good:1", { workersMin: 0, waitForWorkers: false, smokeInput: JSON.stringify({ prompt: "ping" }) });
    expect(await workers(d.e.id)).toEqual([]);
    emu.setFaults({ failingImages: ["me/bad:6"] });
    const err = (await rollTo(d, "me/bad:6")) as Error;
    // Where jobs ignored workers, the smoke job passed without any worker and the rollout was shown healthy.
    expect(err).toBeInstanceOf(Error);
    const m = err.message;
    expect(m).toContain(`Endpoint ${d.e.inputs.name} (${d.e.id}): the rollout of release rel_`);
    const smoke =
      /failed: 1 worker failed to start \(UNHEALTHY\); its smoke job (\S+) was still IN_QUEUE \(no worker of the release could take it\); it is cancelled\./.exec(
        m,
      );
    expect(smoke).not.toBeNull();
    expect(m).toMatch(/Last log lines of worker \S+:\n( {2}.*\n)* {2}.*container exited with code 1 during startup/);
    expect(m).toContain("Rolled back: every worker runs the previous container settings again (image me/good:1)");
    expect(m).not.toContain(SECRET);
    expect((await client.v2.getEndpoint(d.e.id)).image).toBe("me/good:1");
    expect((await workers(d.e.id)).every((w) => w.image === "me/good:1" && !w.isStale)).toBe(true);
    // Cancelled before the rollback: no worker of the previous container ran it afterwards.
    expect((await client.jobStatus(d.e.id, smoke![1])).status).toBe("CANCELLED");
  });
});

describe("a template save on GraphQL (endpoints follow their template)", () => {
  it("is followed on every endpoint using it; a failing image saves the previous settings back and both endpoints run them again", async () => {
    const session = new PlatformSession(() => client, { api: "graphql" });
    const templates = new TemplateProvider(session, { deadlineMs: 3000, firstPauseMs: 50 });
    const endpoints = new EndpointProvider(session);
    const tIn = await checked(templates, { name: uniqueName("roll-gql"), imageName: "me/good:1", env: { HF_TOKEN: SECRET } });
    const t = await templates.create(tIn);
    const ids: string[] = [];
    for (const n of [1, 2]) {
      const eIn = await checked(endpoints, {
        name: uniqueName(`roll-gql-ep${n}`),
        templateId: t.id,
        gpuIds: ["ADA_24"],
        workersMin: 1,
        workersMax: 2,
        waitForWorkers: true,
      });
      ids.push((await endpoints.create(eIn)).id);
    }
    emu.setFaults({ failingImages: ["me/bad:5"] });
    const next = new TemplateProvider(new PlatformSession(() => client, { api: "graphql" }), { deadlineMs: 3000, firstPauseMs: 50 });
    const err = await next.update(t.id, t.outs as Props, { ...tIn, imageName: "me/bad:5" }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err!.message).toContain(`Template ${tIn.name} (${t.id}): a rollout of its new settings failed.`);
    for (const id of ids) expect(err!.message).toMatch(new RegExp(`Endpoint \\S+ \\(${id}\\): the rollout of release \\S+ .*failed: 1 worker failed to start`));
    expect(err!.message).toContain("Rolled back: the template's previous settings were saved back (image me/good:1)");
    expect(err!.message).not.toContain(SECRET);

    expect((await client.v2.getTemplate(t.id)).image).toBe("me/good:1");
    for (const id of ids) {
      const ws = await workers(id);
      expect(ws.length).toBeGreaterThan(0);
      expect(ws.every((w) => w.image === "me/good:1" && !w.isStale)).toBe(true);
    }
  });
});

describe("an endpoint switched to another template on GraphQL", () => {
  it("is followed to health; a template whose image fails puts the previous templateId back, and its workers run the old image again", async () => {
    const session = new PlatformSession(() => client, { api: "graphql" });
    const templates = new TemplateProvider(session, { deadlineMs: 3000, firstPauseMs: 50 });
    const endpoints = new EndpointProvider(session);
    const good = await templates.create(await checked(templates, { name: uniqueName("switch-good"), imageName: "me/switch:1", env: { HF_TOKEN: SECRET } }));
    const bad = await templates.create(await checked(templates, { name: uniqueName("switch-bad"), imageName: "me/switch-bad:2", env: { HF_TOKEN: SECRET } }));
    const fine = await templates.create(await checked(templates, { name: uniqueName("switch-fine"), imageName: "me/switch:3" }));
    const eIn = await checked(endpoints, {
      name: uniqueName("switch-ep"),
      templateId: good.id,
      gpuIds: ["ADA_24"],
      workersMin: 1,
      workersMax: 2,
      waitForWorkers: true,
    });
    const e = await endpoints.create(eIn);
    emu.setFaults({ failingImages: ["me/switch-bad:2"] });

    const next = new EndpointProvider(new PlatformSession(() => client, { api: "graphql" }));
    const err = await next.update(e.id, e.outs as Props, await checked(next, { ...eIn, templateId: bad.id })).then(
      () => undefined,
      (x: Error) => x,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err!.message).toMatch(
      new RegExp(`^Endpoint ${eIn.name} \\(${e.id}\\): the rollout of release \\S+ .*failed: 1 worker failed to start \\(UNHEALTHY\\)`),
    );
    expect(err!.message).toContain("Last log lines of worker");
    expect(err!.message).toContain(`Rolled back: every worker runs the previous template again (${good.id}, image me/switch:1)`);
    expect(err!.message).not.toContain(SECRET);
    expect((await client.findEndpoint(e.id))?.templateId).toBe(good.id);
    const back = await workers(e.id);
    expect(back.length).toBeGreaterThan(0);
    expect(back.every((w) => w.image === "me/switch:1" && !w.isStale)).toBe(true);

    // A healthy switch is followed to its end: when the update returns, every worker runs the new image.
    emu.setFaults({});
    const done = await next.update(e.id, e.outs as Props, await checked(next, { ...eIn, templateId: fine.id }));
    expect(done.outs).toMatchObject({ templateId: fine.id });
    const after = await workers(e.id);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((w) => w.image === "me/switch:3" && !w.isStale)).toBe(true);
  });
});

describe("a template's smoke job (GraphQL: its endpoints follow it)", () => {
  it("runs on each endpoint using the template once its workers run the new settings; a job ending otherwise saves the previous settings back", async () => {
    const session = new PlatformSession(() => client, { api: "graphql" });
    const templates = new TemplateProvider(session, { deadlineMs: 3000, firstPauseMs: 50 });
    const endpoints = new EndpointProvider(session);
    const tIn = await checked(templates, { name: uniqueName("smoke-gql"), imageName: "me/smoke:1", smokeInput: '{"fail":true}' });
    const t = await templates.create(tIn);
    const eIn = await checked(endpoints, {
      name: uniqueName("smoke-gql-ep"),
      templateId: t.id,
      gpuIds: ["ADA_24"],
      workersMin: 1,
      workersMax: 2,
      waitForWorkers: true,
    });
    const e = await endpoints.create(eIn);

    const next = new TemplateProvider(new PlatformSession(() => client, { api: "graphql" }), { deadlineMs: 3000, firstPauseMs: 50 });
    const err = await next.update(t.id, t.outs as Props, { ...tIn, imageName: "me/smoke:2" }).then(
      () => undefined,
      (x: Error) => x,
    );
    expect(err).toBeInstanceOf(Error);
    expect(err!.message).toMatch(
      new RegExp(`Endpoint \\S+ \\(${e.id}\\): the rollout of release \\S+ .*failed: its smoke job \\S+ ended FAILED .*not the expected smokeStatus`),
    );
    expect(err!.message).toContain("Rolled back: the template's previous settings were saved back (image me/smoke:1)");
    expect((await client.v2.getTemplate(t.id)).image).toBe("me/smoke:1");
    const back = await workers(e.id);
    expect(back.every((w) => w.image === "me/smoke:1" && !w.isStale)).toBe(true);

    // A smoke job ending as expected lets the new settings through.
    const passing = { ...tIn, smokeInput: '{"prompt":"ping"}' };
    await next.update(t.id, t.outs as Props, { ...passing, imageName: "me/smoke:3" });
    const after = await workers(e.id);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((w) => w.image === "me/smoke:3" && !w.isStale)).toBe(true);
  });

  it("is refused at check on runpod:api v2 (endpoints hold copies there), naming the field, the path and what to set instead", async () => {
    const templates = new TemplateProvider(new PlatformSession(() => client, { api: "v2" }));
    const r = await templates.check(undefined, { name: "x", imageName: "me/smoke:1", smokeInput: '{"prompt":"ping"}' });
    expect(r.failures).toEqual([
      {
        property: "smokeInput",
        reason: expect.stringMatching(
          /^Template\.smokeInput cannot be expressed on API path v2 \(runpod:api\) \(there endpoints hold copies .*set smokeInput on each Endpoint instead\); only on graphql/,
        ),
      },
    ]);
  });
});
