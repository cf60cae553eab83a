/**
 * The provider's Template and ContainerRegistryAuth models against the emulator's own statement of the
 * platform's facts (emulator/facts.ts TEMPLATE_FACTS, REGISTRY_AUTH_FACTS): bounds, defaults (compared as
 * `diff` compares them, so a disagreement would be a perpetual diff), name lengths, env names, ports.
 */
import { REGISTRY_AUTH_FACTS, TEMPLATE_FACTS } from "../../emulator/facts";
import { checkFields } from "../../src/provider/model/check";
import { normalise } from "../../src/provider/model/compare";
import type { Field, InputField } from "../../src/provider/model/fields";
import { REGISTRY_AUTH_MODEL } from "../../src/provider/registryAuth/model";
import { TEMPLATE_MODEL } from "../../src/provider/template/model";

const fields = TEMPLATE_MODEL.fields as Record<string, Field>;
const input = (name: string) => fields[name] as InputField<unknown>;
const base = { name: "t", imageName: "a/b:1" };
const accepts = (args: Record<string, unknown>) => checkFields(TEMPLATE_MODEL, { ...base, ...args }).failures.length === 0;

describe("the Template model and the emulator's facts agree", () => {
  it.each(["containerDiskInGb", "volumeInGb"] as const)("%s: bounds and default", (name) => {
    const fact = TEMPLATE_FACTS[name];
    // The emulator's facts are GraphQL's: a field's GraphQL rule, where it has one of its own, holds its bounds.
    const rule = input(name).onPath?.graphql?.rule ?? input(name).rule;
    expect({ min: rule.min, max: rule.max, default: input(name).default }).toEqual({
      min: fact.min,
      max: fact.max,
      default: fact.default,
    });
  });

  it.each(["volumeMountPath", "dockerArgs", "readme", "containerRegistryAuthId", "env"] as const)("%s: default", (name) => {
    const field = input(name);
    const fact = TEMPLATE_FACTS[name].default as unknown;
    const emulatorDefault = name === "env" ? Object.fromEntries((fact as { key: string; value: string }[]).map((e) => [e.key, e.value])) : fact;
    expect(normalise(field, field.default)).toEqual(normalise(field, emulatorDefault));
  });

  it("ports: the default, the protocols and the port range", () => {
    expect(normalise(input("ports"), input("ports").default)).toEqual(normalise(input("ports"), TEMPLATE_FACTS.ports.default));
    for (const protocol of TEMPLATE_FACTS.ports.protocols) expect(accepts({ ports: [`8000/${protocol}`] })).toBe(true);
    expect(accepts({ ports: ["8000/udp"] })).toBe(false);
    expect(accepts({ ports: [`${TEMPLATE_FACTS.ports.maxPort}/tcp`, `${TEMPLATE_FACTS.ports.minPort}/tcp`] })).toBe(true);
    expect(accepts({ ports: [`${TEMPLATE_FACTS.ports.maxPort + 1}/tcp`] })).toBe(false);
    expect(accepts({ ports: [`${TEMPLATE_FACTS.ports.minPort - 1}/tcp`] })).toBe(false);
  });

  it("env names: the same pattern", () => {
    for (const key of ["A", "_x", "HF_TOKEN2", "1A", "A-B", "A B", ""]) {
      expect({ key, accepted: accepts({ env: { [key]: "v" } }) }).toEqual({ key, accepted: TEMPLATE_FACTS.env.keyPattern.test(key) });
    }
  });

  it("names: the same length limit, for templates and registry credentials", () => {
    expect(input("name").rule.maxLength).toBe(TEMPLATE_FACTS.name.maxLength);
    expect((REGISTRY_AUTH_MODEL.fields.name as InputField<unknown>).rule.maxLength).toBe(REGISTRY_AUTH_FACTS.name.maxLength);
  });
});
