/**
 * Template → endpoint on REST v2, where an endpoint holds a copy of its template's container settings:
 * the endpoint re-applies its template whenever the template's current settings differ from the
 * container it runs, compared live (template listing against the endpoint's v2 record), so a change
 * made outside Pulumi, by another stack or by an interrupted `up` reaches it; a Template diff of the
 * same deployment shows it at preview; a read marks an endpoint running an older copy. Env values are
 * compared in memory only. Against the emulator over HTTP.
 */
import type { PlatformClient } from "../../src/api";
import { EndpointProvider } from "../../src/provider/endpoint/provider";
import { PlatformSession } from "../../src/provider/session";
import { TemplateProvider } from "../../src/provider/template/provider";
import { UNKNOWN } from "../../src/provider/unknown";
import { emulatorPerFile, uniqueName } from "./harness";

jest.setTimeout(60_000);

let client: PlatformClient;
emulatorPerFile((_emu, c) => (client = c));

type Props = Record<string, unknown>;
const SECRET = "hf_reapply-secret-5772156649";
const SECRET_2 = "hf_reapply-secret-1414213562";

/** A fresh provider process on `api` (its own session: nothing remembered from an earlier run). */
const newProcess = (api: "v2" | "graphql" = "v2") => {
  const session = new PlatformSession(() => client, { api });
  return { templates: new TemplateProvider(session, { deadlineMs: 3000, firstPauseMs: 50 }), endpoints: new EndpointProvider(session) };
};

async function checked(p: { check(o: unknown, n: Props): Promise<{ inputs?: Props; failures?: unknown[] }> }, args: Props): Promise<Props> {
  const r = await p.check(undefined, args);
  expect(r.failures).toEqual([]);
  return r.inputs!;
}

/** A template with a secret env value and an endpoint made from it (declaring `own` container fields), in one process. */
async function deployed(api: "v2" | "graphql" = "v2", own: Props = {}) {
  const { templates, endpoints } = newProcess(api);
  const tIn = await checked(templates, { name: uniqueName("reapply"), imageName: "me/worker:1", env: { MODEL: "a", HF_TOKEN: SECRET } });
  const t = await templates.create(tIn);
  const args = { name: uniqueName("reapply-ep"), templateId: t.id, gpuIds: ["ADA_24"], workersMax: 1, ...own };
  const eIn = await checked(endpoints, args);
  const e = await endpoints.create(eIn);
  return { t: { id: t.id, inputs: tIn, outs: t.outs as Props }, e: { id: e.id, args, inputs: eIn, outs: e.outs as Props } };
}

