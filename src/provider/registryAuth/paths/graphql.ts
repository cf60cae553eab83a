/**
 * Registry credentials on the design's path (docs/spec/platform-clients.md, Registry credentials):
 * `saveRegistryAuth` creates, `updateRegistryAuth` changes username and password in place (the whole
 * desired state), `deleteRegistryAuth` deletes by id.
 */
import type { SaveRegistryAuthInput, UpdateRegistryAuthInput } from "../../../api";
import { isNotFound } from "../../errorKinds";
import { apiInput } from "../../model/state";
import type { NamedRecordPort } from "../../namedRecordProvider";
import type { RegistryAuthState } from "../../paths/records";
import type { PlatformSession } from "../../session";
import { REGISTRY_AUTH_MODEL, type RegistryAuthInputs } from "../model";

export function graphqlRegistryAuthPort(session: PlatformSession): NamedRecordPort<RegistryAuthInputs, RegistryAuthState> {
  return {
    listing: session.registryAuths,
    create: (inputs) => session.client.saveRegistryAuth(apiInput(REGISTRY_AUTH_MODEL, "create", inputs) as SaveRegistryAuthInput),
    update: (id, inputs) =>
      session.client.updateRegistryAuth({ id, ...(apiInput(REGISTRY_AUTH_MODEL, "update", inputs) as Omit<UpdateRegistryAuthInput, "id">) }),
    deletion: async (id, props) => ({
      name: typeof props?.name === "string" ? props.name : id,
      async remove() {
        try {
          await session.client.deleteRegistryAuth(id);
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      },
    }),
  };
}
