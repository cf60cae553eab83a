/**
 * What GraphQL's error codes mean to the provider, read only on the GraphQL path (its ports import
 * this): an answer whose errors all say `NOT_FOUND` is already a `NotFoundError` (src/api/graphql.ts);
 * a mutation of several fields may name `NOT_FOUND` or `FAILED_PRECONDITION` among other codes.
 */
import { GraphQLRequestError } from "../../api/errors";
import { fieldOf, isNotFound } from "../errorKinds";

function codesOf(err: unknown): string[] {
  if (err instanceof GraphQLRequestError) return err.codes;
  // By its fields: an error from another copy of the package (e.g. dist/ next to ts sources), or one withoutSecrets rethrew.
  const [codes, errors] = [fieldOf(err, "codes"), fieldOf(err, "graphqlErrors")];
  if (Array.isArray(codes)) return codes;
  if (Array.isArray(errors)) return errors.map((g: { code?: string }) => g.code ?? "");
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
