/** What every command receives from `main`: the io, the user's stop signal and a lazy client. */
import type { ClientConfigInput } from "../api";
import type { CliClient } from "./client";
import type { CliIo } from "./io";
import type { Style } from "./style";

export interface CommandContext {
  io: CliIo;
  /** Aborted on Ctrl-C (see `CliIo.signal`); never undefined here. */
  signal: AbortSignal;
  /** Styling for stdout (colour only on a TTY without NO_COLOR). */
  out: Style;
  /** Styling for stderr. */
  err: Style;
  /**
   * Builds the client on first use, so `--help` and usage errors need no configuration. The stack
   * commands pass the stack's `runpod:*` settings, which then come before the environment.
   */
  connect(stackConfig?: ClientConfigInput): CliClient;
}
