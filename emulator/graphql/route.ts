/**
 * `POST {graphql_url}?api_key=KEY` (spec: Endpoints). Body `{ query, variables?, operationName? }`; the answer
 * is `{ data }` or `{ errors, data }` in the standard GraphQL shape. Every top-level field of the selected
 * operation counts as one operation in the stats; mutations need the key's `write` scope.
 */
import {
  execute,
  getOperationAST,
  GraphQLError,
  isEnumType,
  Kind,
  parse,
  validate,
  type DocumentNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import type { Classification, Route } from "../core";
import { json, type BodyReply } from "../reply";
import { rootValue } from "./resolvers";
import { schema } from "./schema";

interface GraphqlBody {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/** A GraphQL-shaped error reply (used for auth, rate-limit and request errors too). */
export function graphqlError(status: number, message: string, code: string, extra: Record<string, unknown> = {}, headers?: Record<string, string>): BodyReply {
  return { kind: "body", status, headers, body: { errors: [{ message, extensions: { code, ...extra } }], data: null } };
}

function checkBody(body: unknown): GraphqlBody | string {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return "The request body must be a JSON object with a 'query' string.";
  const b = body as Record<string, unknown>;
  if (typeof b.query !== "string" || b.query.trim() === "") return "The request body must carry a non-empty 'query' string.";
  if (b.variables != null && (typeof b.variables !== "object" || Array.isArray(b.variables))) return "'variables' must be a JSON object.";
  if (b.operationName != null && typeof b.operationName !== "string") return "'operationName' must be a string.";
  return b as unknown as GraphqlBody;
}

function topLevelFields(doc: DocumentNode, set: SelectionSetNode, seen = new Set<string>()): string[] {
  const fragments = new Map(doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
  const out: string[] = [];
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (!sel.name.value.startsWith("__")) out.push(sel.name.value);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      out.push(...topLevelFields(doc, sel.selectionSet, seen));
    } else if (!seen.has(sel.name.value) && fragments.has(sel.name.value)) {
      seen.add(sel.name.value);
      out.push(...topLevelFields(doc, fragments.get(sel.name.value)!.selectionSet, seen));
    }
  }
  return out;
}

/** Most tokens a document may have (the client's largest is a few hundred): bounds parse time and answer size. */
export const MAX_DOCUMENT_TOKENS = 2000;
/** Deepest nesting of selection sets a document may have. */
export const MAX_DOCUMENT_DEPTH = 12;

/** Deepest selection-set nesting of `doc` (fragments counted where they are defined), walked without recursion. */
function selectionDepth(doc: DocumentNode): number {
  let max = 0;
  const stack: [SelectionSetNode, number][] = [];
  for (const d of doc.definitions) if ("selectionSet" in d && d.selectionSet) stack.push([d.selectionSet, 1]);
  while (stack.length > 0) {
    const [set, depth] = stack.pop()!;
    max = Math.max(max, depth);
    for (const sel of set.selections) if ("selectionSet" in sel && sel.selectionSet) stack.push([sel.selectionSet, depth + 1]);
  }
  return max;
}

/** Documents (or syntax errors) by request body: classify and handle both need one, so each request is parsed once. */
const parsedBodies = new WeakMap<GraphqlBody, DocumentNode | GraphQLError>();

function parseOnce(body: GraphqlBody): DocumentNode | GraphQLError {
  let result = parsedBodies.get(body);
  if (result === undefined) {
    try {
      result = parse(body.query, { maxTokens: MAX_DOCUMENT_TOKENS });
      if (selectionDepth(result) > MAX_DOCUMENT_DEPTH) {
        result = new GraphQLError(`The document nests selections deeper than ${MAX_DOCUMENT_DEPTH} levels.`);
      }
    } catch (e) {
      // Any failure is the document's: a RangeError from very deep nesting included.
      result = e instanceof GraphQLError ? e : new GraphQLError(`Syntax Error: the document cannot be parsed (${(e as Error).message}).`);
    }
    parsedBodies.set(body, result);
  }
  return result;
}

/** Operation names and needed scope of a GraphQL request; unparsable requests carry no operation. */
function classify(body: unknown): Classification | BodyReply {
  const checked = checkBody(body);
  if (typeof checked === "string") return graphqlError(400, checked, "BAD_REQUEST");
  const doc = parseOnce(checked);
  // Refused before authentication and rate limiting, as a request error (GraphQL over HTTP: 400).
  if (doc instanceof GraphQLError) return { kind: "body", status: 400, body: { errors: [decorate(doc, "GRAPHQL_PARSE_FAILED")], data: null } };
  const op = getOperationAST(doc, checked.operationName ?? undefined);
  if (!op) return { operations: [], scope: "read" };
  return { operations: topLevelFields(doc, op.selectionSet), scope: op.operation === "query" ? "read" : "write" };
}

/** Adds `code` and, for enum errors, the allowed values, so every error names what would be accepted. */
function decorate(error: GraphQLError, fallbackCode: string): Record<string, unknown> {
  const out = error.toJSON() as { message: string; extensions?: Record<string, unknown> };
  const extensions: Record<string, unknown> = { ...(out.extensions ?? {}) };
  const enumName = /"(\w+)" enum/.exec(error.message)?.[1];
  const enumType = enumName ? schema().getType(enumName) : undefined;
  if (enumType && isEnumType(enumType)) {
    const allowed = enumType.getValues().map((v) => v.name);
    out.message = `${out.message} Allowed values: ${allowed.join(", ")}.`;
    extensions.allowed = allowed;
  }
  if (extensions.code === undefined) {
    const internal = error.originalError && !(error.originalError instanceof GraphQLError);
    extensions.code = internal ? "INTERNAL_SERVER_ERROR" : fallbackCode;
  }
  return { ...out, extensions };
}

export const graphqlRoute: Route = {
  method: "POST",
  path: "/graphql",
  style: "graphql",
  auth: "apiKeyParam",
  classify: (body) => classify(body),
  async handle(ctx) {
    // classify has already refused bodies that checkBody rejects.
    const body = ctx.body as GraphqlBody;
    // classify has already answered documents that do not parse.
    const document = parseOnce(body) as DocumentNode;
    // classify already listed the selected operation's top-level fields in ctx.operations.
    const singleMutationField = ctx.core.faults.get().singleMutationField === true;
    if (singleMutationField && ctx.operations.length > 1 && getOperationAST(document, body.operationName ?? undefined)?.operation === "mutation") {
      return graphqlError(200, "A request may carry only one mutation field.", "BAD_USER_INPUT");
    }
    const validationErrors = validate(schema(), document);
    if (validationErrors.length > 0) return json({ errors: validationErrors.map((e) => decorate(e, "BAD_USER_INPUT")), data: null });
    const result = await execute({
      schema: schema(),
      document,
      rootValue,
      contextValue: { principal: ctx.principal, platform: ctx.core.platform, templates: ctx.core.templates, registryAuths: ctx.core.registryAuths },
      variableValues: body.variables ?? undefined,
      operationName: body.operationName ?? undefined,
    });
    for (const e of result.errors ?? []) {
      if (e.originalError && !(e.originalError instanceof GraphQLError)) ctx.core.log(`graphql resolver failed: ${e.originalError.stack}`);
    }
    if (!result.errors) return json({ data: result.data });
    return json({ errors: result.errors.map((e) => decorate(e, "BAD_USER_INPUT")), data: result.data ?? null });
  },
};
