/**
 * The value the Pulumi engine puts in place of an input that is not known yet (during `pulumi preview`,
 * an output of a resource that does not exist yet). Dynamic providers see it as this plain string
 * (`@pulumi/pulumi/runtime/rpc.js` `unknownValue`); it is repeated here so the provider module does not
 * load the whole Pulumi SDK. tests/provider/endpointInputs.test.ts keeps the two equal.
 */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** True when `value` is the engine's unknown sentinel. */
export function isUnknown(value: unknown): boolean {
  return value === UNKNOWN;
}

/** True when `value` is unknown or is an array holding an unknown element. */
export function containsUnknown(value: unknown): boolean {
  return isUnknown(value) || (Array.isArray(value) && value.some(isUnknown));
}
