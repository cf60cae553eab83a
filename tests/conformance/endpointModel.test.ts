/**
 * The provider's Endpoint model against the emulator's own statement of the platform's facts
 * (emulator/facts.ts): two independent readings of the spec, so a mistake in either shows up here as
 * a disagreement — allowed values, integer bounds and defaults of every field the emulator states.
 * A default compares as the model's `diff` compares it (the emulator's `null` for "any region" equals
 * the model's `[]`), since that is where a difference would show as a perpetual diff.
 */
import { ENDPOINT_FACTS, ENDPOINT_V2_FACTS } from "../../emulator/facts";
import { ENDPOINT_MODEL } from "../../src/provider/endpoint/model";
import type { Field, InputField } from "../../src/provider/model/fields";
import { normalise } from "../../src/provider/model/compare";

interface Fact {
  values?: readonly string[];
  min?: number;
  max?: number;
  default?: unknown;
}

const facts = { ...ENDPOINT_FACTS, ...ENDPOINT_V2_FACTS } as unknown as Record<string, Fact>;
const fields = ENDPOINT_MODEL.fields as Record<string, Field>;
const input = (name: string): InputField<unknown> => {
  const f = fields[name];
  if (f?.kind !== "input") throw new Error(`${name} is no input of the Endpoint model`);
  return f;
};

/** Facts of fields the Endpoint does not take as inputs: `workersStandby` is an output. */
const NOT_INPUTS = ["workersStandby"];

describe("the Endpoint model and the emulator's facts agree", () => {
  it.each(Object.keys(facts).filter((n) => !NOT_INPUTS.includes(n)))("%s", (name) => {
    const fact = facts[name];
    const field = input(name);
    // The emulator's facts are GraphQL's: a field's GraphQL rule, where it has one of its own, holds its values.
    const rule = field.onPath?.graphql?.rule ?? field.rule;
    if (fact.values) expect({ name, values: [...(rule.values ?? [])].sort() }).toEqual({ name, values: [...fact.values].sort() });
    if (fact.min !== undefined || fact.max !== undefined) expect({ name, min: rule.min, max: rule.max }).toEqual({ name, min: fact.min, max: fact.max });
    if (!("default" in fact)) return;
    if (field.unset === "platform") {
      // No default of its own: unset is the platform's, which the README's default cell states.
      const stated = fact.default === null ? "(any)" : `\`${String(fact.default)}\``;
      expect({ name, defaultText: field.defaultText?.includes(stated) }).toEqual({ name, defaultText: true });
    } else {
      expect({ name, default: normalise(field, field.default) }).toEqual({ name, default: normalise(field, fact.default) });
    }
  });

  it("the facts of fields that are no inputs: workersStandby is an output; minCudaVersion is a REST v2-only input", () => {
    expect(fields.workersStandby?.kind).toBe("output");
    expect(input("minCudaVersion").paths).toEqual(["v2"]);
  });

  it("every model input with allowed values, bounds or a platform default is among the emulator's facts", () => {
    const stated = Object.entries(fields)
      .filter(([, f]) => f.kind === "input" && !f.alias && (f.rule.values !== undefined || f.rule.min !== undefined || f.default !== undefined))
      .map(([name]) => name);
    expect(stated.filter((name) => !(name in facts))).toEqual([]);
  });
});
