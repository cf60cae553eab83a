/**
 * Template and registry-credential operations over GraphQL. The spec marks them "not shown"; the
 * documents follow what the platform's official clients send (docs/spec/platform-clients.md:
 * Templates, Registry credentials) and the account queries the platform serves for reading them
 * (`myself { podTemplates }`, `myself { containerRegistryCreds }`). Every user value travels in
 * variables; template env values and registry passwords are secrets and never appear in a message
 * the client writes.
 */
import { z } from "zod";
import { checkedFields, nonEmptyArgument, requireNonEmpty } from "./arguments";
import { definedOnly, gql, selectionOf } from "./graphql";
import { composite, graphqlOperation, operationTable, perform } from "./operation";
import {
  endpointTemplateSchema,
  registryAuthRecordSchema,
  saveRegistryAuthInputSchema,
  saveTemplateInputSchema,
  templateRecordSchema,
  updateRegistryAuthInputSchema,
  type EndpointTemplateInput,
  type RegistryAuthRecord,
  type SaveRegistryAuthInput,
  type SaveTemplateInput,
  type TemplateRecord,
  type UpdateRegistryAuthInput,
} from "./schemas";

const TEMPLATE_FIELDS = selectionOf(templateRecordSchema);
const REGISTRY_AUTH_FIELDS = selectionOf(registryAuthRecordSchema);

