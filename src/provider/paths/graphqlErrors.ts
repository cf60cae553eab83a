/**
 * What GraphQL's error codes mean to the provider, read only on the GraphQL path (its ports import
 * this): an answer whose errors all say `NOT_FOUND` is already a `NotFoundError` (src/api/graphql.ts);
 * a mutation of several fields may name `NOT_FOUND` or `FAILED_PRECONDITION` among other codes.
 */
import { GraphQLRequestError } from "../../api/errors";
import { isNotFound } from "../errorKinds";

function codesOf(err: unknown): string[] {
  if (err instanceof GraphQLRequestError) return err.codes;
  // An error from another copy of the package (e.g. dist/ next to ts sources) is still recognised.
  const e = err as { codes?: unknown; graphqlErrors?: { code?: string }[] } | null;
  if (e && Array.isArray(e.codes)) return e.codes as string[];
  if (e && Array.isArray(e.graphqlErrors)) return e.graphqlErrors.map((g) => g.code ?? "");
  return [];
}

/** The record does not exist for the caller: a 404, or `NOT_FOUND` among a GraphQL answer's codes. */
export function isGoneOnGraphql(err: unknown): boolean {
  return isNotFound(err) || codesOf(err).includes("NOT_FOUND");
}

/** The platform refused because of the record's state (a delete while workers run, a template in use): `FAILED_PRECONDITION`. */
export function isFailedPrecondition(err: unknown): boolean {
  return codesOf(err).includes("FAILED_PRECONDITION");
}
