/**
 * Records every REST v2 exchange when `RUNPOD_EMULATOR_V2_TRAFFIC=<dir>` is set: one JSON line per answer
 * (method, path, query, status, content type, request and answer bodies, rate-limit headers) appended to a file of
 * its own per emulator instance in that directory. The conformance tier (tests/conformance/v2Traffic.test.ts)
 * validates every recorded exchange against docs/spec/rest-v2-openapi.json; the emulator itself only records.
 */
import { appendFileSync, mkdirSync } from "fs";
import { join } from "path";
import { randomId } from "./ids";

/** Environment variable naming the directory exchanges are appended to. */
export const TRAFFIC_ENV = "RUNPOD_EMULATOR_V2_TRAFFIC";

export interface V2Exchange {
  method: string;
  /** Path as the document names it, e.g. `/v2/serverless/abc`. */
  path: string;
  /** Raw query string without `?` ("" when none). */
  query: string;
  status: number;
  contentType: string | null;
  /** Whether the request carried a valid key (headers below are then required on the answer). */
  authenticated: boolean;
  /** An injected fault (5xx, forced 429, echoed request) shaped this answer. */
  fault: boolean;
  requestBody?: unknown;
  responseBody?: unknown;
  headers: Record<string, string>;
}

export class TrafficRecorder {
  private readonly file: string;

  constructor(dir: string) {
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, `v2-${process.pid}-${Date.now()}-${randomId(6)}.jsonl`);
  }

  record(exchange: V2Exchange): void {
    appendFileSync(this.file, `${JSON.stringify(exchange)}\n`);
  }
}

/** A recorder when the environment asks for one. */
export function trafficRecorderFromEnv(env: NodeJS.ProcessEnv = process.env): TrafficRecorder | undefined {
  const dir = env[TRAFFIC_ENV];
  return dir ? new TrafficRecorder(dir) : undefined;
}
