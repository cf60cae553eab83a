/**
 * The session of this package's resource kinds (kinds.ts): what the runtime, the CLI's stack commands
 * and the tests build. The shared machinery is kindSession.ts, which names no kind.
 */
import type { PlatformClient } from "../api";
import { KINDS } from "./kinds";
import { KindSession, type SessionOptions } from "./kindSession";

export type { SessionOptions } from "./kindSession";

export class PlatformSession extends KindSession {
  /**
   * @param getClient returns the client (throws ConfigurationError when the key or an address is
   *   missing or invalid); called at the first use that needs it, and again after it threw.
   */
  constructor(getClient: () => PlatformClient, options: SessionOptions = {}) {
    super(getClient, options, KINDS);
  }
}
