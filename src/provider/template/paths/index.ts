/** Template's ports and listings per API path: the only place a path is chosen for this kind. */
import type { PlatformClient } from "../../../api";
import type { PerPath } from "../../apiPath";
import type { TemplateState } from "../../paths/records";
import type { PortFactory } from "../../port";
import type { TemplateInputs } from "../model";
import { graphqlTemplatePort, templateStateFromGraphql } from "./graphql";
import { templateStateFromV2, v2TemplatePort } from "./v2";

export const TEMPLATE_PORTS: PerPath<PortFactory<TemplateInputs, TemplateState>> = { graphql: graphqlTemplatePort, v2: v2TemplatePort };

/** GraphQL `myself { podTemplates }`; REST v2 `listTemplates`. */
export const TEMPLATE_LISTING: PerPath<(client: PlatformClient) => Promise<TemplateState[]>> = {
  graphql: async (client) => (await client.listTemplates()).map(templateStateFromGraphql),
  v2: async (client) => (await client.v2.listTemplates()).map(templateStateFromV2),
};