export const templateOperations = operationTable({
  /**
   * Creates (no `id`) or modifies (with `id`) a template: mutation `saveTemplate(input)`. A modify
   * should carry every managed field (a field left out may be reset). Creating is not repeated after
   * an unknown outcome (`outcomeUnknown: true`): names are unique per account, so look the name up
   * (`findTemplatesByName`) first. Modifying is idempotent and retried.
   * @returns the template as saved, including its `id`.
   * @throws InvalidArgumentError (empty `id`), GraphQLRequestError (validation, duplicate name),
   *   NotFoundError (unknown `id`), and the request errors of every operation.
   */
  saveTemplate: graphqlOperation({
    args: z.tuple([checkedFields(saveTemplateInputSchema, "id")]),
    document: gql`
      mutation saveTemplate($input: SaveTemplateInput!) {
        saveTemplate(input: $input) { ${TEMPLATE_FIELDS} }
      }
    `,
    variables: (input: SaveTemplateInput) => ({ input: definedOnly(input) }),
    response: z.object({ saveTemplate: templateRecordSchema }),
    result: (data): TemplateRecord => data.saveTemplate,
    idempotent: (input) => input.id !== undefined,
  }),

  /**
   * Deletes a template BY NAME: mutation `deleteTemplate(templateName)`. The platform refuses while an
   * endpoint or pod uses it, and for a short while after the last use (GraphQLRequestError, code
   * FAILED_PRECONDITION). Idempotent; a retry that finds it gone succeeds.
   * @throws NotFoundError when no template of the caller has that name.
   */
  deleteTemplate: graphqlOperation({
    args: z.tuple([nonEmptyArgument("templateName")]),
    document: gql`
      mutation deleteTemplate($templateName: String!) {
        deleteTemplate(templateName: $templateName)
      }
    `,
    variables: (templateName: string) => ({ templateName }),
    response: z.object({ deleteTemplate: z.unknown() }),
    result: (): void => undefined,
    idempotent: true,
    goneOnRetryIsDone: true,
  }),

  /**
   * The caller's templates: query `myself { podTemplates {…} }`.
   * @returns every template record (env values included: secrets).
   */
  listTemplates: graphqlOperation({
    document: gql`
      query podTemplates {
        myself { podTemplates { ${TEMPLATE_FIELDS} } }
      }
    `,
    response: z.object({ myself: z.object({ podTemplates: z.array(templateRecordSchema) }).passthrough() }),
    result: (data): TemplateRecord[] => data.myself.podTemplates,
    idempotent: true,
  }),

  /**
   * One template by id, from `listTemplates`.
   * @returns the record, or undefined when the caller has no template with that id.
   */
  findTemplate: composite((ctx) => async (id: string): Promise<TemplateRecord | undefined> => {
    requireNonEmpty(id, "id", "findTemplate");
    return (await perform(ctx, templateOperations.listTemplates, [])).find((t) => t.id === id);
  }),

  /**
   * Points an endpoint at another template: mutation `updateEndpointTemplate(input: { endpointId,
   * templateId })` (platform-clients.md). Idempotent.
   * @returns the endpoint's id and its template id.
   */
  updateEndpointTemplate: graphqlOperation({
    args: z.tuple([endpointTemplateSchema]),
    document: gql`
      mutation updateEndpointTemplate($input: UpdateEndpointTemplateInput!) {
        updateEndpointTemplate(input: $input) {
          id
          templateId
        }
      }
    `,
    variables: (input: EndpointTemplateInput) => ({ input }),
    response: z.object({ updateEndpointTemplate: z.object({ id: z.string(), templateId: z.string() }).passthrough() }),
    result: (data): { id: string; templateId: string } => data.updateEndpointTemplate,
    idempotent: true,
  }),

  /**
   * Creates registry credentials: mutation `saveRegistryAuth(input: { name, username, password })`.
   * Not repeated after an unknown outcome (`outcomeUnknown: true`); names are unique per account.
   * @returns `{ id, name }`; the password is never returned.
   */
  saveRegistryAuth: graphqlOperation({
    args: z.tuple([checkedFields(saveRegistryAuthInputSchema, "name")]),
    document: gql`
      mutation saveRegistryAuth($input: SaveRegistryAuthInput!) {
        saveRegistryAuth(input: $input) { ${REGISTRY_AUTH_FIELDS} }
      }
    `,
    variables: (input: SaveRegistryAuthInput) => ({ input }),
    response: z.object({ saveRegistryAuth: registryAuthRecordSchema }),
    result: (data): RegistryAuthRecord => data.saveRegistryAuth,
    idempotent: false,
  }),

  /**
   * Replaces the username and password of registry credentials: mutation
   * `updateRegistryAuth(input: { id, username, password })`. Idempotent.
   * @throws NotFoundError for an unknown id.
   */
  updateRegistryAuth: graphqlOperation({
    args: z.tuple([checkedFields(updateRegistryAuthInputSchema, "id")]),
    document: gql`
      mutation updateRegistryAuth($input: UpdateRegistryAuthInput!) {
        updateRegistryAuth(input: $input) { ${REGISTRY_AUTH_FIELDS} }
      }
    `,
    variables: (input: UpdateRegistryAuthInput) => ({ input }),
    response: z.object({ updateRegistryAuth: registryAuthRecordSchema }),
    result: (data): RegistryAuthRecord => data.updateRegistryAuth,
    idempotent: true,
  }),

  /**
   * Deletes registry credentials: mutation `deleteRegistryAuth(registryAuthId)`. Refused while a
   * template uses them (GraphQLRequestError). Idempotent; a retry that finds them gone succeeds.
   * @throws NotFoundError for an unknown id.
   */
  deleteRegistryAuth: graphqlOperation({
    args: z.tuple([nonEmptyArgument("registryAuthId")]),
    document: gql`
      mutation deleteRegistryAuth($registryAuthId: String!) {
        deleteRegistryAuth(registryAuthId: $registryAuthId)
      }
    `,
    variables: (registryAuthId: string) => ({ registryAuthId }),
    response: z.object({ deleteRegistryAuth: z.unknown() }),
    result: (): void => undefined,
    idempotent: true,
    goneOnRetryIsDone: true,
  }),

  /**
   * The caller's registry credentials: query `myself { containerRegistryCreds { id name } }`.
   */
  listRegistryAuths: graphqlOperation({
    document: gql`
      query containerRegistryCreds {
        myself { containerRegistryCreds { ${REGISTRY_AUTH_FIELDS} } }
      }
    `,
    response: z.object({ myself: z.object({ containerRegistryCreds: z.array(registryAuthRecordSchema) }).passthrough() }),
    result: (data): RegistryAuthRecord[] => data.myself.containerRegistryCreds,
    idempotent: true,
  }),
});
