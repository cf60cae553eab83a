/**
 * Which of the platform's interfaces the provider manages resources through: provider setting
 * `runpod:api` (environment `RUNPOD_API`). `v2` is REST v2 (`{base_url}/v2`, the platform's current
 * interface); `graphql` is the design's mapping (`saveEndpoint` / `deleteEndpoint` / REST v1 create,
 * `saveTemplate`, `myself` listings), which the platform retires (REST v1 on 2026-11-15, GraphQL in
 * early 2027: docs/spec/rest-v2-notes.md). The session picks the path once (session.ts); each kind
 * then takes its port from a table keyed by it ({@link portOf}), so nothing else branches on it.
 */
import { ConfigurationError } from "../api/errors";

export const API_PATHS = ["v2", "graphql"] as const;
export type ApiPath = (typeof API_PATHS)[number];

/** The path when neither the stack configuration nor the environment names one. */
export const DEFAULT_API_PATH: ApiPath = "v2";
export const API_PATH_CONFIG_KEY = "runpod:api";
export const API_PATH_ENV_VAR = "RUNPOD_API";

export function isApiPath(value: unknown): value is ApiPath {
  return (API_PATHS as readonly unknown[]).includes(value);
}

/**
 * The path named by `configured` (the stack's `runpod:api`), else by `env.RUNPOD_API`, else the default.
 * @throws ConfigurationError naming the setting and the values it accepts.
 */
export function resolveApiPath(configured: string | undefined, env: NodeJS.ProcessEnv = process.env): ApiPath {
  const [value, from] =
    configured !== undefined && configured !== "" ? [configured, API_PATH_CONFIG_KEY] : [env[API_PATH_ENV_VAR], `environment variable ${API_PATH_ENV_VAR}`];
  if (value === undefined || value === "") return DEFAULT_API_PATH;
  const path = value.trim().toLowerCase();
  if (!isApiPath(path)) throw new ConfigurationError(`${from} must be one of ${API_PATHS.join(", ")}; got ${JSON.stringify(value)}`, API_PATH_CONFIG_KEY);
  return path;
}

/** One implementation per path (a kind's ports); picking is a lookup, never a branch. */
export type PerPath<T> = Record<ApiPath, T>;

export function portOf<T>(table: PerPath<T>, path: ApiPath): T {
  return table[path];
}
