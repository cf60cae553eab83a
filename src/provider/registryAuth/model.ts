/**
 * The `ContainerRegistryAuth` resource, declared once: credentials the platform uses to pull a private
 * image (docs/spec/platform-clients.md, Registry credentials; the spec's Registries tag). The platform
 * reports only `{ id, name }`: the username and the password are carried from the inputs, so a change
 * made outside Pulumi to either is invisible to `pulumi refresh`.
 */
import { argumentNames, defineModel, input, inputNames, outputNames, secretNames, type InputName, type InputsOf, type OutputsOf } from "../model/fields";
import { text } from "../model/rules";

export const REGISTRY_AUTH_MODEL = defineModel({
  kind: "registryAuth",
  module: "runpod",
  type: "ContainerRegistryAuth",
  fields: {
    name: input({
      doc: "Name of the credentials (unique per account on `runpod:api graphql`).",
      rule: text(255, { trimmed: true }),
      required: true,
      autoName: true,
      change: {
        policy: "replace",
        compare: "value",
        why: "neither path renames credentials: new credentials are created under the new name first, templates move to them, then the old ones are deleted",
      },
    }),
    username: input({
      doc: "Registry user name.",
      rule: text(255),
      required: true,
      reported: false,
      change: {
        policy: "update",
        compare: "value",
        why: "updateRegistryAuth carries username and password; not reported by the platform (a change outside Pulumi is not seen by refresh)",
      },
    }),
    password: input({
      doc: "Registry password or token (secret).",
      rule: text(4096),
      required: true,
      secret: true,
      reported: false,
      change: {
        policy: "update",
        compare: "value",
        why: "updateRegistryAuth carries username and password; write-only on the platform (a change outside Pulumi is not seen by refresh)",
      },
    }),
  },
});

type RegistryAuthFields = (typeof REGISTRY_AUTH_MODEL)["fields"];

export type RegistryAuthInputs = InputsOf<RegistryAuthFields>;
export type RegistryAuthOutputs = OutputsOf<RegistryAuthFields>;
export type RegistryAuthInputField = InputName<RegistryAuthFields>;

export const REGISTRY_AUTH_INPUT_FIELDS = inputNames(REGISTRY_AUTH_MODEL);
export const REGISTRY_AUTH_ARG_FIELDS = argumentNames(REGISTRY_AUTH_MODEL);
export const REGISTRY_AUTH_OUTPUT_FIELDS = outputNames(REGISTRY_AUTH_MODEL);
/** Outputs registered as Pulumi secrets: `password`. */
export const REGISTRY_AUTH_SECRET_FIELDS = secretNames(REGISTRY_AUTH_MODEL);
