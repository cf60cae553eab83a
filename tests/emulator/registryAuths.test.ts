/**
 * Registry credentials as emulator state (issue 14, Emulator): saveRegistryAuth / updateRegistryAuth /
 * deleteRegistryAuth and myself.containerRegistryCreds, unique names per user, per-user isolation, deletion
 * refused while a template uses them, persistence, and the write-only password: never in an answer, the admin
 * state, an error, or the SQLite file.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "fs";
import { tmpdir } from "os";
import { join } from "path";
import type { RunningEmulator } from "../../emulator";
import { createRegistryAuth, createTemplate, firstError, gql, rest, saveTemplate, start } from "./harness";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await start();
});
afterAll(() => emu.close());

const SAVE = `mutation($input: SaveRegistryAuthInput!) { saveRegistryAuth(input: $input) { id name } }`;
const UPDATE = `mutation($input: UpdateRegistryAuthInput!) { updateRegistryAuth(input: $input) { id name } }`;
const DELETE = `mutation($id: String!) { deleteRegistryAuth(registryAuthId: $id) }`;
const LIST = `{ myself { containerRegistryCreds { id name } } }`;

async function creds(key = emu.apiKey): Promise<{ id: string; name: string }[]> {
  const res = await gql(emu, LIST, undefined, key);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.myself.containerRegistryCreds;
}

test("save answers { id, name }; the credentials are listed for their owner only", async () => {
  const res = await gql(emu, SAVE, { input: { name: "ghcr", username: "deploy-bot", password: "pw-save-1" } });
  expect(res.body.errors).toBeUndefined();
  const saved = res.body.data.saveRegistryAuth;
  expect(saved).toEqual({ id: expect.stringMatching(/^[a-z0-9]{14}$/), name: "ghcr" });
  expect(await creds()).toContainEqual(saved);
  expect((await creds(emu.otherUserApiKey)).map((c) => c.id)).not.toContain(saved.id);
  expect(emu.registryAuths("user_1")).toContainEqual({ ...saved, userId: "user_1", username: "deploy-bot" });
  expect(emu.registryAuths(emu.otherUserApiKey).map((c) => c.id)).not.toContain(saved.id);
  expect(emu.registryAuthPasswordMatches(saved.id, "pw-save-1")).toBe(true);
  expect(emu.registryAuthPasswordMatches(saved.id, "pw-other")).toBe(false);
});

test("the password is not a readable field", async () => {
  const res = await gql(emu, `{ myself { containerRegistryCreds { id password } } }`);
  expect(firstError(res).message).toMatch(/Cannot query field "password"/);
});

test.each([
  ["name", { username: "u", password: "p" }],
  ["username", { name: "no-user", password: "p" }],
  ["password", { name: "no-pass", username: "u" }],
])("save without %s is refused naming it", async (field, input) => {
  const err = firstError(await gql(emu, SAVE, { input }));
  expect(err.extensions).toMatchObject({ code: "BAD_USER_INPUT", field });
  expect(err.message).toContain(field);
});

test("names are unique per user, not across users; the error does not carry the password", async () => {
  await createRegistryAuth(emu, { name: "dockerhub" });
  const res = await gql(emu, SAVE, { input: { name: "dockerhub", username: "u", password: "pw-duplicate-7" } });
  const err = firstError(res);
  expect(err.extensions).toMatchObject({ code: "BAD_USER_INPUT", field: "name" });
  expect(err.message).toMatch(/"dockerhub" already exist/);
  expect(JSON.stringify(res.body)).not.toContain("pw-duplicate-7");
  expect((await createRegistryAuth(emu, { name: "dockerhub" }, emu.otherUserApiKey)).name).toBe("dockerhub");
});

test("an error answer echoing the request (echoRequest fault) still does not carry the password", async () => {
  emu.setFaults({ echoRequest: "json", match: ["saveRegistryAuth"] });
  try {
    const res = await gql(emu, SAVE, { input: { name: "dockerhub", username: "u", password: "pw-echoed-8" } });
    expect(res.body.errors).toBeDefined();
    expect(JSON.stringify(res.body)).not.toContain("pw-echoed-8");
  } finally {
    emu.setFaults({});
  }
});

test("update replaces username and password, keeps id and name", async () => {
  const saved = await createRegistryAuth(emu, { name: "to-update", username: "old", password: "pw-old" });
  const res = await gql(emu, UPDATE, { input: { id: saved.id, username: "new", password: "pw-new" } });
  expect(res.body).toEqual({ data: { updateRegistryAuth: saved } });
  expect(emu.registryAuths().find((c) => c.id === saved.id)).toMatchObject({ name: "to-update", username: "new" });
  expect(emu.registryAuthPasswordMatches(saved.id, "pw-new")).toBe(true);
  expect(emu.registryAuthPasswordMatches(saved.id, "pw-old")).toBe(false);
  expect(firstError(await gql(emu, UPDATE, { input: { id: saved.id, username: "x" } })).extensions).toMatchObject({
    code: "BAD_USER_INPUT",
    field: "password",
  });
});

test("update and delete of unknown or another user's credentials are NOT_FOUND", async () => {
  const theirs = await createRegistryAuth(emu, { password: "pw-theirs" }, emu.otherUserApiKey);
  for (const id of ["nope", theirs.id]) {
    expect(firstError(await gql(emu, UPDATE, { input: { id, username: "u", password: "p" } })).extensions).toMatchObject({ code: "NOT_FOUND", field: "id" });
    expect(firstError(await gql(emu, DELETE, { id })).extensions).toMatchObject({ code: "NOT_FOUND", field: "registryAuthId" });
  }
  expect(emu.registryAuthPasswordMatches(theirs.id, "pw-theirs")).toBe(true);
});

test("delete is refused while a template uses the credentials, naming the templates", async () => {
  const reg = await createRegistryAuth(emu, { name: "in-use-reg" });
  const a = await createTemplate(emu, { name: "uses-reg-a", containerRegistryAuthId: reg.id });
  const b = await createTemplate(emu, { name: "uses-reg-b", containerRegistryAuthId: reg.id });
  const err = firstError(await gql(emu, DELETE, { id: reg.id }));
  expect(err.extensions).toMatchObject({ code: "FAILED_PRECONDITION", field: "registryAuthId" });
  expect(err.message).toContain("uses-reg-a");
  expect(err.message).toContain(b.id);
  await saveTemplate(emu, { ...a, containerRegistryAuthId: "" });
  await gql(emu, `mutation { deleteTemplate(templateName: "uses-reg-b") }`);
  expect((await gql(emu, DELETE, { id: reg.id })).body).toEqual({ data: { deleteRegistryAuth: null } });
  expect((await creds()).map((c) => c.id)).not.toContain(reg.id);
});

test("no password is in any answer or in the admin state", async () => {
  const password = "pw-never-shown-42";
  const reg = await createRegistryAuth(emu, { name: "hidden", password });
  await gql(emu, UPDATE, { input: { id: reg.id, username: "u2", password } });
  const answers = [
    await gql(emu, LIST),
    await gql(emu, `{ myself { podTemplates { id containerRegistryAuthId } } }`),
    await rest("GET", `${emu.urls.admin}/state`, undefined),
    await rest("GET", `${emu.urls.admin}/state?user=user_1`, undefined),
  ];
  for (const a of answers) expect(JSON.stringify(a.body)).not.toContain(password);
  const state = answers[2].body;
  expect(state.registryAuths).toContainEqual({ id: reg.id, name: "hidden", userId: "user_1", username: "u2" });
  expect(JSON.stringify(emu.registryAuths())).not.toContain(password);
});

test("with a data file, credentials survive a restart and the file never holds the password", async () => {
  const dir = mkdtempSync(join(tmpdir(), "emulator-registry-"));
  try {
    const dataFile = join(dir, "state.sqlite");
    const password = "pw-persisted-on-disk-99";
    const first = await start({ dataFile });
    const reg = await createRegistryAuth(first, { name: "persisted", password });
    await first.close();
    for (const file of readdirSync(dir)) expect(readFileSync(join(dir, file)).includes(password)).toBe(false);
    const second = await start({ dataFile });
    try {
      const res = await gql(second, LIST);
      expect(res.body.data.myself.containerRegistryCreds).toContainEqual(reg);
      expect(second.registryAuthPasswordMatches(reg.id, password)).toBe(true);
      const dup = firstError(await gql(second, SAVE, { input: { name: "persisted", username: "u", password: "p" } }));
      expect(dup.extensions.field).toBe("name");
    } finally {
      await second.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
