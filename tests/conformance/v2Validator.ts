/**
 * Validates REST v2 exchanges against the vendored OpenAPI 3.1 document (docs/spec/rest-v2-openapi.json) with Ajv in
 * JSON Schema 2020-12 mode. Requests are checked against the document as written (its request bodies are closed
 * with `unevaluatedProperties: false`). Answers are checked against a closed copy: every object schema the document
 * composes (allOf/anyOf/oneOf, properties) gets `unevaluatedProperties: false`, so a field the document does not
 * list fails, as does a missing required one. `RateLimit`/`RateLimit-Policy` must accompany authenticated answers
 * whose response object lists them.
 */
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { fullFormats } from "ajv-formats/dist/formats";
import { readFileSync } from "fs";
import { join } from "path";

export const DOCUMENT_PATH = join(__dirname, "../../docs/spec/rest-v2-openapi.json");

type Json = any;

export interface Exchange {
  method: string;
  path: string;
  query: string;
  status: number;
  contentType: string | null;
  authenticated: boolean;
  fault?: boolean;
  requestBody?: unknown;
  responseBody?: unknown;
  headers: Record<string, string>;
}

export interface Operation {
  method: string;
  template: string;
  operationId: string;
  regex: RegExp;
  spec: Json;
  pathParams: Json[];
}

const METHODS = ["get", "post", "put", "patch", "delete"];
const escapePointer = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");

/** Close every composed object schema reachable in `node` (see file comment); `open` = component names used as allOf members. */
function close(node: Json, open: Set<string>, allOfMember = false): Json {
  if (Array.isArray(node)) return node.map((n) => close(n, open));
  if (node === null || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "allOf") out[k] = (v as Json[]).map((m) => close(m, open, true));
    else if (k === "examples" || k === "example" || k === "enum" || k === "const" || k === "default") out[k] = v;
    else out[k] = close(v, open);
  }
  const ref: string | undefined = out.$ref;
  const refName = ref?.startsWith("#/components/schemas/") ? ref.slice("#/components/schemas/".length) : undefined;
  // A reference to a component that other schemas extend with allOf stays open there; close it where it is used alone.
  if (refName && open.has(refName) && !allOfMember) return { allOf: [out], unevaluatedProperties: false };
  const objectLike = out.properties !== undefined || out.allOf !== undefined || out.anyOf !== undefined || out.oneOf !== undefined;
  if (!allOfMember && objectLike && out.additionalProperties === undefined && out.unevaluatedProperties === undefined && out.type !== "array") {
    out.unevaluatedProperties = false;
  }
  return out;
}

function openComponents(doc: Json): Set<string> {
  const open = new Set<string>();
  const walk = (node: Json) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== "object") return;
    if (Array.isArray(node.allOf)) {
      for (const m of node.allOf) if (typeof m?.$ref === "string" && m.$ref.startsWith("#/components/schemas/")) open.add(m.$ref.split("/").pop());
    }
    Object.values(node).forEach(walk);
  };
  walk(doc);
  return open;
}

/**
 * Moves a schema's top-level `if`/`then`/`else` into its `allOf` (the same meaning): Ajv 8 loses the properties
 * `allOf` evaluated when a top-level `if` fails, so `unevaluatedProperties: false` would refuse valid bodies
 * (CreateEndpointRequest's LOAD_BALANCER rule).
 */
