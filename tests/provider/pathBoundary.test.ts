/**
 * The API-path boundary held by lint (eslint.config.mjs): a kind's path files (`paths/graphql*`,
 * `paths/v2*`) are imported only inside `src/provider/<kind>/paths/`; a provider file, the CLI or the
 * resources importing one fails `npm run lint`.
 */
import { execFile } from "child_process";
import * as path from "path";
import { promisify } from "util";

const ROOT = path.resolve(__dirname, "../..");

/** The `no-restricted-imports` messages the project's ESLint gives `code` as the file `file` (relative to the root). */
async function boundaryErrors(file: string, code: string): Promise<string[]> {
  // ESLint run as `npm run lint` runs it (its ESM config does not load inside Jest's module system).
  const run = promisify(execFile)(path.join(ROOT, "node_modules/.bin/eslint"), ["--format", "json", "--stdin", "--stdin-filename", file], { cwd: ROOT });
  run.child.stdin?.end(code);
  // Exit status 1 is "problems found": the report is on stdout either way.
  const { stdout } = await run.catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? "" }));
  const [result] = JSON.parse(stdout) as { messages: { ruleId: string | null; message: string }[] }[];
  return result.messages.filter((m) => m.ruleId === "@typescript-eslint/no-restricted-imports").map((m) => m.message);
}

const importing = (from: string, names: string) => `import { ${names} } from "${from}";\nexport const used = [${names}];\n`;

test.each([
  ["src/cli/stack/someKind.ts", "../../provider/endpoint/paths/graphql", "restCreateInputFrom"],
  ["src/cli/commands/logs.ts", "../../provider/pod/paths/v2", "listPodStates"],
  ["src/provider/pod/mounts.ts", "./paths/v2", "listPodStates"],
  ["src/provider/template/provider.ts", "../endpoint/paths/v2", "v2EndpointPort"],
  ["src/provider/session.ts", "./endpoint/paths/graphql", "graphqlEndpointPort"],
  ["src/resources/endpoint.ts", "../provider/endpoint/paths/v2", "createBody"],
])(
  "%s importing %s fails lint",
  async (file, from, names) => {
    const errors = await boundaryErrors(file, importing(from, names));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("ask the port, never the path");
  },
  60_000,
);

test("a kind's paths/ folder imports its path files; the rest reach them through its paths/index.ts", async () => {
  expect(await boundaryErrors("src/provider/pod/paths/index.ts", importing("./v2", "listPodStates"))).toEqual([]);
  expect(await boundaryErrors("src/provider/pod/mounts.ts", importing("./paths", "listPodStates"))).toEqual([]);
}, 60_000);
