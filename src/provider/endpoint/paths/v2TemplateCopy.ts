/**
 * REST v2 endpoints hold a copy of their template's container settings (taken at create and at each
 * re-apply), so a template change reaches one only when re-applied: whether an endpoint runs its
 * template's settings, and which of its fields a declared template would change. Compared in memory
 * through the session's Template facts (`container("template")`): env values go nowhere.
 */
import { containsUnknown, isUnknown } from "../../unknown";
import type { ContainerSettings, EndpointState, TemplateState } from "../../paths/records";
import type { PortContext } from "../../port";
import { CHECKED_PROPERTY } from "../../reserved";
import { ENDPOINT_CONTAINER_FIELDS } from "../model";

type Props = Record<string, unknown>;

/** The container fields the endpoint declares itself (they win over its template's; the diff compares them). */
const ownFields = (declared: Props | undefined): Set<string> => new Set(ENDPOINT_CONTAINER_FIELDS.filter((f) => declared?.[f] !== undefined));

/**
 * The container a template gives an endpoint that declares `own` fields itself, those taken from what it
 * runs (`container`): so comparing with `container` judges the template's part only. A declared `env`
 * merges over the template's per key: with its keys known (`envKeys`) the template's other keys are still
 * judged, else env is left to the diff.
 */
function overlaid(template: TemplateState, container: ContainerSettings, own: Set<string>, envKeys?: readonly string[]): TemplateState {
  const out: Props = { ...template };
  for (const f of own) if (f !== "env") out[f] = container[f as keyof ContainerSettings];
  if (own.has("env")) {
    out.env = envKeys ? { ...template.env, ...Object.fromEntries(envKeys.filter((k) => k in container.env).map((k) => [k, container.env[k]])) } : container.env;
  }
  return out as unknown as TemplateState;
}

const templates = (context: PortContext) => context.listing<TemplateState>("template");
const facts = (context: PortContext) => context.container<TemplateState, ContainerSettings>("template");
const endpoint = (context: PortContext, id: string) => context.listing<EndpointState>("endpoint").find(id);

/**
 * Where the stored outputs hold no `templateId` (an adopted endpoint, or one that ran its own image):
 * the container fields in which the endpoint differs from what the declared template, overlaid with the
 * endpoint's own declared values, would give it; undefined when that cannot be told (unknown values, not found).
 */
export async function templateDifferences(context: PortContext, id: string, olds: Props, news: Props): Promise<string[] | undefined> {
  const template = news.templateId;
  if (typeof olds.templateId === "string" || typeof template !== "string" || isUnknown(template)) return undefined;
  if (ENDPOINT_CONTAINER_FIELDS.some((f) => containsUnknown(news[f]))) return undefined;
  const [record, found] = await Promise.all([endpoint(context, id), templates(context).find(template)]);
  if (!record?.container || !found) return undefined;
  const own = Object.fromEntries(ENDPOINT_CONTAINER_FIELDS.filter((f) => news[f] !== undefined).map((f) => [f, news[f]]));
  const target = { ...found, ...own, env: { ...found.env, ...((own.env as Record<string, string> | undefined) ?? {}) } } as TemplateState;
  return facts(context).runs(target, record.container) ? [] : facts(context).changed(target, record.container);
}

/**
 * Whether the endpoint must re-apply its unchanged `templateId`: its last read found it running an older
 * copy (`templateCurrent` false), or the container it runs differs from its template's settings — those a
 * Template diff of this deployment found the template about to take (it ran first: the endpoint depends
 * on it; preview shows the re-apply), else the template's current ones, compared live, so a template
 * changed by an interrupted `up`, another stack or outside Pulumi reaches its endpoints.
 */
export async function reappliesTemplate(context: PortContext, id: string, olds: Props, news: Props): Promise<boolean> {
  const template = news.templateId;
  if (typeof template !== "string" || isUnknown(template) || olds.templateId !== template) return false;
  if (olds.templateCurrent === false) return true;
  const next = context.templateNext(template);
  if (next && facts(context).fields.some((f) => containsUnknown(next[f]))) return true;
  const [record, target] = await Promise.all([endpoint(context, id), next ?? templates(context).find(template)]);
  if (!record?.container || !target) return false;
  const envKeys = news.env && typeof news.env === "object" ? Object.keys(news.env) : undefined;
  return !facts(context).runs(overlaid(target as TemplateState, record.container, ownFields(news), envKeys), record.container);
}

/**
 * Whether endpoint `id` runs template `templateId`'s current container settings, from the shared
 * listings; undefined when either is not found or the record holds no container. `props`: the stored
 * outputs (their checked inputs say which container fields the endpoint declares itself).
 */
export async function runsCurrentTemplate(context: PortContext, id: string, templateId: string, props: Props | undefined): Promise<boolean | undefined> {
  const [record, template] = await Promise.all([endpoint(context, id), templates(context).find(templateId)]);
  if (!record?.container || !template) return undefined;
  const checked = props?.[CHECKED_PROPERTY] as { keys?: unknown } | undefined;
  const declared = Array.isArray(checked?.keys) ? Object.fromEntries((checked.keys as string[]).map((k) => [k, true])) : {};
  return facts(context).runs(overlaid(template, record.container, ownFields(declared)), record.container);
}
