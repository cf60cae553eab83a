/**
 * `adopt`: brings the account's objects that no stack holds into the selected stack, writing the program
 * that declares them (docs/operations.md, "Adopting an account"). All or nothing: the program file, the
 * stack's configuration and its state change together, or none of them does.
 *
 * TypeScript and JavaScript (the dynamic path): the state is edited as `pulumi-runpod import` edits it,
 * then a targeted `pulumi refresh` reads each object in. Python, Go and YAML (the provider plugin):
 * `pulumi import --file`, which reads each object through the plugin.
 */
import { existsSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline/promises";
import { typeToken } from "../../provider";
import type { CommandContext } from "../context";
import { UsageError } from "../errors";
import { EXIT, type ExitCode } from "../io";
import { resourceNameOf, resourcesOf, type Checkpoint } from "../stack/checkpoint";
import { PulumiCommandError, type PulumiRunner } from "../stack/pulumiCommand";
import { stackSession, type StackOptions } from "../stack/session";
import { exportCheckpoint, importCheckpoint, withStaleLockReleased } from "../stack/stackState";
import { renderTable } from "../table";
import { emitProgram } from "../adopt/emit";
import { heldObjects } from "../adopt/held";
import { importThroughPlugin } from "../adopt/pluginImport";
import { entryKey } from "../adopt/emit/yaml";
import { KIND_WORDS, MODEL_OF, heldKey, leftOutOf, listAccount, parseKinds, planAdoption, type AdoptedObject } from "../adopt/plan";
import { EXTENSION, parseLanguage, readProject, type Language } from "../adopt/project";
import { sealSecrets, secretOf, seededCheckpoint, urnOf } from "../adopt/seedState";
import { keepConfigFile, pulumiWithInput, setConfig } from "../adopt/stackConfigFile";

export interface AdoptOptions extends StackOptions {
  kinds?: string;
  name?: string;
  language?: string;
  out?: string;
  force?: boolean;
  dryRun?: boolean;
  yes?: boolean;
}

/**
 * Lists, plans and (unless `--dry-run`) adopts.
 * @returns EXIT.OK (nothing to adopt is no failure).
 * @throws UsageError (exit 2) for no project or stack, a bad flag, an existing out file without
 *   `--force`, an object the model cannot express, or no confirmation; a platform or `pulumi` error
 *   after the state or configuration changed puts both back first.
 */
export async function adoptCommand(ctx: CommandContext, opts: AdoptOptions): Promise<ExitCode> {
  const kinds = parseKinds(opts.kinds);
  const name = nameFilter(opts.name);
  const project = readProject(opts.cwd ?? ".");
  const language: Language | undefined = opts.language ? parseLanguage(opts.language) : project.language;
  if (!language) throw new UsageError("the project's runtime is none adopt writes (nodejs, python, go, yaml): give --language");
  const out = resolve(project.dir, opts.out ?? `adopted.${EXTENSION[language]}`);
  if (existsSync(out) && !opts.force && !opts.dryRun) throw new UsageError(`${out} exists; give --force to overwrite it, or another --out`);

  const session = stackSession(ctx, opts);
  const { pulumi } = session;
  const stack = await selectedStack(session.pulumi, opts.stack);
  const api = await session.api();
  const { client } = await session.connect();
  const original = await exportCheckpoint(pulumi);
  const takenNames = new Set(resourcesOf(original).map((r) => resourceNameOf(r.urn)));
  const account = await listAccount(client);
  const held = await heldObjects(session, original, client);
  if (held.unseen) ctx.io.stderr.write(`${held.unseen}; an object one of those stacks holds may be adopted here too\n`);
  const objects = planAdoption(account, { kinds, name, held: held.keys, takenNames, api });
  for (const l of leftOutOf(account).filter((x) => kinds.includes(x.kind) && !held.keys.has(heldKey(x.kind, x.id)) && (!name || name.test(x.name)))) {
    ctx.io.stdout.write(`left out: ${KIND_WORDS[l.kind].noun} ${l.id} (${l.name}), ${l.why}\n`);
  }
  if (objects.length === 0) {
    ctx.io.stdout.write("nothing to adopt: every object of the chosen kinds is held by a stack of this backend\n");
    return EXIT.OK;
  }
  ctx.io.stdout.write(adoptionTable(objects, ctx.out.bold));
  if (opts.dryRun) {
    ctx.io.stdout.write(ctx.out.yellow(`dry run: nothing written; without --dry-run the program goes to ${out}`) + "\n");
    return EXIT.OK;
  }
  if (!opts.yes && !(await confirmed(ctx, objects.length, stack)))
    throw new UsageError("not confirmed: nothing was adopted (give --yes to adopt without asking)");

  const text = emitProgram(language, objects);
  const staged = join(dirname(out), `.${basename(out)}.adopting`);
  writeFileSync(staged, text, { mode: 0o644 });
  const configFile = keepConfigFile(project.configDir, stack);
  const notice = (line: string) => ctx.io.stderr.write(`${line}\n`);
  // YAML reads no map-valued secret: each env entry is a config secret of its own (emit/yaml.ts).
  const configValues = objects
    .flatMap((o) => o.config)
    .flatMap((c) =>
      language === "yaml" && typeof c.value !== "string"
        ? Object.entries(c.value).map(([k, v]) => ({ key: entryKey(c.key, k), value: v, secret: c.secret }))
        : [c],
    );
  let stateTouched = false;
  try {
    await setConfig(pulumiWithInput({ stack: opts.stack, cwd: opts.cwd, env: ctx.io.env }), configValues);
    stateTouched = true;
    if (language === "yaml" || language === "python" || language === "go") await importThroughPlugin(pulumi, objects, notice);
    else await adoptThroughState(pulumi, original, objects, { stack: stackShortName(stack), project: project.name }, notice);
    renameSync(staged, out);
  } catch (err) {
    rmSync(staged, { force: true });
    configFile.restore();
    if (stateTouched) await withStaleLockReleased(pulumi, notice, () => importCheckpoint(pulumi, original));
    throw err instanceof PulumiCommandError
      ? new Error(`adoption failed, the stack, its configuration and ${basename(out)} are as they were: ${err.message}`)
      : err;
  }
  ctx.io.stdout.write(`adopted ${objects.length} object${objects.length === 1 ? "" : "s"} into stack ${stack}; the program is in ${out}\n`);
  for (const next of nextSteps(language, out, objects)) ctx.io.stdout.write(`${next}\n`);
  return EXIT.OK;
}

/** The dynamic path: the seeded state (seedState.ts), then a targeted refresh reads each object in. */
async function adoptThroughState(
  pulumi: PulumiRunner,
  original: Checkpoint,
  objects: readonly AdoptedObject[],
  where: { stack: string; project: string },
  notice: (line: string) => void,
): Promise<void> {
  const settings = JSON.parse(await pulumi(["config", "--json", "--show-secrets"])) as Record<string, { value?: unknown; secret?: boolean }>;
  const target = { ...where, providerInputs: providerInputsOf(settings) };
  const seeded = await seededCheckpoint(original, objects, target);
  await withStaleLockReleased(pulumi, notice, () => importCheckpoint(pulumi, seeded));
  await pulumi(["refresh", "--yes", ...objects.flatMap((o) => ["--target", urnOf(target, o)])]);
  const after = await exportCheckpoint(pulumi);
  if (sealSecrets(after, objects, (o) => typeToken(MODEL_OF[o.kind]))) await withStaleLockReleased(pulumi, notice, () => importCheckpoint(pulumi, after));
  const missing = objects.filter((o) => !resourcesOf(after).some((r) => r.id === o.id && r.urn === urnOf(target, o)));
  if (missing.length > 0) {
    throw new UsageError(`no longer on the platform: ${missing.map((o) => `${KIND_WORDS[o.kind].noun} ${o.id}`).join(", ")}; nothing was adopted`);
  }
}

function nameFilter(text: string | undefined): RegExp | undefined {
  if (text === undefined) return undefined;
  try {
    return new RegExp(text);
  } catch (err) {
    throw new UsageError(`--name: "${text}" is no regular expression (${(err as Error).message})`);
  }
}

/** The stack name (`--stack`, else the selected one). @throws UsageError when none is selected. */
async function selectedStack(pulumi: (args: string[]) => Promise<string>, given: string | undefined): Promise<string> {
  try {
    return (await pulumi(["stack", "--show-name"])).trim() || (given ?? "");
  } catch (err) {
    if (err instanceof PulumiCommandError && /no stack/i.test(err.output)) {
      throw new UsageError("no stack is selected: run `pulumi stack select <name>` (or `pulumi stack init`), or give --stack");
    }
    throw err;
  }
}

const stackShortName = (stack: string) => stack.slice(stack.lastIndexOf("/") + 1);

/**
 * The inputs the engine gives the default `pulumi-nodejs` provider: the stack's whole configuration, keys
 * with their namespace, each value as its text, secrets marked so `stack import` encrypts them (the
 * engine's `Target.GetPackageConfig` for dynamic providers).
 */
function providerInputsOf(config: Record<string, { value?: unknown; secret?: boolean }>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(config)) {
    if (typeof entry.value !== "string") continue;
    out[key] = entry.secret ? secretOf(entry.value) : entry.value;
  }
  return out;
}