describe("an endpoint re-applies its template when the template's settings differ from its own copy (REST v2)", () => {
  it("a template changed outside Pulumi shows as the endpoint's re-apply in a fresh process; after the update, no diff", async () => {
    const { t, e } = await deployed();
    expect(e.outs.templateCurrent).toBe(true);
    expect((await newProcess().endpoints.diff(e.id, e.outs, e.inputs)).changes).toBe(false);

    await client.v2.updateTemplate(t.id, { image: "me/worker:2" });
    const next = newProcess();
    expect(await next.endpoints.diff(e.id, e.outs, e.inputs)).toMatchObject({ changes: true, changed: ["templateId"], replaces: [] });

    const updated = await next.endpoints.update(e.id, e.outs, e.inputs);
    expect((await client.v2.getEndpoint(e.id)).image).toBe("me/worker:2");
    expect(updated.outs).toMatchObject({ templateCurrent: true });
    expect((await newProcess().endpoints.diff(e.id, updated.outs as Props, e.inputs)).changes).toBe(false);
  });

  it("an env-only change (a new secret value) is detected, and nothing of the env reaches diffs, messages or outputs other than the secret ones", async () => {
    const { t, e } = await deployed();
    await client.v2.updateTemplate(t.id, { env: { MODEL: "a", HF_TOKEN: SECRET_2 } });
    const next = newProcess();
    const diff = await next.endpoints.diff(e.id, e.outs, e.inputs);
    expect(diff).toMatchObject({ changes: true, changed: ["templateId"] });

    const read = await next.endpoints.read(e.id, e.outs);
    expect(read.props).toMatchObject({ templateCurrent: false });
    // `env` and `releasedContainer` are Pulumi secrets (encrypted in state); nothing else holds the env.
    const { env: _env, releasedContainer: _released, ...plain } = read.props as Props;
    const { env: _env2, releasedContainer: _released2, ...created } = e.outs;
    const seen = JSON.stringify([created, diff, plain]);
    for (const value of [SECRET, SECRET_2, "HF_TOKEN"]) expect({ value, seen: seen.includes(value) }).toEqual({ value, seen: false });

    await next.endpoints.update(e.id, read.props as Props, e.inputs);
    expect((await client.v2.getEndpoint(e.id)).env).toEqual({ MODEL: "a", HF_TOKEN: SECRET_2 });
    const again = await newProcess().endpoints.read(e.id, read.props as Props);
    expect(again.props).toMatchObject({ templateCurrent: true });
  });

  it("refresh marks an endpoint running an older copy (templateCurrent false), and the stored mark alone makes the diff re-apply", async () => {
    const { t, e } = await deployed();
    await client.v2.updateTemplate(t.id, { args: "serve --fast" });
    const refreshed = await newProcess().endpoints.read(e.id, e.outs);
    expect(refreshed.props).toMatchObject({ templateCurrent: false });
    expect(refreshed.inputs).not.toHaveProperty("templateCurrent");

    // The template is put back outside: the live comparison finds nothing, the stored mark still re-applies.
    await client.v2.updateTemplate(t.id, { args: "" });
    expect(await newProcess().endpoints.diff(e.id, refreshed.props as Props, e.inputs)).toMatchObject({ changes: true, changed: ["templateId"] });
    expect((await newProcess().endpoints.diff(e.id, e.outs, e.inputs)).changes).toBe(false);
  });

  it("a Template diff of the same process shows the re-apply before the template is touched (preview)", async () => {
    const { t, e } = await deployed();
    const preview = newProcess();
    const tDiff = await preview.templates.diff(t.id, t.outs, { ...t.inputs, imageName: "me/worker:3" });
    expect(tDiff).toMatchObject({ changes: true, changed: ["imageName"] });
    expect(await preview.endpoints.diff(e.id, e.outs, e.inputs)).toMatchObject({ changes: true, changed: ["templateId"] });
    expect((await client.v2.getTemplate(t.id)).image).toBe("me/worker:1");
    // Another process, whose Template diff saw no container change, shows none.
    const other = newProcess();
    expect((await other.templates.diff(t.id, t.outs, { ...t.inputs, isPublic: false })).changes).toBe(false);
    expect((await other.endpoints.diff(e.id, e.outs, e.inputs)).changes).toBe(false);
  });
});

describe("the settings a Template diff of the same process is about to apply", () => {
  it("an endpoint already running them shows no re-apply; unknown ones (preview) show one", async () => {
    const { t, e } = await deployed();
    // Outside Pulumi: the template moves to :2 and the endpoint re-applies it; the template's state still says :1.
    await client.v2.updateTemplate(t.id, { image: "me/worker:2" });
    await client.v2.updateEndpoint(e.id, { templateId: t.id });
    const p = newProcess();
    expect((await p.templates.diff(t.id, t.outs, { ...t.inputs, imageName: "me/worker:2" })).changes).toBe(true);
    // No re-apply; the release made outside Pulumi shows as one nobody followed (the next up follows it).
    expect((await p.endpoints.diff(e.id, e.outs, e.inputs)).changed).toEqual(["releaseVersion"]);

    const unknown = newProcess();
    await unknown.templates.diff(t.id, t.outs, { ...t.inputs, imageName: UNKNOWN });
    expect(await unknown.endpoints.diff(e.id, e.outs, e.inputs)).toMatchObject({ changes: true, changed: ["templateId", "releaseVersion"] });
  });
});

