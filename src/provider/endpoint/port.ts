/**
 * What a path does for an endpoint (paths/graphql.ts, paths/v2.ts); the provider (provider.ts) says
 * when, in the model's terms. Records are {@link EndpointState}: the model's field names.
 */
import type { EndpointState } from "../paths/records";
import type { EndpointInputField, EndpointInputs } from "./model";

export interface EndpointPort {
  /**
   * Fields this path may leave out of its records (undefined): outputs carry them from the inputs or
   * stored outputs. REST v2 keeps no link to a template (`templateId` is a snapshot) and omits
   * `workers.idleTimeout` of a queue-based endpoint scaling on request count.
   */
  readonly carried: readonly EndpointInputField[];
  /**
   * The path copies a template into the endpoint at create (REST v2: a snapshot), so a template change
   * reaches the endpoint only when re-applied (`update` with `reapplyTemplate`). False where the
   * platform rolls the template's endpoints itself (GraphQL).
   */
  readonly copiesTemplates: boolean;
  /** Sends the create of `inputs` (the provider settles an unknown outcome; never repeated here). */
  create(inputs: EndpointInputs): Promise<EndpointState>;
  /**
   * After a create: applies what the create could not carry, if anything.
   * @throws IncompleteCreateError when the endpoint exists but a follow-up failed.
   */
  finishCreate(record: EndpointState, inputs: EndpointInputs): Promise<EndpointState>;
  /**
   * Applies `inputs` to endpoint `id`; `olds` are the stored outputs (last read). With `reapplyTemplate`,
   * the template's container settings are applied again and the rollout followed to its end, within
   * the inputs' `workersReadyTimeout`.
   */
  update(id: string, inputs: EndpointInputs, olds: Record<string, unknown>, reapplyTemplate: boolean): Promise<EndpointState>;
  /** Scales endpoint `id` to zero workers and deletes it; gone (at any step) counts as deleted. `props`: the stored outputs. */
  remove(id: string, props: Record<string, unknown> | undefined): Promise<void>;
}

/** The endpoint exists, but setting `missing` after its create failed (the provider records it, the next `up` finishes). */
export class IncompleteCreateError extends Error {
  constructor(
    message: string,
    readonly record: EndpointState,
  ) {
    super(message);
    this.name = "IncompleteCreateError";
  }
}
