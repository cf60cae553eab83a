/**
 * What each stack command starts from: the Pulumi CLI for the stack (program directory, `--stack`)
 * and, on demand, the api client built from the stack's own `runpod:*` configuration.
 */
import type { ClientConfigInput } from "../../api";
import type { CliClient } from "../client";
import type { CommandContext } from "../context";
import { pulumiRunner, type PulumiRunner } from "./pulumiCommand";
import { stackClientConfig } from "./stackConfig";

/** Options every stack command takes. */
export interface StackOptions {
  /** Stack name; Pulumi's selected stack when unset. */
  stack?: string;
  /** Program directory; the current directory when unset. */
  cwd?: string;
}

export interface StackSession {
  pulumi: PulumiRunner;
  /** A runner for another stack of the same program. */
  pulumiFor(stack: string): PulumiRunner;
  /** The stack's `runpod:*` settings (read once). */
  config(): Promise<ClientConfigInput>;
  /** The api client of the stack (key and addresses from its configuration, then the environment). */
  connect(): Promise<CliClient>;
}

export function stackSession(ctx: CommandContext, options: StackOptions): StackSession {
  const runnerFor = (stack?: string) => pulumiRunner({ stack, cwd: options.cwd, env: ctx.io.env });
  const pulumi = runnerFor(options.stack);
  let config: Promise<ClientConfigInput> | undefined;
  const session: StackSession = {
    pulumi,
    pulumiFor: (stack) => runnerFor(stack),
    config: () => (config ??= stackClientConfig(pulumi)),
    connect: async () => ctx.connect(await session.config()),
  };
  return session;
}
