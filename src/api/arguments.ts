/**
 * Checks of caller arguments made before any request is sent, shared by every operation so each
 * rule and its message exist once. Rules are zod schemas: an operation declares its arguments as a
 * tuple of them (operation.ts), and {@link checkArguments} turns the first failure into an error
 * naming the argument.
 */
import { z } from "zod";
import { InvalidArgumentError } from "./errors";

/** Positional arguments of an operation, one rule each. */
export type ArgumentRules = z.ZodTuple<[] | [z.ZodTypeAny, ...z.ZodTypeAny[]], null>;

const NON_EMPTY = "must be a non-empty string";

/** A string with a non-blank character (ids, cursors); `name` is the argument an error names. */
export function nonEmptyArgument(name: string) {
  return z
    .string({ required_error: NON_EMPTY, invalid_type_error: NON_EMPTY })
    .refine((s) => s.trim() !== "", NON_EMPTY)
    .describe(name);
}

/**
 * A payload typed as `payload` whose `fields` alone are checked before sending: the client judges
 * what only it can (ids, an empty list) and leaves values — tiers, enums, ranges — to the platform,
 * whose error names them (spec: Errors), so a value the platform accepts is never refused here.
 */
export function checkedFields<S extends z.AnyZodObject>(payload: S, ...fields: (keyof S["shape"] & string)[]): z.ZodType<z.output<S>, z.ZodTypeDef, z.input<S>> {
  // The cast gives the subset of rules the whole payload's type.
  return payload.pick(Object.fromEntries(fields.map((f) => [f, true]))).passthrough() as unknown as z.ZodType<z.output<S>, z.ZodTypeDef, z.input<S>>;
}

/**
 * Checks an operation's positional arguments against its rules. Missing arguments count as
 * `undefined`; arguments beyond the rules are not checked.
 * @param operation client operation name, e.g. `listWorkers`.
 * @throws InvalidArgumentError `<operation>: <argument> <rule>`, naming the innermost field of the
 *   first failure (e.g. `id` of a save input) or else the argument's own name.
 */
export function checkArguments(operation: string, rules: ArgumentRules, args: readonly unknown[]): void {
  const items: readonly z.ZodTypeAny[] = rules.items;
  const result = rules.safeParse(items.map((_, i) => args[i]));
  if (result.success) return;
  const issue = result.error.issues[0];
  const field = [...issue.path].reverse().find((p): p is string => typeof p === "string");
  const argument = field ?? items[Number(issue.path[0])]?.description ?? "arguments";
  throw new InvalidArgumentError(`${operation}: ${argument} ${issue.message}`, argument, { operation });
}

/**
 * Requires `value` to be a string with a non-blank character (ids, cursors).
 * @param argument name of the field, shown in the message and kept on the error.
 * @param operation client operation name, e.g. `listWorkers`.
 * @returns `value`, typed as a string.
 * @throws InvalidArgumentError `<operation>: <argument> must be a non-empty string`.
 */
export function requireNonEmpty(value: unknown, argument: string, operation: string): string {
  checkArguments(operation, z.tuple([nonEmptyArgument(argument)]), [value]);
  return value as string;
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * Whether `value` is an RFC 3339 date-time with an offset, e.g. `2024-01-01T00:00:00Z` — the form
 * of the log stream's `since` (spec: Endpoints › worker logs). Impossible dates are rejected.
 */
export function isRfc3339DateTime(value: unknown): value is string {
  return typeof value === "string" && RFC3339.test(value) && !Number.isNaN(Date.parse(value));
}
