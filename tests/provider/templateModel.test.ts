/**
 * The Template and ContainerRegistryAuth models as check and diff apply them, without a platform:
 * defaults, validation naming the field and range, env compared per key, and the change policies
 * (whether a replacement deletes first is the path's: tests/provider/v2Edits.integration.test.ts).
 */
import { checkFields } from "../../src/provider/model/check";
import { changedKeys, diffModel } from "../../src/provider/model/compare";
import { outputsFromRecord } from "../../src/provider/model/state";
import { saveRegistryAuthInput, updateRegistryAuthInput } from "../../src/provider/registryAuth/paths/graphql";
import { REGISTRY_AUTH_INPUT_FIELDS, REGISTRY_AUTH_MODEL } from "../../src/provider/registryAuth/model";
import { TEMPLATE_INPUT_FIELDS, TEMPLATE_MODEL, TEMPLATE_SECRET_FIELDS } from "../../src/provider/template/model";
import { saveTemplateInput, templateStateFromGraphql } from "../../src/provider/template/paths/graphql";
import { UNKNOWN } from "../../src/provider/unknown";

const base = { name: "llm", imageName: "acme/llm:1" };
const checked = (args: Record<string, unknown>) => {
  const r = checkFields(TEMPLATE_MODEL, args);
  expect(r.failures).toEqual([]);
  return r.inputs;
};
const diff = (olds: Record<string, unknown>, news: Record<string, unknown>) => diffModel(TEMPLATE_MODEL, TEMPLATE_INPUT_FIELDS, olds, news);

describe("Template check", () => {
  it("fills the platform's defaults", () => {
    expect(checked(base)).toEqual({
      ...base,
      dockerArgs: "",
      containerDiskInGb: 10,
      volumeInGb: 0,
      volumeMountPath: "/workspace",
      ports: [],
      env: {},
      containerRegistryAuthId: null,
      category: "NVIDIA",
      startSsh: false,
      startJupyter: false,
      isPublic: false,
      readme: "",
      rolloutTimeout: 600,
      rolloutFailedStarts: 1,
      rollback: true,
      smokeInput: null,
      smokeStatus: "COMPLETED",
    });
  });

  it("category: NVIDIA, AMD or CPU (the REST v2 document's TemplateCategory)", () => {
    for (const category of ["NVIDIA", "AMD", "CPU"]) expect(checkFields(TEMPLATE_MODEL, { ...base, category }).failures).toEqual([]);
    expect(checkFields(TEMPLATE_MODEL, { ...base, category: "INTEL" }).failures).toEqual([
      { property: "category", reason: expect.stringMatching(/^category must be one of CPU, NVIDIA, AMD; got "INTEL"/) },
    ]);
  });

  it.each([
    ["containerDiskInGb", 0, /an integer number of GB at least 1/],
    ["volumeInGb", -1, /GB at least 0/],
    ["ports", ["8000/http", "8000/http"], /distinct ports/],
    ["ports", ["70000/tcp"], /port\/protocol/],
    ["env", { "BAD-NAME": "x" }, /environment variable names/],
    ["volumeMountPath", "data", /absolute path/],
    ["containerRegistryAuthId", "has space", /registry credentials id/],
    ["imageName", " padded ", /without leading or trailing spaces/],
  ])("%s = %j fails naming the field and what it accepts", (field, value, reason) => {
    const r = checkFields(TEMPLATE_MODEL, { ...base, [field]: value });
    expect(r.failures).toEqual([{ property: field, reason: expect.stringMatching(new RegExp(`^${field} must be .*${reason.source}`)) }]);
  });

  it("accepts env values not known yet", () => {
    expect(checked({ ...base, env: { A: UNKNOWN } }).env).toEqual({ A: UNKNOWN });
  });
});

