/**
 * Registry credentials on REST v2 (docs/spec/rest-v2-openapi.json, tag Registries): `createRegistry`,
 * `deleteRegistry`; v2 has no update, so a changed username or password replaces the credentials
 * (`replaces`): deleted first when the name stays (names are unique), created first under a new name.
 */
import { isNotFound } from "../../errorKinds";
import type { NamedRecordPort } from "../../namedRecordProvider";
import type { RegistryAuthState } from "../../paths/records";
import type { PlatformSession } from "../../session";
import type { RegistryAuthInputs } from "../model";

export function v2RegistryAuthPort(session: PlatformSession): NamedRecordPort<RegistryAuthInputs, RegistryAuthState> {
  const v2 = () => session.client.v2;
  return {
    listing: session.registryAuths,
    replaces: ["username", "password"],
    create: async (inputs) => {
      const r = await v2().createRegistry({ name: inputs.name, username: inputs.username, password: inputs.password });
      return { id: r.id, name: r.name };
    },
    update: () => Promise.reject(new Error("REST v2 has no update of registry credentials; the change replaces them")),
    deletion: async (id, props) => ({
      name: typeof props?.name === "string" ? props.name : id,
      async remove() {
        try {
          await v2().deleteRegistry(id);
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      },
    }),
  };
}
