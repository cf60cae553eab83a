/**
 * How the CLI turns any failure into one line on stderr and an exit code, never showing the key.
 */
import {
  AuthenticationError,
  ConfigurationError,
  createRedactor,
  ENV_VARS,
  explainError,
  InvalidArgumentError,
  NotFoundError,
  PermissionError,
  type FrontEndHints,
} from "../api";
import { PULUMI_CONFIG_KEYS } from "../provider/providerConfig";
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
 * One line describing `err`: its message (API answers naming `context.doing`, e.g. the command, and
 * ending in the command's hint) with line breaks folded, control characters removed (it
 * quotes server text), and the API key (and any `api_key=` parameter) redacted — the client already
 * redacts its errors; this is the last guard.
 */
export function describeError(err: unknown, apiKey?: string, context: { doing?: string; hints?: FrontEndHints } = {}): string {
  const text = err instanceof Error ? explainError(err, context) || err.name : String(err);
  return printable(createRedactor(apiKey)(text).replace(/\s*\r?\n\s*/g, "; ")).trim();
}

const PERMISSION = "The API key is valid but lacks permission for this action; use a key with read/write access";

/** Hints of the after-deploy commands, which read the key from the environment only. */
export const ENVIRONMENT_HINTS: FrontEndHints = {
  authentication: `Check the key in the environment variable ${ENV_VARS.apiKey}`,
  permission: PERMISSION,
};

/** Hints of the stack commands, which read the stack's configuration first, as the provider does. */
export const STACK_HINTS: FrontEndHints = {
  authentication: `Check the stack's key (pulumi config set --secret ${PULUMI_CONFIG_KEYS.apiKey} <key>) or the environment variable ${ENV_VARS.apiKey}`,
  permission: PERMISSION,
  configuration: (setting) => (setting === "apiKey" ? `Set it with \`pulumi config set --secret ${PULUMI_CONFIG_KEYS.apiKey} <key>\`` : undefined),
};
