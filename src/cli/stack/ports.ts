/**
 * The provider's ports for the stack commands: the port of a kind on the stack's API path, on a
 * session of its own over the command's client, so the commands delete exactly as a destroy does.
 */
import type { PlatformClient } from "../../api";
import { portOf, type ApiPath, type PerPath } from "../../provider/apiPath";
import type { Port, PortFactory } from "../../provider/port";
import { PlatformSession } from "../../provider/session";

export function portFor<I, R extends { id: string }>(ports: PerPath<PortFactory<I, R>>, client: PlatformClient, api: ApiPath): Port<I, R> {
  return portOf(ports, api)(new PlatformSession(() => client, { api }));
}