describe("templateChanges: the template fields a re-apply brings, in the endpoint's checked inputs (what a Node.js preview row names)", () => {
  type Deployed = Awaited<ReturnType<typeof deployed>>;
  /** The endpoint's check as the engine calls it in process `p` (olds: its stored inputs), after `p`'s Template diff of `template`, if any. */
  async function checkAfter(p: ReturnType<typeof newProcess>, { t, e }: Deployed, template?: Props): Promise<Props> {
    if (template) await p.templates.diff(t.id, t.outs, { ...t.inputs, ...template });
    const r = await p.endpoints.check(e.inputs, e.args);
    expect(r.failures).toEqual([]);
    return r.inputs as Props;
  }

  it("names the changed container fields, names only; the diff ignores the key, and after the update it is gone and no change is left", async () => {
    const d = await deployed();
    const { e } = d;
    const p = newProcess();
    const inputs = await checkAfter(p, d, { imageName: "me/worker:2", env: { MODEL: "a", HF_TOKEN: SECRET_2 } });
    expect(inputs.templateChanges).toEqual(["env", "imageName"]);
    for (const value of [SECRET, SECRET_2, "HF_TOKEN"]) expect({ value, seen: JSON.stringify(inputs).includes(value) }).toEqual({ value, seen: false });

    const { templateChanges: _shown, ...program } = inputs;
    const diff = await p.endpoints.diff(e.id, e.outs, inputs);
    expect(diff).toMatchObject({ changes: true, changed: ["templateId"], replaces: [] });
    expect(await p.endpoints.diff(e.id, e.outs, program)).toEqual(diff);

    await p.templates.update(d.t.id, d.t.outs, { ...d.t.inputs, imageName: "me/worker:2", env: { MODEL: "a", HF_TOKEN: SECRET_2 } });
    const updated = (await p.endpoints.update(e.id, e.outs, inputs)).outs as Props;
    expect((await client.v2.getEndpoint(e.id)).image).toBe("me/worker:2");
    expect((updated.__checked as { keys: string[] }).keys).not.toContain("templateChanges");
    // The next deployment: check leaves the key out, and the diff finds nothing, with or without the stored key.
    const next = newProcess();
    const again = await next.endpoints.check(inputs, e.args);
    expect(again.inputs).not.toHaveProperty("templateChanges");
    expect((await next.endpoints.diff(e.id, updated, again.inputs as Props)).changes).toBe(false);
    expect((await next.endpoints.diff(e.id, updated, inputs)).changes).toBe(false);
  });

  it("no key: template unchanged, changed outside its container, outside Pulumi (drift), or on GraphQL", async () => {
    const d = await deployed();
    expect(await checkAfter(newProcess(), d)).not.toHaveProperty("templateChanges");
    const pub = newProcess();
    expect((await pub.templates.diff(d.t.id, d.t.outs, { ...d.t.inputs, isPublic: true })).changes).toBe(true);
    expect(await checkAfter(pub, d)).not.toHaveProperty("templateChanges");
    // Changed outside Pulumi: the re-apply still shows (the diff names templateId), but no field is named.
    await client.v2.updateTemplate(d.t.id, { image: "me/worker:9" });
    const drift = newProcess();
    expect(await checkAfter(drift, d)).not.toHaveProperty("templateChanges");
    expect(await drift.endpoints.diff(d.e.id, d.e.outs, d.e.inputs)).toMatchObject({ changes: true, changed: ["templateId"] });

    const g = await deployed("graphql");
    expect(await checkAfter(newProcess("graphql"), g, { imageName: "me/worker:2" })).not.toHaveProperty("templateChanges");
  });

  it("the endpoint's own fields win: a field it declares is not named, env only for a changed key it does not declare", async () => {
    const d = await deployed("v2", { imageName: "me/own:1", env: { MODEL: "b" } });
    expect(await checkAfter(newProcess(), d, { imageName: "me/worker:2" })).not.toHaveProperty("templateChanges");
    expect(await checkAfter(newProcess(), d, { imageName: "me/worker:2", env: { MODEL: "c", HF_TOKEN: SECRET } })).not.toHaveProperty("templateChanges");
    expect(
      (await checkAfter(newProcess(), d, { imageName: "me/worker:2", dockerArgs: "serve", env: { MODEL: "a", HF_TOKEN: SECRET_2 } })).templateChanges,
    ).toEqual(["dockerArgs", "env"]);
    // A template env not known yet (preview) may change any key.
    expect((await checkAfter(newProcess(), d, { env: UNKNOWN })).templateChanges).toEqual(["env"]);
  });
});

describe("on GraphQL (endpoints follow their template)", () => {
  it("shows no re-apply and keeps templateCurrent true", async () => {
    const { t, e } = await deployed("graphql");
    expect(e.outs.templateCurrent).toBe(true);
    await newProcess("graphql").templates.update(t.id, t.outs, { ...t.inputs, imageName: "me/worker:2" });
    const next = newProcess("graphql");
    expect((await next.endpoints.diff(e.id, e.outs, e.inputs)).changes).toBe(false);
    expect((await next.endpoints.read(e.id, e.outs)).props).toMatchObject({ templateCurrent: true });
  });
});
