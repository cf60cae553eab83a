/** What a resource class of this package registers with the engine next to its serialized stub. */
import * as pulumi from "@pulumi/pulumi";
import { NAME_PREFIX_PROPERTY, type ResourceModel } from "../provider";

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

/** A warning per deprecated argument the program sets (the model's `deprecated` message); it still works. */
export function warnDeprecated(model: ResourceModel, args: object | undefined, resource: pulumi.Resource): void {
  const given = (args ?? {}) as Record<string, unknown>;
  for (const [name, field] of Object.entries(model.fields)) {
    if (field.kind === "input" && field.deprecated && given[name] !== undefined) pulumi.log.warn(field.deprecated, resource);
  }
}
