import type { EndpointOutputs } from "./model";

/**
 * Thrown by `create` when the endpoint exists but could not be given all its settings, or its workers
 * did not report ready in time (`waitForWorkers`). The dynamic provider host turns an error with `id`
 * and `properties` into "created, but failed to initialise", so the engine records the endpoint
 * (nothing leaks) and the next `pulumi up` updates it.
 */
export class EndpointInitError extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly properties: EndpointOutputs,
    readonly reasons: string[],
  ) {
    super(message);
    this.name = "EndpointInitError";
  }
}
