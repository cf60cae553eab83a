/**
 * Registry credentials on REST v2 (docs/spec/rest-v2-openapi.json, tag Registries), the whole mapping:
 * `createRegistry`, `listRegistries` (`{ id, name }`), `deleteRegistry`; v2 has no update, so a changed
 * username or password replaces the credentials (`replaces`). Names are not unique on v2, so the new
 * credentials are created first whatever their name, templates move to them, then the old are deleted.
 */
import type { V2 } from "../../../api";
import { isNotFound } from "../../errorKinds";
import type { RegistryAuthState } from "../../paths/records";
import type { Port, PortContext } from "../../port";
import type { RegistryAuthInputs } from "../model";

export const registryAuthStateFromV2 = (r: V2.Registry): RegistryAuthState => ({ id: r.id, name: r.name });

export function v2RegistryAuthPort(context: PortContext): Port<RegistryAuthInputs, RegistryAuthState> {
  const v2 = () => context.client.v2;
  return {
    capabilities: { unreported: [], replaces: ["username", "password"], copiesTemplates: false },
    create: async (inputs) => registryAuthStateFromV2(await v2().createRegistry({ name: inputs.name, username: inputs.username, password: inputs.password })),
    read: (id) => context.listing<RegistryAuthState>("registryAuth").find(id),
    update: () => Promise.reject(new Error("REST v2 has no update of registry credentials; the change replaces them")),
    async delete(id) {
      context.listing<RegistryAuthState>("registryAuth").changed(id);
      try {
        await v2().deleteRegistry(id);
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },
  };
}
