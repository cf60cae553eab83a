/**
 * A template's container settings — what a REST v2 endpoint copies into its own record at create and at
 * each re-apply — and their comparison with the container an endpoint runs. The comparison is in memory
 * only: env values are compared here and never leave this module (no hash, no output, no message).
 */
import { changedFields } from "../model/compare";
import type { TemplateChanges } from "../kindSession";
import type { ContainerSettings, TemplateState } from "../paths/records";
import { isUnknown } from "../unknown";
import { INJECTED_ENV, TEMPLATE_MODEL } from "./model";

/** Fields that make a new container version (a rollout of the endpoints using the template). */
export const CONTAINER_FIELDS = ["imageName", "dockerArgs", "containerDiskInGb", "ports", "env", "containerRegistryAuthId"] as const;

/** The container fields that differ between stored outputs `olds` and checked inputs `news` (preview: unknown counts as changed). */
export function changedContainerFields(olds: Record<string, unknown>, news: Record<string, unknown>): string[] {
  return changedFields(TEMPLATE_MODEL, CONTAINER_FIELDS, olds, news);
}

/**
 * What changes in a template's container between stored outputs `olds` and checked inputs `news`, by
 * name: the fields, and the env keys added, removed or given another value (an unknown value counts as
 * changed; `envKeys` undefined when the env itself is unknown). The names leave; the values do not.
 */
export function containerChanges(olds: Record<string, unknown>, news: Record<string, unknown>): TemplateChanges {
  const fields = changedContainerFields(olds, news);
  if (!fields.includes("env")) return { fields, envKeys: [] };
  const map = (v: unknown): Record<string, unknown> | undefined =>
    v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  const [before, after] = [map(olds.env) ?? {}, map(news.env)];
  if (!after || isUnknown(news.env)) return { fields };
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return { fields, envKeys: keys.filter((k) => isUnknown(after[k]) || before[k] !== after[k]).sort() };
}

/**
 * Whether `container` (an endpoint's copy) holds `template`'s current settings. The env a template's start
 * flags inject is the platform's: the template's record leaves it out, so the copy's is left out too.
 */
export function runsTemplate(template: TemplateState, container: ContainerSettings): boolean {
  const injected = new Set<string>(Object.entries(INJECTED_ENV).flatMap(([flag, key]) => (template[flag as keyof typeof INJECTED_ENV] ? [key] : [])));
  const env = Object.fromEntries(Object.entries(container.env).filter(([key]) => !injected.has(key)));
  return changedFields(TEMPLATE_MODEL, CONTAINER_FIELDS, { ...container, env }, { ...template }).length === 0;
}
