/**
 * Templates as emulator state (issue 14, Emulator): saveTemplate create/modify under both save semantics,
 * deleteTemplate by name with the in-use refusal and release window, myself.podTemplates, validation errors
 * naming the field, unique names, per-user isolation, endpoints limited to their owner's serverless templates,
 * updateEndpointTemplate, persistence across a restart, stats and fault matching by operation name.
 */
import { mkdtempSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import type { RunningEmulator } from "../../emulator";
import { createEndpoint, createRegistryAuth, createTemplate, firstError, gql, rest, SAVE, saveTemplate, start, TEMPLATE_FIELDS } from "./harness";

let emu: RunningEmulator;
beforeAll(async () => {
  // Explicit: the default follows RUNPOD_EMULATOR_SAVE_SEMANTICS, and the replace test below needs replace.
  emu = await start({ saveSemantics: "replace" });
});
afterAll(() => emu.close());

const PODTEMPLATES = `{ myself { podTemplates { ${TEMPLATE_FIELDS} } } }`;
const DELETE = `mutation($name: String!) { deleteTemplate(templateName: $name) }`;
const UPDATE_EP_TEMPLATE = `mutation($input: UpdateEndpointTemplateInput!) { updateEndpointTemplate(input: $input) { id templateId template { id imageName } } }`;

async function podTemplates(key = emu.apiKey): Promise<any[]> {
  const res = await gql(emu, PODTEMPLATES, undefined, key);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.myself.podTemplates;
}

describe("saveTemplate: create", () => {
  test("applies the stated defaults and lists the template for its owner only", async () => {
    const res = await saveTemplate(emu, { name: "defaults-tpl", imageName: "acme/llm:1.0" });
    expect(res.body.errors).toBeUndefined();
    const t = res.body.data.saveTemplate;
    expect(t.id).toMatch(/^[a-z0-9]{14}$/);
    expect(t).toEqual({
      id: t.id,
      name: "defaults-tpl",
      imageName: "acme/llm:1.0",
      dockerArgs: "",
      containerDiskInGb: 10,
      volumeInGb: 0,
      volumeMountPath: "/workspace",
      ports: "",
      env: [],
      isServerless: false,
      containerRegistryAuthId: null,
      readme: "",
      startSsh: true,
      isPublic: false,
    });
    expect(await podTemplates()).toContainEqual(t);
    expect((await podTemplates(emu.otherUserApiKey)).map((x) => x.id)).not.toContain(t.id);
    expect(emu.templates("user_1").map((x) => x.id)).toContain(t.id);
    expect(emu.templates(emu.otherUserApiKey).map((x) => x.id)).not.toContain(t.id);
    const state = await rest("GET", `${emu.urls.admin}/state?user=user_1`, undefined);
    expect(state.body.templates).toContainEqual({ ...t, userId: "user_1", templateVersion: 1 });
  });

  test("accepts every field", async () => {
    const reg = await createRegistryAuth(emu);
    const input = {
      name: "full-tpl",
      imageName: "ghcr.io/acme/llm-worker:1.4.3",
      dockerArgs: "python handler.py --fast",
      containerDiskInGb: 20,
      volumeInGb: 100,
      volumeMountPath: "/models",
      ports: "8888/http, 22/tcp",
      env: [
        { key: "MODEL", value: "llama-3-8b" },
        { key: "HF_TOKEN", value: "hf_secret" },
      ],
      isServerless: true,
      containerRegistryAuthId: reg.id,
      startSsh: false,
      isPublic: false,
      readme: "# LLM worker",
    };
    const res = await saveTemplate(emu, input);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.saveTemplate).toEqual({ id: expect.any(String), ...input, ports: "8888/http,22/tcp" });
  });

  test("the seeded templates are ordinary state of their owners", async () => {
    const mine = (await podTemplates()).map((t) => t.id);
    expect(mine).toEqual(expect.arrayContaining(["tpl_vllm", "tpl_comfy", "tpl_pod_only"]));
    expect(mine).not.toContain("tpl_other");
    expect((await podTemplates(emu.otherUserApiKey)).map((t) => t.id)).toEqual(["tpl_other"]);
    const vllm = (await podTemplates()).find((t) => t.id === "tpl_vllm");
    expect(vllm).toMatchObject({ name: "vllm-worker", imageName: "runpod/worker-v1-vllm:stable-cuda12.1.0", isServerless: true });
  });

  test.each([
    ["name missing", { name: undefined }, "name", /name.*required/],
    ["name blank", { name: "  ", imageName: "a/b:1" }, "name", /name.*required/],
    ["imageName missing", { imageName: undefined }, "imageName", /imageName.*required/],
    ["imageName with a space", { name: "x-space", imageName: "a/b :1" }, "imageName", /imageName.*whitespace/],
    ["containerDiskInGb 0", { containerDiskInGb: 0 }, "containerDiskInGb", /containerDiskInGb 0.*integer number of GB from 1 to 1024/],
    ["containerDiskInGb 1025", { containerDiskInGb: 1025 }, "containerDiskInGb", /from 1 to 1024/],
    ["volumeInGb -1", { volumeInGb: -1 }, "volumeInGb", /volumeInGb -1.*from 0 to 4096/],
    ["volumeInGb 4097", { volumeInGb: 4097 }, "volumeInGb", /from 0 to 4096/],
    ["volumeMountPath relative", { volumeMountPath: "workspace" }, "volumeMountPath", /absolute path/],
    ["ports protocol", { ports: "8888/udp" }, "ports", /"8888\/udp".*http or tcp/],
    ["ports without protocol", { ports: "8888" }, "ports", /port\/protocol/],
    ["ports out of range", { ports: "70000/tcp" }, "ports", /from 1 to 65535/],
    ["ports repeated", { ports: "22/tcp,22/tcp" }, "ports", /must not repeat/],
    ["env key invalid", { env: [{ key: "1BAD", value: "x" }] }, "env", /env\[0\]\.key "1BAD"/],
    [
      "env key with dash",
      {
        env: [
          { key: "A", value: "1" },
          { key: "MY-VAR", value: "x" },
        ],
      },
      "env",
      /env\[1\]\.key "MY-VAR"/,
    ],
    [
      "env key repeated",
      {
        env: [
          { key: "A", value: "1" },
          { key: "A", value: "2" },
        ],
      },
      "env",
      /key "A" appears more than once/,
    ],
    ["env value missing", { env: [{ key: "A" }] }, "env", /env\[0\]\.value/],
    ["unknown registry credentials", { containerRegistryAuthId: "nope" }, "containerRegistryAuthId", /Registry credentials "nope" not found/],
  ])("refuses %s, naming the field", async (label, input, field, message) => {
    const name = `bad-${label.replace(/\W+/g, "-")}`;
    const before = (await podTemplates()).length;
    const res = await saveTemplate(emu, { name, imageName: "a/b:1", ...input });
    const err = firstError(res);
    expect(err.extensions).toMatchObject({ code: "BAD_USER_INPUT", field });
    expect(err.message).toMatch(message);
    expect(res.body.data).toEqual({ saveTemplate: null });
    expect(await podTemplates()).toHaveLength(before);
  });

  test("ports errors list the allowed protocols", async () => {
    const err = firstError(await saveTemplate(emu, { name: "p", imageName: "a/b:1", ports: "80/ftp" }));
    expect(err.extensions.allowed).toEqual(["http", "tcp"]);
  });

  test("another user's registry credentials are not usable", async () => {
    const theirs = await createRegistryAuth(emu, {}, emu.otherUserApiKey);
    const err = firstError(await saveTemplate(emu, { name: "steal", imageName: "a/b:1", containerRegistryAuthId: theirs.id }));
    expect(err.extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "containerRegistryAuthId" });
  });

  test('"" and null registry credentials mean none', async () => {
    expect((await createTemplate(emu, { containerRegistryAuthId: "" })).containerRegistryAuthId).toBe("");
    expect((await createTemplate(emu, { containerRegistryAuthId: null })).containerRegistryAuthId).toBeNull();
  });

  test("names are unique per user, not across users", async () => {
    await createTemplate(emu, { name: "unique-name" });
    const err = firstError(await saveTemplate(emu, { name: "unique-name", imageName: "a/b:2" }));
    expect(err.extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "name" });
    expect(err.message).toMatch(/"unique-name" already exists/);
    expect((await createTemplate(emu, { name: "unique-name" }, emu.otherUserApiKey)).name).toBe("unique-name");
    // The seeded names count too.
    expect(firstError(await saveTemplate(emu, { name: "vllm-worker", imageName: "a/b:1" })).extensions.field).toBe("name");
  });

  test("a read-only key cannot save", async () => {
    const res = await saveTemplate(emu, { name: "ro", imageName: "a/b:1" }, emu.readOnlyApiKey);
    expect(res.status).toBe(403);
    expect(firstError(res).extensions.code).toBe("FORBIDDEN");
  });

  test("an inline mutation with a nullable input (as the official clients write it) works", async () => {
    const res = await gql(emu, `mutation($input: SaveTemplateInput) { saveTemplate(input: $input) { id name } }`, {
      input: { name: "nullable-input", imageName: "a/b:1" },
    });
    expect(res.body.errors).toBeUndefined();
    const inline = await gql(
      emu,
      `mutation { saveTemplate(input: { name: "inline-tpl", imageName: "a/b:1", env: [{ key: "K", value: "v" }] }) { name env { key value } } }`,
    );
    expect(inline.body.data.saveTemplate).toEqual({ name: "inline-tpl", env: [{ key: "K", value: "v" }] });
  });
});

