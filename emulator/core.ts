/** Everything a route handler may use, assembled once by startEmulator. */
import type { IncomingMessage } from "http";
import type { Principal, Scope } from "./auth";
import type { Billing } from "./billing";
import type { Catalog } from "./catalog";
import type { Clock } from "./clock";
import type { Faults } from "./faults";
import type { Jobs } from "./jobs";
import type { Platform } from "./platform";
import type { RateLimiter } from "./rateLimit";
import type { RegistryAuths } from "./registryAuths";
import type { Reply } from "./reply";
import type { Seed } from "./seed";
import type { Stats } from "./stats";
import type { Store } from "./store";
import type { Templates } from "./templates";
import type { TrafficRecorder } from "./traffic";
import type { EmulatorUrls } from "./types";
import type { WorkerPool } from "./workers";

export interface Core {
  seed: Seed;
  store: Store;
  platform: Platform;
  templates: Templates;
  registryAuths: RegistryAuths;
  workers: WorkerPool;
  jobs: Jobs;
  faults: Faults;
  stats: Stats;
  rateLimiter: RateLimiter;
  catalog: Catalog;
  billing: Billing;
  clock: Clock;
  /** Set when REST v2 exchanges are recorded (RUNPOD_EMULATOR_V2_TRAFFIC). */
  traffic?: TrafficRecorder;
  urls: () => EmulatorUrls;
  log: (message: string) => void;
}

/** One request as a handler sees it, after auth. */
export interface RouteContext {
  req: IncomingMessage;
  url: URL;
  params: Record<string, string>;
  /** Parsed JSON body (undefined when empty or for GET). */
  body: unknown;
  /** Present on authenticated routes. */
  principal: Principal;
  operations: string[];
  core: Core;
}

/** How a request is classified before auth: its operation names and the scope it needs. */
export interface Classification {
  operations: string[];
  scope: Scope;
}

export interface Route {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Path pattern with `:name` segments, e.g. `/api/v2/serverless/:id/workers`. */
  path: string;
  /** Error format: problem+json (`rest`) or GraphQL `errors` (`graphql`). */
  style: "rest" | "graphql";
  /** Where the key comes from; `none` skips auth and rate limiting (generated image files). */
  auth: "bearer" | "apiKeyParam" | "none";
  /** Fixed operation and scope, or a function deriving them from the request (GraphQL). */
  classify: Classification | ((body: unknown, url: URL) => Classification | Reply);
  handle(ctx: RouteContext): Reply | Promise<Reply>;
}
