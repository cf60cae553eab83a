/**
 * Registry credentials on the design's path (docs/spec/platform-clients.md, Registry credentials), the
 * whole mapping: `saveRegistryAuth` creates (name, username, password), `updateRegistryAuth` changes
 * username and password in place (the whole desired state; it cannot rename), `deleteRegistryAuth`
 * deletes by id. The record is `{ id, name }`.
 */
import type { RegistryAuthRecord, SaveRegistryAuthInput, UpdateRegistryAuthInput } from "../../../api";
import { isFailedPrecondition, isGoneOnGraphql } from "../../paths/graphqlErrors";
import type { RegistryAuthState } from "../../paths/records";
import type { Port, PortContext } from "../../port";
import type { RegistryAuthInputs } from "../model";

export const registryAuthStateFromGraphql = (r: RegistryAuthRecord): RegistryAuthState => ({ id: r.id, name: r.name });

/** The `saveRegistryAuth` input (a create). */
export function saveRegistryAuthInput(inputs: RegistryAuthInputs): SaveRegistryAuthInput {
  return { name: inputs.name, username: inputs.username, password: inputs.password };
}

/** The `updateRegistryAuth` input: username and password (the name cannot change). */
export function updateRegistryAuthInput(id: string, inputs: RegistryAuthInputs): UpdateRegistryAuthInput {
  return { id, username: inputs.username, password: inputs.password };
}

export function graphqlRegistryAuthPort(context: PortContext): Port<RegistryAuthInputs, RegistryAuthState> {
  return {
    capabilities: { unreported: [], replaces: [], copiesTemplates: false, uniqueNames: true },
    refusedInUse: isFailedPrecondition,
    create: async (inputs) => registryAuthStateFromGraphql(await context.client.saveRegistryAuth(saveRegistryAuthInput(inputs))),
    read: (id) => context.listing<RegistryAuthState>("registryAuth").find(id),
    update: async (id, inputs) => registryAuthStateFromGraphql(await context.client.updateRegistryAuth(updateRegistryAuthInput(id, inputs))),
    async delete(id) {
      context.listing<RegistryAuthState>("registryAuth").changed(id);
      try {
        await context.client.deleteRegistryAuth(id);
      } catch (err) {
        if (!isGoneOnGraphql(err)) throw err;
      }
    },
  };
}