describe("saveTemplate: modify", () => {
  test("replace semantics (default): omitted fields reset to their defaults", async () => {
    const t = await createTemplate(emu, { containerDiskInGb: 30, dockerArgs: "run", readme: "r", env: [{ key: "A", value: "1" }] });
    const res = await saveTemplate(emu, { id: t.id, name: t.name, imageName: "acme/worker:2.0" });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.saveTemplate).toMatchObject({
      id: t.id,
      imageName: "acme/worker:2.0",
      containerDiskInGb: 10,
      dockerArgs: "",
      readme: "",
      env: [],
      isServerless: true,
    });
    expect(firstError(await saveTemplate(emu, { id: t.id, imageName: "x/y:1" })).extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "name" });
  });

  test("merge semantics: omitted fields keep their values", async () => {
    const merging = await start({ saveSemantics: "merge" });
    try {
      const t = await createTemplate(merging, { containerDiskInGb: 30, dockerArgs: "run", env: [{ key: "A", value: "1" }] });
      const res = await saveTemplate(merging, { id: t.id, imageName: "acme/worker:2.0" });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.saveTemplate).toEqual({ ...t, imageName: "acme/worker:2.0" });
      // null still resets.
      expect((await saveTemplate(merging, { id: t.id, dockerArgs: null })).body.data.saveTemplate.dockerArgs).toBe("");
    } finally {
      await merging.close();
    }
  });

  test("renaming keeps names unique; isServerless is fixed at creation", async () => {
    const a = await createTemplate(emu, { name: "rename-a" });
    await createTemplate(emu, { name: "rename-b" });
    expect(firstError(await saveTemplate(emu, { ...a, name: "rename-b" })).extensions.field).toBe("name");
    expect((await saveTemplate(emu, { ...a, name: "rename-c" })).body.data.saveTemplate.name).toBe("rename-c");
    const err = firstError(await saveTemplate(emu, { ...a, name: "rename-c", isServerless: false }));
    expect(err.extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "isServerless" });
  });

  test("an unknown id or another user's template is NOT_FOUND", async () => {
    const theirs = await createTemplate(emu, {}, emu.otherUserApiKey);
    for (const id of ["nope", theirs.id]) {
      const err = firstError(await saveTemplate(emu, { id, name: "x", imageName: "a/b:1" }));
      expect(err.extensions).toMatchObject({ code: "NOT_FOUND", field: "id" });
    }
    expect(emu.templates(emu.otherUserApiKey).find((t) => t.id === theirs.id)).toMatchObject({ name: theirs.name, imageName: theirs.imageName });
  });

  test("the template version increases on image or env changes only", async () => {
    const t = await createTemplate(emu, {
      env: [
        { key: "A", value: "1" },
        { key: "B", value: "2" },
      ],
    });
    const version = () => emu.templates().find((x) => x.id === t.id)!.templateVersion;
    expect(version()).toBe(1);
    await saveTemplate(emu, { ...t, readme: "docs", containerDiskInGb: 40 });
    expect(version()).toBe(1);
    // The same variables in another order are the same env.
    await saveTemplate(emu, {
      ...t,
      env: [
        { key: "B", value: "2" },
        { key: "A", value: "1" },
      ],
    });
    expect(version()).toBe(1);
    await saveTemplate(emu, { ...t, env: [{ key: "A", value: "changed" }] });
    expect(version()).toBe(2);
    await saveTemplate(emu, { ...t, imageName: "acme/worker:9" });
    expect(version()).toBe(3);
  });
});

