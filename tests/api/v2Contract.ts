/**
 * The REST v2 document as a test oracle: Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1) checks
 * request bodies, queries and answers against docs/spec/rest-v2-openapi.json, and a small local HTTP
 * server answers every v2 operation with the document's own examples, recording each exchange and
 * every way it broke the document.
 *
 * Two adjustments to the document's schemas, both for Ajv's sake and neither weaker than the text:
 * - `if`/`then`/`else` is rewritten as `anyOf: [{ allOf: [if, then] }, { allOf: [{ not: if }, else] }]`,
 *   which means the same and collects the same annotations: Ajv 8 drops the properties evaluated by
 *   `allOf` when a sibling `if` fails, so `unevaluatedProperties: false` would refuse every valid body.
 * - `format: uri` accepts a URI template too: the document's own endpoint examples give
 *   `…/status/{job_id}` under `format: uri`. OpenAPI's numeric formats (`float`, `int32`, …) are annotations.
 */
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { fullFormats } from "ajv-formats/dist/formats";
import { readFileSync } from "fs";
import { createServer, type IncomingHttpHeaders, type Server } from "http";
import type { AddressInfo } from "net";
import { join } from "path";

export const DOCUMENT_PATH = join(__dirname, "../../docs/spec/rest-v2-openapi.json");
const DOCUMENT_ID = "https://rest-v2.invalid/openapi.json";

/** `if`/`then`/`else` as an equivalent `anyOf` (see the file comment). */
function rewriteConditionals(node: any): any {
  if (Array.isArray(node)) return node.map(rewriteConditionals);
  if (!node || typeof node !== "object") return node;
  const out: any = {};
  for (const [k, v] of Object.entries(node)) out[k] = rewriteConditionals(v);
  if ("if" in out && ("then" in out || "else" in out)) {
    const { if: cond, then: yes, else: no, ...rest } = out;
    rest.allOf = [...(rest.allOf ?? []), { anyOf: [{ allOf: [cond, yes ?? true] }, { allOf: [{ not: cond }, no ?? true] }] }];
    return rest;
  }
  return out;
}

/** JSON pointer segment. */
const seg = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

export interface V2Operation {
  operationId: string;
  method: string;
  /** Path template, e.g. `/v2/serverless/{id}`. */
  template: string;
  matcher: RegExp;
  definition: any;
}

