/** The Endpoint kind: its descriptor (kind.ts), listed in kinds.ts. */
import { named, type KindDescriptor } from "../kind";
import type { EndpointState } from "../paths/records";
import { ENDPOINT_MODEL, type EndpointInputs } from "./model";
import { ENDPOINT_LISTING, ENDPOINT_PORTS } from "./paths";
import { ENDPOINT_STACK } from "./stack";

export const ENDPOINT: KindDescriptor<"endpoint", EndpointInputs, EndpointState> = {
  kind: "endpoint",
  model: ENDPOINT_MODEL,
  doc: "A serverless endpoint: workers running a container (its own `imageName`, a template, or both) on GPUs or CPU flavors, scaled between `workersMin` and `workersMax` (spec: Resources › Serverless endpoint). `name` is generated from the resource name when unset.\n\nImport: `pulumi import runpod:index:Endpoint <name> <endpoint id>`.",
  ports: ENDPOINT_PORTS,
  listing: ENDPOINT_LISTING,
  stack: ENDPOINT_STACK,
  usesOf: {
    template: async (session, id) =>
      named(
        "endpoints",
        (await session.listing<EndpointState>("endpoint").list()).filter((e) => e.templateId === id),
      ),
    networkVolume: async (session, id) =>
      named(
        "endpoints",
        (await session.listing<EndpointState>("endpoint").list()).filter((e) => e.networkVolumeId === id || (e.networkVolumeIds ?? []).includes(id)),
      ),
  },
  hourlyCost: async (session, args) => (await import("./catalogReview")).endpointHourlyCost(session, args),
  provider: async (session) => new (await import("./provider")).EndpointProvider(session),
};