describe("endpoints and templates", () => {
  test("an endpoint may use its owner's serverless template created with saveTemplate", async () => {
    const t = await createTemplate(emu);
    const ep = await createEndpoint(emu, { name: "on-new-tpl", templateId: t.id });
    expect(ep.templateId).toBe(t.id);
    const pod = await createTemplate(emu, { isServerless: false });
    const theirs = await createTemplate(emu, {}, emu.otherUserApiKey);
    for (const [id, message] of [
      [pod.id, /not a serverless template/],
      [theirs.id, /not found/],
      ["nope", /not found/],
    ] as const) {
      const res = await gql(emu, SAVE, { input: { name: "bad-tpl", templateId: id, gpuIds: "AMPERE_24" } });
      const err = firstError(res);
      expect(err.extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "templateId" });
      expect(err.message).toMatch(message);
    }
  });

  test("updateEndpointTemplate points an endpoint at another template", async () => {
    const a = await createTemplate(emu, { imageName: "acme/a:1" });
    const b = await createTemplate(emu, { imageName: "acme/b:1" });
    const ep = await createEndpoint(emu, { templateId: a.id });
    const res = await gql(emu, UPDATE_EP_TEMPLATE, { input: { endpointId: ep.id, templateId: b.id } });
    expect(res.body).toEqual({ data: { updateEndpointTemplate: { id: ep.id, templateId: b.id, template: { id: b.id, imageName: "acme/b:1" } } } });
    expect(emu.endpoints().find((e) => e.id === ep.id)!.templateId).toBe(b.id);
    // Errors: unknown endpoint, another user's endpoint, unusable template, missing field.
    const theirs = await createEndpoint(emu, { templateId: "tpl_other" }, emu.otherUserApiKey);
    expect(firstError(await gql(emu, UPDATE_EP_TEMPLATE, { input: { endpointId: theirs.id, templateId: b.id } })).extensions).toMatchObject({
      code: "NOT_FOUND",
    });
    expect(firstError(await gql(emu, UPDATE_EP_TEMPLATE, { input: { endpointId: ep.id, templateId: "tpl_pod_only" } })).extensions).toMatchObject({
      field: "templateId",
    });
    expect(firstError(await gql(emu, UPDATE_EP_TEMPLATE, { input: { endpointId: ep.id } })).extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      field: "templateId",
    });
  });
});

