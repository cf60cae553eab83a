/**
 * REST and job-interface errors as `application/problem+json` (spec: Errors, Resources › Error response):
 * `{ title, status, detail, errors? }` where `status` equals the HTTP status.
 */
import { STATUS_CODES } from "http";
import type { z } from "zod";
import type { BodyReply } from "./reply";

export interface ProblemBody {
  title: string;
  status: number;
  detail: string;
  errors?: string[];
}

/**
 * zod issues as `field: message` strings (problem+json `errors`, seed and fault-config messages);
 * `root` names the value itself when an issue has no path.
 */
export function issueList(error: z.ZodError, root = "body"): string[] {
  return error.issues.map((i) => `${i.path.join(".") || root}: ${i.message}`);
}

/** Build a problem reply; `errors` lists individual validation failures. */
export function problem(status: number, detail: string, errors?: string[], headers?: Record<string, string>): BodyReply {
  const body: ProblemBody = { title: STATUS_CODES[status] ?? "Error", status, detail };
  if (errors && errors.length > 0) body.errors = errors;
  return { kind: "body", status, body, contentType: "application/problem+json", headers };
}

/** Thrown by handlers and helpers to answer with a problem; caught by the server. */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly errors?: string[],
  ) {
    super(detail);
  }
  toReply(): BodyReply {
    return problem(this.status, this.detail, this.errors);
  }
}
