/**
 * Errors the provider raises itself reach the user as their message alone. Pulumi's dynamic provider
 * host prints `${err}: ${err.stack}` to stderr for a failed check, diff, read or delete and then returns
 * the error, so the engine showed the message twice, with a JavaScript stack trace. A programming error
 * (a TypeError and the like) keeps its stack: that one is for a bug report.
 */

const BUGS = [TypeError, ReferenceError, SyntaxError, RangeError, EvalError, URIError];

/** What the host prints for each quieted error, dropped once when it does. */
const quieted = new Set<string>();
let filtering = false;

/** `err` with its stack reduced to its message, and the host's stderr print of it dropped. */
export function quiet(err: unknown): unknown {
  if (!(err instanceof Error) || BUGS.some((bug) => err.constructor === bug)) return err;
  err.stack = `${err.name}: ${err.message}`;
  quieted.add(`${String(err)}: ${err.stack}`);
  filterHostPrints();
  return err;
}

function filterHostPrints(): void {
  if (filtering) return;
  filtering = true;
  const print = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    if (args.length === 1 && typeof args[0] === "string" && quieted.delete(args[0])) return;
    print(...args);
  };
}