describe("deleteTemplate", () => {
  test("deletes by name; an unknown name or another user's template is NOT_FOUND", async () => {
    const t = await createTemplate(emu, { name: "to-delete" });
    const theirs = await createTemplate(emu, { name: "their-delete" }, emu.otherUserApiKey);
    expect((await gql(emu, DELETE, { name: "to-delete" })).body).toEqual({ data: { deleteTemplate: null } });
    expect((await podTemplates()).map((x) => x.id)).not.toContain(t.id);
    for (const name of ["to-delete", "their-delete"]) {
      const err = firstError(await gql(emu, DELETE, { name }));
      expect(err.extensions).toMatchObject({ code: "NOT_FOUND", field: "templateName" });
      expect(err.message).toContain(name);
    }
    expect(emu.templates(emu.otherUserApiKey).map((x) => x.id)).toContain(theirs.id);
  });

  test("is refused while an endpoint uses the template, naming the endpoints", async () => {
    const t = await createTemplate(emu, { name: "in-use" });
    const one = await createEndpoint(emu, { name: "user-one", templateId: t.id, workersMax: 0 });
    const two = await createEndpoint(emu, { name: "user-two", templateId: t.id, workersMax: 0 });
    const res = await gql(emu, DELETE, { name: "in-use" });
    const err = firstError(res);
    expect(err.extensions).toMatchObject({ code: "FAILED_PRECONDITION", field: "templateName" });
    expect(err.message).toContain(one.id);
    expect(err.message).toContain(two.id);
    expect(emu.templates().map((x) => x.id)).toContain(t.id);
    // Moving one away and deleting the other releases it.
    await gql(emu, UPDATE_EP_TEMPLATE, { input: { endpointId: one.id, templateId: "tpl_vllm" } });
    const stillOne = firstError(await gql(emu, DELETE, { name: "in-use" }));
    expect(stillOne.message).toContain(two.id);
    expect(stillOne.message).not.toContain(one.id);
    expect((await gql(emu, `mutation { deleteEndpoint(id: "${two.id}") }`)).body.errors).toBeUndefined();
    expect((await gql(emu, DELETE, { name: "in-use" })).body).toEqual({ data: { deleteTemplate: null } });
  });

  test("with templateReleaseMs, stays refused for that long after the last endpoint stopped using it", async () => {
    const releasing = await start({ templateReleaseMs: 600 });
    try {
      const t = await createTemplate(releasing, { name: "release-window" });
      const ep = await createEndpoint(releasing, { templateId: t.id, workersMax: 0 });
      // Never used by an endpoint that left: no window yet, only the in-use refusal.
      expect(firstError(await gql(releasing, DELETE, { name: "release-window" })).message).toContain(ep.id);
      await gql(releasing, `mutation { deleteEndpoint(id: "${ep.id}") }`);
      const refused = Date.now();
      const err = firstError(await gql(releasing, DELETE, { name: "release-window" }));
      expect(err.extensions).toMatchObject({ code: "FAILED_PRECONDITION", field: "templateName" });
      expect(err.message).toMatch(/still in use.*600 ms after its last use; retry in \d+ ms/);
      await new Promise((r) => setTimeout(r, Math.max(0, refused + 650 - Date.now())));
      expect((await gql(releasing, DELETE, { name: "release-window" })).body).toEqual({ data: { deleteTemplate: null } });
      // A template no endpoint ever used can be deleted at once.
      await createTemplate(releasing, { name: "never-used" });
      expect((await gql(releasing, DELETE, { name: "never-used" })).body).toEqual({ data: { deleteTemplate: null } });
    } finally {
      await releasing.close();
    }
  });
});