export class RestV2Contract {
  readonly document: any;
  readonly operations: V2Operation[] = [];
  private readonly ajv: Ajv2020;
  private readonly queryAjv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(path = DOCUMENT_PATH) {
    this.document = JSON.parse(readFileSync(path, "utf8"));
    const schemaDoc = rewriteConditionals({ ...this.document, $id: DOCUMENT_ID });
    const make = (coerce: boolean) => {
      const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, coerceTypes: coerce });
      addFormats(ajv);
      const uri = fullFormats.uri as (s: string) => boolean;
      const template = fullFormats["uri-template"] as RegExp;
      ajv.addFormat("uri", (s: string) => uri(s) || (template.test(s) && uri(s.replace(/\{[^}]*\}/g, "x"))));
      for (const f of ["float", "double", "int32", "int64"]) ajv.addFormat(f, true);
      ajv.addSchema(schemaDoc);
      return ajv;
    };
    this.ajv = make(false);
    this.queryAjv = make(true);
    for (const [template, item] of Object.entries<any>(this.document.paths)) {
      for (const [method, definition] of Object.entries<any>(item)) {
        if (!definition?.operationId) continue;
        const matcher = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);
        this.operations.push({ operationId: definition.operationId, method: method.toUpperCase(), template, matcher, definition });
      }
    }
    // Literal segments before parameters: `/v2/registries/delegations` is not `/v2/registries/{id}`.
    this.operations.sort((a, b) => a.template.split("{").length - b.template.split("{").length);
  }

  /** The operation a request names, or undefined when the document has none. */
  find(method: string, path: string): V2Operation | undefined {
    return this.operations.find((o) => o.method === method.toUpperCase() && o.matcher.test(path));
  }

  operation(operationId: string): V2Operation {
    const op = this.operations.find((o) => o.operationId === operationId);
    if (!op) throw new Error(`the document has no operation ${operationId}`);
    return op;
  }

  private validator(pointer: string, ajv = this.ajv): ValidateFunction {
    const key = `${ajv === this.ajv ? "" : "q:"}${pointer}`;
    let v = this.compiled.get(key);
    if (!v) {
      v = ajv.getSchema(`${DOCUMENT_ID}#${pointer}`);
      if (!v) throw new Error(`no schema at ${pointer}`);
      this.compiled.set(key, v);
    }
    return v;
  }

  private static problems(v: ValidateFunction): string[] {
    return (v.errors ?? []).map(
      (e) => `${e.instancePath || "(root)"} ${e.message}${e.params && "unevaluatedProperty" in e.params ? `: ${e.params.unevaluatedProperty}` : ""}`,
    );
  }

  private opPointer(op: V2Operation): string {
    return `/paths/${seg(op.template)}/${op.method.toLowerCase()}`;
  }

  /** Problems of a JSON request body under the operation's request schema ([] = valid). */
  validateBody(op: V2Operation, body: unknown): string[] {
    const content = op.definition.requestBody?.content?.["application/json"];
    if (!content) return body === undefined ? [] : [`${op.operationId} takes no body`];
    if (body === undefined) return op.definition.requestBody.required ? ["body is required"] : [];
    const v = this.validator(`${this.opPointer(op)}/requestBody/content/application~1json/schema`);
    return v(body) ? [] : RestV2Contract.problems(v);
  }

  /** Problems of a query under the operation's query parameters: unknown names, arrays comma-separated (`explode: false`). */
  validateQuery(op: V2Operation, query: URLSearchParams): string[] {
    const params = this.parameters(op).filter((p) => p.definition.in === "query");
    const out: string[] = [];
    for (const name of new Set(query.keys())) {
      if (!params.some((p) => p.definition.name === name)) out.push(`unknown query parameter ${name}`);
    }
    for (const { definition, pointer } of params) {
      const name: string = definition.name;
      if (!query.has(name)) {
        if (definition.required) out.push(`missing required query parameter ${name}`);
        continue;
      }
      if (query.getAll(name).length > 1) out.push(`${name} sent more than once (the document uses explode: false)`);
      const raw = query.get(name) ?? "";
      const value = this.resolve(definition.schema)?.type === "array" ? raw.split(",") : raw;
      const v = this.validator(`${pointer}/schema`, this.queryAjv);
      if (!v(value)) out.push(...RestV2Contract.problems(v).map((m) => `${name}${m.replace(/^\(root\)/, "")}`));
    }
    return out;
  }

  /** Problems of an answer under the document's response for `status` (or `default`). */
  validateAnswer(op: V2Operation, status: number, contentType: string | undefined, body: unknown): string[] {
    const responses = op.definition.responses;
    const code = String(status) in responses ? String(status) : "default";
    const response = this.resolve(responses[code]);
    if (!response) return [`status ${status} is not in the document for ${op.operationId}`];
    if (!response.content) return body === undefined ? [] : [`status ${status} of ${op.operationId} has no body`];
    const media = (contentType ?? "").split(";")[0].trim();
    if (!(media in response.content)) return [`content type ${media || "(none)"} is not one of ${Object.keys(response.content).join(", ")}`];
    const base = responses[code].$ref ? `/components/responses/${seg(responses[code].$ref.split("/").pop())}` : `${this.opPointer(op)}/responses/${code}`;
    const v = this.validator(`${base}/content/${seg(media)}/schema`);
    return v(body) ? [] : RestV2Contract.problems(v);
  }

  /** The document's first example of the operation's success answer. */
  example(op: V2Operation): { status: number; body: unknown } {
    const [code, response] = Object.entries<any>(op.definition.responses).find(([c]) => c.startsWith("2")) ?? [];
    if (!code) throw new Error(`${op.operationId} has no success answer`);
    const content = this.resolve(response)?.content?.["application/json"];
    const examples = content?.examples ? Object.values<any>(content.examples) : [];
    return { status: Number(code), body: examples[0]?.value ?? content?.example };
  }

  /** The document's named request-body example of `operationId`. */
  requestExample(operationId: string, name: string): any {
    const value = this.operation(operationId).definition.requestBody?.content?.["application/json"]?.examples?.[name]?.value;
    if (value === undefined) throw new Error(`no request example ${name} for ${operationId}`);
    return structuredClone(value);
  }

  /** The operation's parameters, each with the JSON pointer of its definition. */
  private parameters(op: V2Operation): { definition: any; pointer: string }[] {
    return (op.definition.parameters ?? []).map((p: any, i: number) =>
      p.$ref ? { definition: this.resolve(p), pointer: p.$ref.slice(1) } : { definition: p, pointer: `${this.opPointer(op)}/parameters/${i}` },
    );
  }

  private resolve(node: any): any {
    let n = node;
    while (n?.$ref)
      n = n.$ref
        .slice(2)
        .split("/")
        .reduce((o: any, k: string) => o?.[k.replace(/~1/g, "/").replace(/~0/g, "~")], this.document);
    return n;
  }
}

