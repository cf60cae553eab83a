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

const ID_RULE = "must be a platform id: letters, digits, '.', '_' and '-', not made of dots only";
const PLATFORM_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Whether `value` can be a platform id (endpoint, model endpoint, worker, job): 1–128 of
 * `A-Z a-z 0-9 . _ -`, not dots only. Ids become URL path segments, where `.` and `..` would move
 * the request to another route even when encoded (URL dot-segment resolution).
 */
export function isPlatformId(value: unknown): value is string {
  return typeof value === "string" && PLATFORM_ID.test(value) && !/^\.+$/.test(value);
}

/** An id that goes into a URL path (see {@link isPlatformId}); `name` is the argument an error names. */
export function idArgument(name: string) {
  return nonEmptyArgument(name).refine(isPlatformId, ID_RULE).describe(name);
}

/**
 * A payload typed as `payload` whose `fields` alone are checked before sending: the client judges
 * what only it can (ids, an empty list) and leaves values — tiers, enums, ranges — to the platform,
 * whose error names them (spec: Errors), so a value the platform accepts is never refused here.
 */
export function checkedFields<S extends z.AnyZodObject>(
  payload: S,
  ...fields: (keyof S["shape"] & string)[]
): z.ZodType<z.output<S>, z.ZodTypeDef, z.input<S>> {
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

/**
 * Requires `value` to be a platform id (see {@link isPlatformId}).
 * @throws InvalidArgumentError `<operation>: <argument> must be …` naming the allowed characters.
 */
export function requireId(value: unknown, argument: string, operation: string): string {
  checkArguments(operation, z.tuple([idArgument(argument)]), [value]);
  return value as string;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Whether `value` is an RFC 3339 date-time with an offset, e.g. `2024-01-01T00:00:00Z` — the form
 * of the log stream's `since` (spec: Endpoints › worker logs). Each field is range-checked as
 * RFC 3339 §5.7 says: impossible dates (`2024-02-30`) are rejected, a leap second (`:60`) is accepted.
 */
export function isRfc3339DateTime(value: unknown): value is string {
  if (typeof value !== "string") return false;
  const m = RFC3339.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  const [offsetHour, offsetMinute] = [m[8], m[9]].map((v) => (v === undefined ? 0 : Number(v)));
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 60 &&
    offsetHour <= 23 &&
    offsetMinute <= 59
  );
}