function hoistIf(node: Json): Json {
  if (Array.isArray(node)) return node.map(hoistIf);
  if (node === null || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === "examples" || k === "example" ? v : hoistIf(v);
  if (out.if !== undefined && Array.isArray(out.allOf) && out.unevaluatedProperties !== undefined) {
    const { if: cond, then, else: otherwise, ...rest } = out;
    return { ...rest, allOf: [...rest.allOf, { if: cond, ...(then ? { then } : {}), ...(otherwise ? { else: otherwise } : {}) }] };
  }
  return out;
}

export class V2Validator {
  readonly doc: Json;
  readonly operations: Operation[];
  private ajv: Ajv2020;
  private cache = new Map<string, ValidateFunction>();

  constructor(path = DOCUMENT_PATH) {
    this.doc = JSON.parse(readFileSync(path, "utf8"));
    const open = openComponents(this.doc);
    const closed = { ...this.doc, components: { ...this.doc.components, schemas: {} as Json }, paths: close(this.doc.paths, open) };
    for (const [name, schema] of Object.entries(this.doc.components.schemas)) {
      closed.components.schemas[name] = open.has(name) ? close(schema, open, true) : close(schema, open);
    }
    this.ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: false });
    addFormats(this.ajv);
    for (const f of ["float", "double", "int32", "int64"]) this.ajv.addFormat(f, true);
    // The document's own `requestUrls` examples are URI templates (`…/status/{job_id}`): a placeholder is a segment.
    const uri = fullFormats.uri as (s: string) => boolean;
    this.ajv.addFormat("uri", (s: string) => uri(s.replace(/\{[A-Za-z_]+\}/g, "x")));
    this.ajv.addSchema({ ...hoistIf(this.doc), $id: "https://doc.local/open.json" });
    this.ajv.addSchema({ ...hoistIf(closed), $id: "https://doc.local/closed.json" });
    this.operations = [];
    for (const [template, item] of Object.entries<Json>(this.doc.paths)) {
      for (const method of METHODS) {
        const spec = item[method];
        if (!spec) continue;
        const regex = new RegExp(`^${template.replace(/\{[^}]+\}/g, "([^/]+)")}$`);
        this.operations.push({ method: method.toUpperCase(), template, operationId: spec.operationId, regex, spec, pathParams: item.parameters ?? [] });
      }
    }
    // Literal segments win over parameters (e.g. /v2/registries/delegations over /v2/registries/{id}).
    this.operations.sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  }

  private validator(doc: "open" | "closed", pointer: string): ValidateFunction {
    const key = `${doc}${pointer}`;
    let v = this.cache.get(key);
    if (!v) {
      v = this.ajv.compile({ $ref: `https://doc.local/${doc}.json#${pointer}` });
      this.cache.set(key, v);
    }
    return v;
  }

  private check(doc: "open" | "closed", pointer: string, value: unknown): string[] {
    const v = this.validator(doc, pointer);
    return v(value) ? [] : (v.errors ?? []).map((e) => `${e.instancePath || "$"} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`);
  }

  /** The operation a method and path name, if the document has one. */
  find(method: string, path: string): Operation | undefined {
    return this.operations.find((o) => o.method === method && o.regex.test(path));
  }

  /** Problems with the request as the document defines it (body and query parameters); [] = valid. */
  requestProblems(op: Operation, query: string, body: unknown): string[] {
    const problems: string[] = [];
    const base = `/paths/${escapePointer(op.template)}/${op.method.toLowerCase()}`;
    const rb = op.spec.requestBody;
    if (rb) {
      if (body === undefined) {
        if (rb.required) problems.push("request body is required");
      } else problems.push(...this.check("open", `${base}/requestBody/content/application~1json/schema`, body).map((p) => `body ${p}`));
    }
    const params = new URLSearchParams(query);
    (op.spec.parameters ?? []).forEach((p: Json, i: number) => {
      const param = p.$ref ? this.doc.components.parameters[p.$ref.split("/").pop()] : p;
      if (param.in !== "query") return;
      const raw = params.get(param.name);
      if (raw === null) {
        if (param.required) problems.push(`query ${param.name} is required`);
        return;
      }
      const schema = param.schema ?? {};
      const resolved = schema.$ref ? this.doc.components.schemas[schema.$ref.split("/").pop()] : schema;
      let value: unknown = raw;
      if (resolved.type === "array") value = raw.split(",");
      else if (resolved.type === "integer" || resolved.type === "number") value = raw.trim() === "" ? raw : Number(raw);
      else if (resolved.type === "boolean") value = raw === "true" ? true : raw === "false" ? false : raw;
      const pointer = p.$ref ? `/components/parameters/${p.$ref.split("/").pop()}/schema` : `${base}/parameters/${i}/schema`;
      problems.push(...this.check("open", pointer, value).map((e) => `query ${param.name} ${e}`));
    });
    return problems;
  }

  /** Problems with an answer: status listed (or `default`), content type, body shape (closed), rate-limit headers. */
  responseProblems(op: Operation | undefined, x: Exchange): string[] {
    if (!op) {
      // Paths the document does not have: a 404 or 405 problem, or the 401 its global bearer security gives a caller
      // without a valid key (the key is checked before the route).
      const right = x.status === 404 || x.status === 405 || (x.status === 401 && !x.authenticated);
      const problems = right ? [] : [`status ${x.status} on a path the document does not have`];
      return [...problems, ...this.check("closed", "/components/schemas/ErrorResponse", x.responseBody)];
    }
    const base = `/paths/${escapePointer(op.template)}/${op.method.toLowerCase()}/responses`;
    const statusKey = op.spec.responses[String(x.status)] ? String(x.status) : op.spec.responses.default ? "default" : undefined;
    if (statusKey === undefined) return [`status ${x.status} is not in the document for ${op.operationId}`];
    let response = op.spec.responses[statusKey];
    let pointer = `${base}/${statusKey}`;
    if (response.$ref) {
      const name = response.$ref.split("/").pop();
      response = this.doc.components.responses[name];
      pointer = `/components/responses/${name}`;
    }
    // 2xx must be listed explicitly; `default` covers errors only.
    if (statusKey === "default" && x.status < 400) return [`status ${x.status} is not in the document for ${op.operationId}`];
    const problems: string[] = [];
    const content = response.content ?? {};
    const types = Object.keys(content);
    if (types.length === 0) {
      if (x.responseBody !== undefined && x.responseBody !== "") problems.push(`status ${x.status} has no body in the document`);
    } else {
      const type = (x.contentType ?? "").split(";")[0].trim();
      if (!types.includes(type)) problems.push(`content type ${type || "(none)"} is not one of ${types.join(", ")}`);
      else problems.push(...this.check("closed", `${pointer}/content/${escapePointer(type)}/schema`, x.responseBody));
      if (type === "application/problem+json" && (x.responseBody as { status?: number })?.status !== x.status)
        problems.push("problem status differs from the HTTP status");
    }
    if (x.authenticated && response.headers) {
      for (const h of ["RateLimit", "RateLimit-Policy"]) {
        if (response.headers[h] && x.headers[h.toLowerCase()] === undefined) problems.push(`header ${h} missing on an authenticated answer`);
      }
    }
    if (x.status === 429 && x.headers["retry-after"] === undefined) problems.push("a 429 without Retry-After");
    return problems;
  }

  /**
   * Every problem with one exchange: a request the document refuses must be refused (4xx), and every answer must be
   * one the document allows.
   */
  exchangeProblems(x: Exchange): string[] {
    const path = x.path.split("?")[0];
    const op = this.find(x.method, path);
    const problems: string[] = [];
    if (op) {
      const invalid = this.requestProblems(op, x.query, x.requestBody);
      if (invalid.length > 0 && x.status < 400) problems.push(`accepted (${x.status}) a request the document refuses: ${invalid.join("; ")}`);
    }
    problems.push(...this.responseProblems(op, x));
    return problems;
  }
}