describe("operations as the rest of the emulator counts and faults them", () => {
  test("stats count each template operation by its top-level field name; faults match it", async () => {
    emu.resetStats();
    const t = await createTemplate(emu);
    await gql(emu, PODTEMPLATES);
    await gql(emu, DELETE, { name: t.name });
    expect(emu.stats().byOperation).toMatchObject({ saveTemplate: 1, myself: 1, deleteTemplate: 1 });
    emu.setFaults({ force429: 1, match: ["saveTemplate"] });
    try {
      expect((await gql(emu, PODTEMPLATES)).status).toBe(200);
      const limited = await saveTemplate(emu, { name: "limited", imageName: "a/b:1" });
      expect(limited.status).toBe(429);
      expect(firstError(limited).extensions.code).toBe("RATE_LIMITED");
      expect((await podTemplates()).map((x) => x.name)).not.toContain("limited");
    } finally {
      emu.setFaults({});
    }
  });
});

describe("faults on template operations (what a client's retries meet)", () => {
  afterEach(() => emu.setFaults({}));

  test("a create whose answer is lost took effect: a same-name retry is refused and the name finds exactly one", async () => {
    emu.setFaults({ dropAfterRate: 1, match: ["saveTemplate"] });
    await expect(saveTemplate(emu, { name: "lost-answer", imageName: "a/b:1", isServerless: true })).rejects.toThrow();
    emu.setFaults({});
    expect(firstError(await saveTemplate(emu, { name: "lost-answer", imageName: "a/b:1", isServerless: true })).extensions.field).toBe("name");
    expect((await podTemplates()).filter((t) => t.name === "lost-answer")).toHaveLength(1);
  });

  test("a 5xx before taking effect creates nothing; a dropped deleteTemplate answer still deleted", async () => {
    emu.setFaults({ errorRate: 1, match: ["saveTemplate"] });
    const res = await saveTemplate(emu, { name: "never-made", imageName: "a/b:1" });
    expect([500, 502, 503]).toContain(res.status);
    emu.setFaults({});
    expect((await podTemplates()).map((t) => t.name)).not.toContain("never-made");
    await createTemplate(emu, { name: "drop-delete" });
    emu.setFaults({ dropAfterRate: 1, match: ["deleteTemplate"] });
    await expect(gql(emu, DELETE, { name: "drop-delete" })).rejects.toThrow();
    emu.setFaults({});
    expect(firstError(await gql(emu, DELETE, { name: "drop-delete" })).extensions.code).toBe("NOT_FOUND");
  });
});

describe("persistence", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "emulator-templates-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("with a data file, templates (and their versions) survive a restart; a deleted seeded template stays deleted", async () => {
    const dataFile = join(dir, "state.sqlite");
    const first = await start({ dataFile });
    const reg = await createRegistryAuth(first, { name: "persisted-reg" });
    const t = await createTemplate(first, { name: "persisted-tpl", env: [{ key: "A", value: "1" }], containerRegistryAuthId: reg.id });
    await saveTemplate(first, { ...t, imageName: "acme/worker:2" });
    expect((await gql(first, DELETE, { name: "comfyui-worker" })).body.errors).toBeUndefined();
    await first.close();

    const second = await start({ dataFile });
    try {
      const res = await gql(second, PODTEMPLATES);
      const listed = res.body.data.myself.podTemplates;
      expect(listed).toContainEqual({ ...t, imageName: "acme/worker:2" });
      expect(listed.map((x: any) => x.id)).not.toContain("tpl_comfy");
      expect(second.templates().find((x) => x.id === t.id)!.templateVersion).toBe(2);
      // Uniqueness holds across the restart.
      expect(firstError(await saveTemplate(second, { name: "persisted-tpl", imageName: "a/b:1" })).extensions.field).toBe("name");
    } finally {
      await second.close();
    }
  });
});
