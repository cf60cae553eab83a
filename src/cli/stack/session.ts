/**
 * What each stack command starts from: the Pulumi CLI for the stack (program directory, `--stack`)
 * and, on demand, the api client built from the stack's own `runpod:*` configuration.
 */
import type { ClientConfigInput } from "../../api";
import type { ApiPath } from "../../provider/apiPath";
import type { CliClient } from "../client";
import type { CommandContext } from "../context";
import { pulumiRunner, type PulumiRunner } from "./pulumiCommand";
import { stackSettings, type StackSettings } from "./stackConfig";

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
  /** The stack's `runpod:*` client settings (read once). */
  config(): Promise<ClientConfigInput>;
  /** The stack's API path (`runpod:api`): each path lists and deletes through its own interface. */
  api(): Promise<ApiPath>;
  /** The api client of the stack (key and addresses from its configuration, then the environment). */
  connect(): Promise<CliClient>;
}

export function stackSession(ctx: CommandContext, options: StackOptions): StackSession {
  const runnerFor = (stack?: string) => pulumiRunner({ stack, cwd: options.cwd, env: ctx.io.env });
  const pulumi = runnerFor(options.stack);
  let settings: Promise<StackSettings> | undefined;
  const read = () => (settings ??= stackSettings(pulumi, ctx.io.env));
  const session: StackSession = {
    pulumi,
    pulumiFor: (stack) => runnerFor(stack),
    config: async () => (await read()).client,
    api: async () => (await read()).api,
    connect: async () => ctx.connect(await session.config()),
  };
  return session;
}
