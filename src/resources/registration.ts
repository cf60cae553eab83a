/** What a resource class of this package registers with the engine next to its serialized stub. */
import * as pulumi from "@pulumi/pulumi";
import { NAME_PREFIX_PROPERTY, type ResourceModel } from "../provider";
import { unknownConfigKeys } from "../provider/providerConfig";

/**
 * The properties of a new resource: every output of its model (undefined until the provider answers,
 * so the engine registers each as an output, also those the user leaves unset), the arguments, and the
 * Pulumi resource name as the prefix of an auto-name.
 */
export function registeredProperties(outputs: readonly string[], args: object | undefined, resourceName: string): pulumi.Inputs {
  const props: Record<string, unknown> = {};
  for (const key of outputs) props[key] = undefined;
  Object.assign(props, args ?? {});
  props[NAME_PREFIX_PROPERTY] = resourceName;
  return props;
}

/** The error of the configuration's problem, kept: Pulumi prints an error object once, however many callers throw it. */
let configError: pulumi.RunError | undefined;

/**
 * Stops the program (a `pulumi.RunError`: one line, at preview) when the stack's configuration holds a
 * `runpod:*` key the provider does not read. Every resource and function throws the same error object,
 * so the program prints it once (a lookup's rejected promise and a resource's throw would print it twice).
 */
export function checkStackConfig(): void {
  const problem = unknownConfigKeys(Object.keys(pulumi.runtime.allConfig()));
  if (!problem) return;
  if (configError?.message !== problem) configError = new pulumi.RunError(problem);
  throw configError;
}

/**
 * The resource options of a new resource of this package, after the checks every one gets:
 * the stack's configuration keys, and no `import` (the engine cannot import through a dynamic
 * provider; it would fail later with a cryptic "code must be a string").
 * @throws pulumi.RunError naming `pulumi-runpod import` for `opts.import`.
 */
export function checkedOptions<T extends pulumi.CustomResourceOptions>(type: string, name: string, opts: T | undefined): T | undefined {
  checkStackConfig();
  if (opts?.import !== undefined) {
    throw new pulumi.RunError(
      `${type} "${name}": the \`import\` resource option does not work with this provider (Pulumi cannot import through a dynamic provider). ` +
        `Remove it, then adopt the object with \`pulumi-runpod import ${name} <id>\` in the program's directory (docs/operations.md › Import)`,
    );
  }
  return opts;
}

/** A warning per deprecated argument the program sets (the model's `deprecated` message); it still works. */
export function warnDeprecated(model: ResourceModel, args: object | undefined, resource: pulumi.Resource): void {
  const given = (args ?? {}) as Record<string, unknown>;
  for (const [name, field] of Object.entries(model.fields)) {
    if (field.kind === "input" && field.deprecated && given[name] !== undefined) pulumi.log.warn(field.deprecated, resource);
  }
}