/** One request the local server received and what it answered. */
export interface Exchange {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: unknown;
  operationId?: string;
  status: number;
  answer: unknown;
}

/** An answer a test forces: status, body (JSON unless a string) and headers. */
export interface ForcedAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface V2Server {
  url: string;
  exchanges: Exchange[];
  /** Each request or answer that broke the document, as `operationId: problem`. */
  violations: string[];
  /** Answers to give before the examples, in order, one per request. */
  queue(...answers: ForcedAnswer[]): void;
  /** Headers added to every answer (e.g. `RateLimit`). */
  headers: Record<string, string>;
  reset(): void;
  close(): Promise<void>;
}

/**
 * Starts a loopback server that answers each v2 operation of the document with its example (or a
 * queued answer), checking every request and answer against the document on the way.
 */
export async function startV2Server(contract: RestV2Contract): Promise<V2Server> {
  const queued: ForcedAnswer[] = [];
  const state: V2Server = {
    url: "",
    exchanges: [],
    violations: [],
    headers: {},
    queue: (...answers) => queued.push(...answers),
    reset: () => {
      state.exchanges.length = 0;
      state.violations.length = 0;
      queued.length = 0;
      state.headers = {};
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const path = decodeURIComponent(url.pathname);
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const op = contract.find(req.method ?? "GET", path);
      const tag = op?.operationId ?? `${req.method} ${path}`;
      if (!op) state.violations.push(`${tag}: not an operation of the document`);
      else {
        for (const p of contract.validateBody(op, body)) state.violations.push(`${tag} request body: ${p}`);
        for (const p of contract.validateQuery(op, url.searchParams)) state.violations.push(`${tag} query: ${p}`);
        if (req.headers.authorization !== "Bearer test-key") state.violations.push(`${tag}: no bearer key`);
      }
      const forced = queued.shift();
      const answer: ForcedAnswer = forced ?? (op ? contract.example(op) : { status: 404, body: { title: "Not Found", status: 404, detail: "no such path" } });
      const isProblem = answer.status >= 400;
      const contentType = answer.body === undefined ? undefined : isProblem ? "application/problem+json" : "application/json";
      if (op && typeof answer.body !== "string") {
        for (const p of contract.validateAnswer(op, answer.status, contentType, answer.body)) state.violations.push(`${tag} answer ${answer.status}: ${p}`);
      }
      state.exchanges.push({
        method: req.method ?? "",
        path,
        query: url.searchParams,
        headers: req.headers,
        body,
        operationId: op?.operationId,
        status: answer.status,
        answer: answer.body,
      });
      const headers: Record<string, string> = { ...state.headers, ...answer.headers };
      if (contentType) headers["content-type"] = contentType;
      res.writeHead(answer.status, headers);
      res.end(answer.body === undefined ? undefined : typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
