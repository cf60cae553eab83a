/**
 * How the CLI turns any failure into one line on stderr and an exit code, never showing the key.
 */
import { AuthenticationError, ConfigurationError, createRedactor, InvalidArgumentError, NotFoundError, PermissionError } from "../api";
import { EXIT, type ExitCode } from "./io";
import { printable } from "./terminalText";

/** Bad arguments or input the user can fix on the command line (exit 2). */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/**
 * Exit code for an error that ended a command (see {@link EXIT}): 2 when the user must fix the
 * arguments or configuration (usage, missing or rejected key, unknown endpoint or worker),
 * 1 for everything else (platform errors, network failures, timeouts).
 */
export function exitCodeFor(err: unknown): ExitCode {
  if (
    err instanceof UsageError ||
    err instanceof ConfigurationError ||
    err instanceof InvalidArgumentError ||
    err instanceof AuthenticationError ||
    err instanceof PermissionError ||
    err instanceof NotFoundError
  ) {
    return EXIT.USAGE;
  }
  return EXIT.FAILED;
}

/**
 * One line describing `err`: its message with line breaks folded, control characters removed (it
 * quotes server text), and the API key (and any `api_key=` parameter) redacted — the client already
 * redacts its errors; this is the last guard.
 */
export function describeError(err: unknown, apiKey?: string): string {
  const text = err instanceof Error ? err.message || err.name : String(err);
  return printable(createRedactor(apiKey)(text).replace(/\s*\r?\n\s*/g, "; ")).trim();
}
