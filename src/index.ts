/**
 * pulumi-runpod: Pulumi resources for the serverless GPU platform.
 *
 * - {@link Endpoint}: a serverless endpoint (dynamic provider).
 * - {@link getNetworkVolume} / {@link getNetworkVolumes} (+ `...Output`): network volume lookups.
 *
 * Configuration: `pulumi config set --secret runpod:apiKey <key>` (or RUNPOD_API_KEY); addresses via
 * `runpod:graphqlUrl`, `runpod:restV1Url`, `runpod:restV2Url`, `runpod:inferenceUrl` (or RUNPOD_GRAPHQL_URL,
 * RUNPOD_API_URL, RUNPOD_REST_V2_URL, RUNPOD_INVOKE_URL), e.g. to point at the local emulator.
 */
export * from "./resources";
export { ENDPOINT_CHANGE_POLICY, renderChangePolicyTable } from "./provider/endpointDiff";
export { ENDPOINT_DEFAULTS } from "./provider/endpointDefaults";
export { ENDPOINT_OUTPUT_FIELDS } from "./provider/endpointFields";
export * as spec from "./api/spec";