describe("Template diff", () => {
  const olds = checked({ ...base, env: { A: "1", B: "2" }, ports: ["8000/http", "22/tcp"] });

  it("no change for the same env in another key order, or ports in another order", () => {
    expect(diff(olds, checked({ ...base, env: { B: "2", A: "1" }, ports: ["22/tcp", "8000/http"] }))).toEqual({
      changes: false,
      changed: [],
      replaces: [],
    });
  });

  it("image and env update in place; the changed env keys are named without values", () => {
    const news = checked({ ...base, imageName: "acme/llm:2", env: { A: "1", B: "3", C: "4" }, ports: ["8000/http", "22/tcp"] });
    expect(diff(olds, news)).toEqual({ changes: true, changed: ["imageName", "env"], replaces: [] });
    expect(changedKeys(olds.env, news.env)).toEqual(["B", "C"]);
    expect(changedKeys(olds.env, { A: "1" })).toEqual(["B"]);
  });

  it("a new name replaces, creating first (the new name is free)", () => {
    expect(diff(olds, { ...olds, name: "llm-2" })).toEqual({ changes: true, changed: ["name"], replaces: ["name"] });
  });

  it("an unknown value counts as changed", () => {
    expect(diff(olds, { ...olds, containerRegistryAuthId: UNKNOWN }).changed).toEqual(["containerRegistryAuthId"]);
  });
});

describe("Template state mapping", () => {
  it("sends every managed field, env as [{ key, value }], ports as one string, always serverless", () => {
    const inputs = checked({ ...base, env: { A: "1" }, ports: ["8000/http", "22/tcp"] });
    expect(saveTemplateInput(inputs as never, "t1")).toEqual({
      id: "t1",
      name: "llm",
      imageName: "acme/llm:1",
      dockerArgs: "",
      containerDiskInGb: 10,
      volumeInGb: 0,
      volumeMountPath: "/workspace",
      ports: "8000/http,22/tcp",
      env: [{ key: "A", value: "1" }],
      containerRegistryAuthId: null,
      readme: "",
      startSsh: false,
      isServerless: true,
    });
    expect(saveTemplateInput({ ...inputs, ports: [] } as never).ports).toBe("");
  });

  it("reads env back as a map and ports in the stored order", () => {
    const outs = outputsFromRecord(
      TEMPLATE_MODEL,
      templateStateFromGraphql({
        id: "t1",
        ...base,
        env: [{ key: "A", value: "1" }],
        ports: "22/tcp,8000/http",
        containerRegistryAuthId: null,
        isServerless: true,
      } as never),
      undefined,
      { ports: ["8000/http", "22/tcp"] },
    );
    expect(outs).toMatchObject({ env: { A: "1" }, ports: ["8000/http", "22/tcp"], containerDiskInGb: 10 });
  });

  it("env is the one secret field", () => {
    expect(TEMPLATE_SECRET_FIELDS).toEqual(["env"]);
  });
});

describe("ContainerRegistryAuth model", () => {
  const olds = { name: "ghcr", username: "bot", password: "pw" };
  it("requires username and password; a new password updates in place, a new name replaces", () => {
    expect(checkFields(REGISTRY_AUTH_MODEL, { name: "ghcr" }).failures.map((f) => f.property)).toEqual(["username", "password"]);
    expect(diffModel(REGISTRY_AUTH_MODEL, REGISTRY_AUTH_INPUT_FIELDS, olds, { ...olds, password: "pw2" })).toEqual({
      changes: true,
      changed: ["password"],
      replaces: [],
    });
    expect(diffModel(REGISTRY_AUTH_MODEL, REGISTRY_AUTH_INPUT_FIELDS, olds, { ...olds, name: "ghcr2" })).toMatchObject({
      replaces: ["name"],
    });
  });

  it("only name and username/password go to create; update sends username and password", () => {
    expect(saveRegistryAuthInput(olds)).toEqual(olds);
    expect(updateRegistryAuthInput("r1", olds)).toEqual({ id: "r1", username: "bot", password: "pw" });
  });
});
