/**
 * Kinds whose names are unique per account (templates, registry credentials): a pending create's
 * object is the one with the name it recorded, exactly, so no settings need comparing.
 */
import type { PlatformClient } from "../../api";
import { isAutoNameOf, typeToken, type ResourceModel } from "../../provider";
import type { ApiPath } from "../../provider/apiPath";
import type { PlatformObject, StackKind } from "./stackKind";

export interface NamedKindSpec {
  model: ResourceModel;
  noun: string;
  list(client: PlatformClient, api: ApiPath): Promise<PlatformObject[]>;
  /** The delete (the kind's port: gone counts as deleted); the platform may refuse while something still uses the object. */
  delete(client: PlatformClient, object: PlatformObject, api: ApiPath): Promise<void>;
}

export function namedKind(spec: NamedKindSpec): StackKind {
  return {
    type: typeToken(spec.model),
    noun: spec.noun,
    list: spec.list,
    madeBy: (object, inputs) => object.name === inputs.name,
    nameIn: (props) => (typeof props?.name === "string" ? props.name : undefined),
    isAutoNameOf,
    remove: (client, object, api) => spec.delete(client, object, api),
  };
}
