/** Pod's ports and listings: REST v2 whatever `runpod:api` says (the document has no GraphQL operations for pods). */
import type { PerPath } from "../../apiPath";
import type { PodState } from "../../paths/records";
import type { PortFactory } from "../../port";
import type { PodInputs } from "../model";
import { listPodStates, v2PodPort } from "./v2";

export { listPodStates };

export const POD_PORTS: PerPath<PortFactory<PodInputs, PodState>> = { graphql: v2PodPort, v2: v2PodPort };

/** REST v2 `listPods`: whole Pods, as getPod returns one. */
export const POD_LISTING: PerPath<typeof listPodStates> = { graphql: listPodStates, v2: listPodStates };
