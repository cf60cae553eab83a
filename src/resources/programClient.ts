/**
 * The api client of the program-side functions (network-volume lookups, catalog functions): built from
 * the stack config `runpod:*` (via `pulumi.Config("runpod")`), falling back to RUNPOD_API_KEY and the
 * other RUNPOD_* variables; rebuilt only when that configuration changes.
 */
import * as pulumi from "@pulumi/pulumi";
import type { PlatformClient } from "../api/types";
import { clientInputFromConfig, PULUMI_CONFIG_KEYS } from "../provider";
import { checkStackConfig } from "./registration";

let cached: { key: string; client: PlatformClient } | undefined;

/**
 * The client for the program's configuration, and the configuration's key. The api client modules are
 * loaded here, at the first call, not when the program loads this package: most programs call no
 * function, and loading them costs every `pulumi up` tens of milliseconds.
 */
export async function programClient(): Promise<{ key: string; client: PlatformClient }> {
  checkStackConfig();
  const config = new pulumi.Config("runpod");
  const input = clientInputFromConfig({ get: (key) => config.get(key.slice(key.indexOf(":") + 1)) });
  const key = JSON.stringify(input);
  if (!cached || cached.key !== key) {
    const { createClient, resolveClientConfig } = await import("../api");
    cached = { key, client: createClient(resolveClientConfig(input, process.env, PULUMI_CONFIG_KEYS)) };
  }
  return cached;
}

/**
 * A function's failure as the program shows it: a `pulumi.RunError`, which Pulumi prints as one line
 * (any other error comes with its stack), with the Pulumi front end's hint.
 */
export async function functionFailure(err: unknown, what: string, doing: string): Promise<pulumi.RunError> {
  if (err instanceof pulumi.RunError) return err;
  const { explainError } = await import("../api");
  const { PULUMI_HINTS } = await import("../provider");
  return new pulumi.RunError(`${what} failed: ${explainError(err, { doing, hints: PULUMI_HINTS })}`);
}