function adoptionTable(objects: readonly AdoptedObject[], bold: (s: string) => string): string {
  const table = renderTable(
    ["KIND", "NAME", "ID", "RESOURCE"],
    objects.map((o) => [KIND_WORDS[o.kind].noun, o.platformName, o.id, o.resourceName]),
  );
  const nl = table.indexOf("\n");
  return bold(table.slice(0, nl)) + table.slice(nl);
}

async function confirmed(ctx: CommandContext, count: number, stack: string): Promise<boolean> {
  if (!process.stdin.isTTY) throw new UsageError("adopt asks before it writes; give --yes to adopt without asking (or --dry-run to only list)");
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`adopt ${count} object${count === 1 ? "" : "s"} into stack ${stack}? [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}

/** What the user does next: load the program, set the credentials. */
function nextSteps(language: Language, out: string, objects: readonly AdoptedObject[]): string[] {
  const steps: string[] = [];
  const file = basename(out);
  if (language === "typescript") steps.push(`load it from your program: \`import "./${file.replace(/\.ts$/, "")}";\` in index.ts`);
  if (language === "javascript") steps.push(`load it from your program: \`require("./${file}");\` in index.js`);
  if (language === "python") steps.push(`load it from your program: \`import ${file.replace(/\.py$/, "")}\` in __main__.py`);
  if (language === "yaml") steps.push(`merge its resources (and config) into Pulumi.yaml`);
  if (language === "go") steps.push(`call its function from main: \`adopted(ctx)\` (the file is package main)`);
  for (const o of objects.filter((x) => x.kind === "registryAuth")) if (o.note) steps.push(`${o.resourceName}: ${o.note}`);
  steps.push("then `pulumi preview --refresh` shows no changes");
  return steps;
}
