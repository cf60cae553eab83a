/**
 * The type checker holds each resource's Args to its model (model/fields.ts `ArgsOf`): the same names,
 * and each value, once unwrapped from `pulumi.Input`, within the model's type. A field is declared once, in
 * the model; the Args only add their docstrings.
 */
import type * as pulumi from "@pulumi/pulumi";

/** `A` is no wider than `B` (an Args type may narrow the model's: CUDA versions as `major.minor`). */
type Within<A, B> = [A] extends [B] ? true : false;

/** The argument names on which `Args` and the model's `Model` (`ArgsOf`) disagree: missing on either side, or an Args value the model's type does not hold. */
export type ArgsMismatch<Args, Model> = {
  [K in keyof Args | keyof Model]-?: K extends keyof Args
    ? K extends keyof Model
      ? Within<NonNullable<pulumi.Unwrap<Args[K]>>, NonNullable<Model[K]>> extends true
        ? never
        : K
      : K
    : K;
}[keyof Args | keyof Model];

/** Compiles only when `T` is `never`: no argument disagrees. */
export type Agrees<T extends never> = T;
