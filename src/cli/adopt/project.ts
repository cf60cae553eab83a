/**
 * The Pulumi project `adopt` runs in, from its `Pulumi.yaml`: its name (URNs), the language its
 * runtime implies (which program to write), and where the stack's configuration file lives (kept
 * byte for byte, so a failed adoption puts it back as it was).
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse } from "yaml";
import { UsageError } from "../errors";

export const LANGUAGES = ["typescript", "javascript", "python", "go", "yaml"] as const;
export type Language = (typeof LANGUAGES)[number];

/** The out file's extension per language. */
export const EXTENSION: Record<Language, string> = { typescript: "ts", javascript: "js", python: "py", go: "go", yaml: "yaml" };

export interface Project {
  dir: string;
  name: string;
  /** From the runtime (`nodejs`: JavaScript with `typescript: false` or a `.js` entry point, see isTypeScript); undefined for a runtime adopt does not write. */
  language?: Language;
  /** The directory of the stack configuration files (`stackConfigDir`, else the project's). */
  configDir: string;
}

interface ProjectFile {
  name?: unknown;
  main?: unknown;
  runtime?: unknown;
  stackConfigDir?: unknown;
}

/** @throws UsageError when `dir` holds no readable `Pulumi.yaml`. */
export function readProject(dir: string): Project {
  const file = ["Pulumi.yaml", "Pulumi.yml"].map((f) => join(dir, f)).find((f) => existsSync(f));
  if (!file) throw new UsageError(`no Pulumi.yaml in ${resolve(dir)}: run adopt in a Pulumi project (or give its directory with --cwd)`);
  const doc = (parse(readFileSync(file, "utf8")) ?? {}) as ProjectFile;
  if (typeof doc.name !== "string") throw new UsageError(`${file} has no project name`);
  const runtime = doc.runtime as string | { name?: string; options?: { typescript?: boolean } } | undefined;
  const runtimeName = typeof runtime === "string" ? runtime : runtime?.name;
  const typescriptOption = typeof runtime === "object" ? runtime?.options?.typescript !== false : true;
  const language: Language | undefined =
    runtimeName === "nodejs"
      ? typescriptOption && isTypeScript(dir, doc.main)
        ? "typescript"
        : "javascript"
      : runtimeName === "python" || runtimeName === "go" || runtimeName === "yaml"
        ? runtimeName
        : undefined;
  const configDir = typeof doc.stackConfigDir === "string" ? resolve(dir, doc.stackConfigDir) : resolve(dir);
  return { dir: resolve(dir), name: doc.name, language, configDir };
}

/**
 * Whether a Node.js project is TypeScript: its entry point (Pulumi.yaml's `main`, else package.json's)
 * says so by its extension; without one, a tsconfig.json or an index.ts does, and an index.js says JavaScript.
 */
function isTypeScript(dir: string, projectMain: unknown): boolean {
  const main = typeof projectMain === "string" ? projectMain : packageMain(dir);
  if (main && /\.(ts|mts|cts)$/.test(main)) return true;
  if (main && /\.(js|mjs|cjs)$/.test(main)) return false;
  if (existsSync(join(dir, "tsconfig.json")) || existsSync(join(dir, "index.ts"))) return true;
  return !existsSync(join(dir, "index.js"));
}

function packageMain(dir: string): string | undefined {
  try {
    const main = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { main?: unknown }).main;
    return typeof main === "string" ? main : undefined;
  } catch {
    return undefined; // no package.json, or not JSON: the other signs decide
  }
}

/** Parses `--language`. @throws UsageError naming the allowed values. */
export function parseLanguage(text: string): Language {
  const l = text.toLowerCase();
  if ((LANGUAGES as readonly string[]).includes(l)) return l as Language;
  throw new UsageError(`--language: "${text}" is not one of ${LANGUAGES.join(", ")}`);
}
