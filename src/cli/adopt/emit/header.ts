/** The first lines of every written program (each emitter adds its comment marker). */
export const HEADER = [
  "Written by `pulumi-runpod adopt`: the account's objects as they were, each already in the stack's state.",
  "Env values and registry credentials are read from the stack's configuration (secrets), never written here.",
];
