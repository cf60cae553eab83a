/**
 * The provider plugin's path (Python, Go, YAML): `pulumi import --file`, the engine reading each object
 * through `pulumi-resource-runpod`. Not written yet: adopt refuses these languages before it changes anything.
 */
import { UsageError } from "../errors";
import type { Language } from "./project";

/** @throws UsageError: the plugin path is not there yet (nothing has been changed when this runs). */
export function refusePluginPath(language: Language): never {
  throw new UsageError(
    `adopt writes TypeScript and JavaScript programs for now; ${language} (the provider plugin's path, \`pulumi import --file\`) comes next`,
  );
}
