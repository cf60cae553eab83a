/**
 * Property names the package reserves next to a resource's own fields. The engine stores them with the
 * inputs or outputs like any other property, so every resource kind uses the same names, and no
 * resource model may declare a field of these names.
 */

/** The serialized provider, which Pulumi's dynamic provider host reads from every resource's properties. */
export const PROVIDER_PROPERTY = "__provider";

/**
 * Registered (true) by a resource's `get`: `read` then treats a missing resource as an error rather than
 * dropping it from the stack, as a refresh or an adoption does.
 */
export const LOOKUP_PROPERTY = "__lookup";

/**
 * Registered by a resource class with its Pulumi resource name: the prefix of the name `check`
 * generates when `name` is unset (Pulumi auto-naming, naming.ts). `check` removes it.
 */
export const NAME_PREFIX_PROPERTY = "__namePrefix";

/**
 * Set (true) in checked inputs whose `name` this `check` generated: no other resource can carry such a
 * name, so `create` needs no "what existed before" listing to tell its own resource from another.
 */
export const AUTONAMED_PROPERTY = "__autonamed";

/**
 * Set in the outputs by create and update: what a refresh needs of the checked inputs they were given
 * (model/state.ts `CheckedInputs`): their keys, and the values no refreshed output gives back (the
 * estimates `check` writes, these reserved flags). Pulumi's dynamic provider host gives `read` the
 * stored outputs only, and a refresh shows the stored inputs against the inputs `read` returns; with
 * this `read` returns the program's inputs, neither losing a field the program declared nor adding one
 * it left to the platform.
 */
export const CHECKED_PROPERTY = "__checked";

/**
 * In an endpoint's or pod's checked inputs: its mounted volume ids that were volumes the program
 * declared, each with that volume's Pulumi resource name (stackMounts.ts). Kept in
 * {@link CHECKED_PROPERTY}, so a refresh does not forget them.
 */
export const STACK_MOUNTS_PROPERTY = "__stackMounts";

/** Every reserved name. */
export const RESERVED_PROPERTIES = [
  PROVIDER_PROPERTY,
  LOOKUP_PROPERTY,
  NAME_PREFIX_PROPERTY,
  AUTONAMED_PROPERTY,
  CHECKED_PROPERTY,
  STACK_MOUNTS_PROPERTY,
] as const;
