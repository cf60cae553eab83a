/**
 * The GraphQL endpoint fields in src/api/specGenerated are the generator's output for the vendored spec's
 * table (docs/spec/platform-api.md), byte for byte. When this fails, run `npm run build && npm run
 * generate:graphql` and commit the result.
 */
import { readFileSync } from "fs";
import { join } from "path";
import { GENERATED_FILE, SPEC_FILE, graphqlSchemasSource } from "../../scripts/graphqlSchemas";
import { endpointRecordSchema, saveEndpointInputSchema } from "../../src/api/schemas";
import { zEndpointFields } from "../../src/api/specGenerated/graphqlEndpoint";

const ROOT = join(__dirname, "..", "..");
const spec = readFileSync(join(ROOT, SPEC_FILE), "utf8");

test("generating from the vendored spec changes nothing in src/api/specGenerated", () => {
  expect(graphqlSchemasSource(spec)).toBe(readFileSync(join(ROOT, GENERATED_FILE), "utf8"));
});

test("a row added to the spec's table is a field of the generated shapes (the comparison above can fail)", () => {
  const changed = spec.replace("| `workersMax` | integer |", "| `driftCheckField` | integer | Added |\n| `workersMax` | integer |");
  expect(changed).not.toBe(spec);
  expect(graphqlSchemasSource(changed)).toContain("driftCheckField: z.number().int(),");
});

test("a Type the generator has no zod type for fails naming the field", () => {
  const changed = spec.replace("| `scalerValue` | integer |", "| `scalerValue` | decimal |");
  expect(() => graphqlSchemasSource(changed)).toThrow('field scalerValue: no zod type for "decimal"');
});

test("every field of the spec's table is a field of the record, and all but pods of the saveEndpoint input", () => {
  const specFields = Object.keys(zEndpointFields);
  expect(Object.keys(endpointRecordSchema.shape)).toEqual(expect.arrayContaining(specFields));
  expect(Object.keys(saveEndpointInputSchema.shape)).toEqual(expect.arrayContaining(specFields.filter((f) => f !== "pods")));
  expect(Object.keys(saveEndpointInputSchema.shape)).not.toContain("pods");
});
