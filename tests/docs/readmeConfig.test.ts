/** README › Configuration lists exactly the stack configuration keys the provider reads: its config schema. */
import * as fs from "fs";
import * as path from "path";
import { packageSchema } from "../../src/plugin/schema";

const README = fs.readFileSync(path.join(__dirname, "..", "..", "README.md"), "utf8");

/** The first column's keys of the table headed `| Config key |`. */
function tableKeys(markdown: string): string[] {
  const lines = markdown.split("\n");
  const head = lines.findIndex((l) => l.startsWith("| Config key |"));
  if (head < 0) return [];
  const keys: string[] = [];
  for (const line of lines.slice(head + 2)) {
    if (!line.startsWith("|")) break;
    const key = /^\|\s*`([^`]+)`/.exec(line)?.[1];
    if (key) keys.push(key);
  }
  return keys;
}

test("README's configuration table has one row per key of the provider's config schema, and no other", () => {
  const schema = packageSchema("0.0.0") as { name: string; config: { variables: Record<string, unknown> } };
  const read = Object.keys(schema.config.variables).map((k) => `${schema.name}:${k}`);
  expect(read).toEqual(expect.arrayContaining(["runpod:apiKey", "runpod:api", "runpod:maxHourlyCost"]));
  const listed = tableKeys(README);
  expect(new Set(listed).size).toBe(listed.length);
  expect([...listed].sort()).toEqual([...read].sort());
});
