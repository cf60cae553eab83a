/** Shared helpers for the emulator tests: start options, HTTP calls with global fetch, and an SSE reader. */
import { createParser } from "eventsource-parser";
import type * as StructuredHeaders from "structured-headers/dist/index.js";
import { startEmulator, type EmulatorOptions, type RunningEmulator } from "../../emulator";

// The package's types are reachable only through its `exports` map, which `moduleResolution: node` ignores.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parseList }: typeof StructuredHeaders = require("structured-headers");

/** Short intervals keep the suite quick; nothing asserts on them. */
export const FAST: EmulatorOptions = { port: 0, logIntervalMs: 10, workerStartMs: 10, jobDurationMs: 60, quiet: true };

export function start(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ ...FAST, ...options });
}

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

async function result(res: Response): Promise<HttpResult> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    /* keep text */
  }
  return { status: res.status, headers: res.headers, body };
}

/** POST a GraphQL request with the key as `?api_key=`. */
export async function gql(emu: RunningEmulator, query: string, variables?: Record<string, unknown>, key = emu.apiKey): Promise<HttpResult> {
  const url = `${emu.urls.graphql}?api_key=${encodeURIComponent(key)}`;
  return result(await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query, variables }) }));
}

/** A bearer-authenticated REST call; `body` is JSON-encoded unless it is a string. */
export async function rest(
  method: string,
  url: string,
  key: string | undefined,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = { ...extraHeaders };
  if (key !== undefined) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const init: RequestInit = { method, headers };
  if (body !== undefined) init.body = typeof body === "string" ? body : JSON.stringify(body);
  return result(await fetch(url, init));
}

/** `RateLimit` or `RateLimit-Policy` as { window: { param: value } }, parsed with the structured-headers library. */
export function rateLimitWindows(value: string | null): Record<string, Record<string, number>> {
  expect(value).not.toBeNull();
  const out: Record<string, Record<string, number>> = {};
  for (const [name, params] of parseList(value!)) out[String(name)] = Object.fromEntries(params as Map<string, number>);
  return out;
}

/**
 * Makes the authenticated `request` inside a minute window with more than `marginSeconds` left, waiting for the
 * next window (and repeating the request) when the current one is about to reset. Per-minute counts compared
 * within that margin afterwards then belong to one window. Returns the answer of the request that counted.
 */
export async function inFreshMinute(request: () => Promise<HttpResult>, marginSeconds = 3): Promise<HttpResult> {
  for (;;) {
    const res = await request();
    const t = rateLimitWindows(res.headers.get("ratelimit")).minute.t;
    if (t > marginSeconds) return res;
    await new Promise((r) => setTimeout(r, (t + 0.2) * 1000));
  }
}

export const SAVE = /* GraphQL */ `
  mutation Save($input: EndpointInput!) {
    saveEndpoint(input: $input) {
      id
      name
      templateId
      gpuIds
      type
      idleTimeout
      locations
      fastBootType
      scalerType
      scalerValue
      workersMin
      workersMax
      networkVolumeId
      pods {
        desiredStatus
      }
    }
  }
`;

/** Create an endpoint through GraphQL and return its record. */
export async function createEndpoint(emu: RunningEmulator, input: Record<string, unknown> = {}, key = emu.apiKey): Promise<any> {
  const res = await gql(emu, SAVE, { input: { name: "ep", templateId: "tpl_vllm", gpuIds: "AMPERE_24", ...input } }, key);
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  return res.body.data.saveEndpoint;
}

export interface SseEvent {
  id: string;
  ts: string;
  source: string;
  line: string;
  seq: number;
}

export interface SseResult {
  status: number;
  headers: Headers;
  events: SseEvent[];
  /** How the stream ended: `end` (server closed normally), `error` (connection destroyed), `stopped` (we stopped reading). */
  ended: "end" | "error" | "stopped";
  body?: any;
}

/**
 * Read a log stream until `stopWhen` says so or the server ends it. Error statuses return their JSON body.
 */
export async function readSse(
  url: string,
  key: string,
  options: { lastEventId?: string; stopWhen?: (events: SseEvent[]) => boolean } = {},
): Promise<SseResult> {
  const controller = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${key}`, accept: "text/event-stream" };
  if (options.lastEventId) headers["last-event-id"] = options.lastEventId;
  const res = await fetch(url, { headers, signal: controller.signal });
  if (res.status !== 200) return { status: res.status, headers: res.headers, events: [], ended: "end", body: await res.json() };
  const events: SseEvent[] = [];
  const parser = createParser({
    onEvent(e) {
      const data = JSON.parse(e.data);
      events.push({ id: e.id!, ...data, seq: Number(e.id!.split("/")[1]) });
    },
  });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let ended: SseResult["ended"] = "end";
  try {
    for (;;) {
      if (options.stopWhen?.(events)) {
        ended = "stopped";
        break;
      }
      const { value, done } = await reader.read();
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
    }
  } catch {
    ended = "error";
  } finally {
    controller.abort();
  }
  return { status: res.status, headers: res.headers, events, ended };
}

/** Poll `check` until it returns a truthy value (no timing is asserted; the test timeout bounds it). */
export async function until<T>(check: () => T | Promise<T>, intervalMs = 10): Promise<T> {
  for (;;) {
    const value = await check();
    if (value) return value;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export const TEMPLATE_FIELDS =
  "id name imageName dockerArgs containerDiskInGb volumeInGb volumeMountPath ports env { key value } isServerless containerRegistryAuthId readme startSsh isPublic";

export const SAVE_TEMPLATE = /* GraphQL */ `
  mutation SaveTemplate($input: SaveTemplateInput!) { saveTemplate(input: $input) { ${TEMPLATE_FIELDS} } }
`;

/** Call saveTemplate with `input` and return the raw answer. */
export function saveTemplate(emu: RunningEmulator, input: Record<string, unknown>, key = emu.apiKey): Promise<HttpResult> {
  return gql(emu, SAVE_TEMPLATE, { input }, key);
}

/** Create a serverless template and return its record. */
export async function createTemplate(emu: RunningEmulator, input: Record<string, unknown> = {}, key = emu.apiKey): Promise<any> {
  const res = await saveTemplate(
    emu,
    { name: `tpl-${Math.random().toString(36).slice(2, 10)}`, imageName: "acme/worker:1.0", isServerless: true, ...input },
    key,
  );
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  return res.body.data.saveTemplate;
}

/** Save registry credentials and return `{ id, name }`. */
export async function createRegistryAuth(emu: RunningEmulator, input: Record<string, unknown> = {}, key = emu.apiKey): Promise<any> {
  const res = await gql(
    emu,
    `mutation($input: SaveRegistryAuthInput!) { saveRegistryAuth(input: $input) { id name } }`,
    { input: { name: `reg-${Math.random().toString(36).slice(2, 10)}`, username: "bot", password: "s3cret-pw", ...input } },
    key,
  );
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  return res.body.data.saveRegistryAuth;
}

/** The first GraphQL error of an answer (fails the test when there is none). */
export function firstError(res: HttpResult): { message: string; extensions: Record<string, any> } {
  expect(res.body.errors).toBeDefined();
  return res.body.errors[0];
}
