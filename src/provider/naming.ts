/**
 * Pulumi auto-naming for resources whose `name` is unset: `<resource name>-<7 random hex digits>`, the
 * convention of Pulumi's own providers. The name is drawn when there is no previous name to keep — a
 * new resource, or a replacement (the engine re-runs `check` without old inputs then, so the new
 * resource never shares its predecessor's name) — and kept from the old inputs otherwise.
 */
import { randomBytes } from "crypto";
import { NAME_PREFIX_PROPERTY } from "./reserved";
import { isUnknown } from "./unknown";

/** Hex digits of the random suffix. */
export const AUTONAME_SUFFIX_LENGTH = 7;

/** How an auto-name looks, for documentation. */
export const AUTONAME_FORM = `<resource name>-<${AUTONAME_SUFFIX_LENGTH} random hex digits>`;

/** A fresh auto-name for `prefix`: `${prefix}-` and {@link AUTONAME_SUFFIX_LENGTH} random hex digits. */
export function autoName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString("hex").slice(0, AUTONAME_SUFFIX_LENGTH)}`;
}

/** Whether `name` is an auto-name drawn for `prefix` (the stack commands tie platform objects to resources by it). */
export function isAutoNameOf(name: string, prefix: string): boolean {
  const suffix = name.startsWith(`${prefix}-`) ? name.slice(prefix.length + 1) : "";
  return new RegExp(`^[0-9a-f]{${AUTONAME_SUFFIX_LENGTH}}$`).test(suffix);
}

/**
 * `news` with `name` filled in when it is unset and the resource class gave a prefix
 * ({@link NAME_PREFIX_PROPERTY}): the old inputs' name when there are old inputs, else a fresh
 * {@link autoName} (`autonamed` true; the caller marks the checked inputs with `AUTONAMED_PROPERTY`).
 * The prefix itself is dropped. A set or not-yet-known name is kept.
 */
export function withAutoName(olds: Record<string, unknown> | undefined, news: Record<string, unknown>): { news: Record<string, unknown>; autonamed: boolean } {
  const { [NAME_PREFIX_PROPERTY]: prefix, ...rest } = news;
  if ((rest.name !== undefined && rest.name !== null) || typeof prefix !== "string" || isUnknown(prefix)) return { news: rest, autonamed: false };
  if (typeof olds?.name === "string") return { news: { ...rest, name: olds.name }, autonamed: false };
  return { news: { ...rest, name: autoName(prefix) }, autonamed: true };
}
