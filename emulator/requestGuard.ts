/**
 * What keeps the emulator local: it listens on 127.0.0.1, and a page in the developer's browser could
 * still reach it (cross-site `text/plain` POSTs, DNS rebinding). Only requests naming a loopback `Host`,
 * carrying no foreign `Origin`, and — for POSTs — a JSON body get through; admin routes included.
 */
import type { IncomingMessage } from "http";

/** Why a request is refused: HTTP status, detail, GraphQL code. */
export interface Refusal {
  status: number;
  detail: string;
  code: string;
}

const LOOPBACK_HOST = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/i;

function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === "http:" || url.protocol === "https:") && LOOPBACK_HOST.test(url.host);
  } catch {
    return false;
  }
}

function isJson(contentType: string): boolean {
  const type = contentType.split(";")[0].trim().toLowerCase();
  return type === "application/json" || /^application\/[\w.+-]+\+json$/.test(type);
}

/**
 * The refusal for a request that is not local and same-origin, or undefined to let it through:
 * 403 for a `Host` other than localhost / 127.0.0.0/8 / [::1] (DNS rebinding) and for an `Origin` that is
 * not such a host (`null` included); 415 for a POST whose body is not declared `application/json` (a
 * bodiless POST without `Content-Type` passes: job cancels and resets carry none).
 */
export function refuseForeign(req: IncomingMessage): Refusal | undefined {
  const host = req.headers.host ?? "";
  if (!LOOPBACK_HOST.test(host)) {
    return {
      status: 403,
      detail: `The emulator answers only requests for a loopback host (localhost, 127.0.0.1, [::1]); Host was ${JSON.stringify(host)}.`,
      code: "FORBIDDEN",
    };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !isLoopbackOrigin(origin)) {
    return { status: 403, detail: `Cross-origin requests are refused; Origin was ${JSON.stringify(origin)}.`, code: "FORBIDDEN" };
  }
  if (req.method === "POST" || req.method === "PATCH") {
    const contentType = req.headers["content-type"];
    const hasBody = req.headers["transfer-encoding"] !== undefined || Number(req.headers["content-length"] ?? 0) > 0;
    if (contentType !== undefined ? !isJson(contentType) : hasBody) {
      return {
        status: 415,
        detail: `A ${req.method} body must be JSON with Content-Type: application/json; got ${contentType === undefined ? "no Content-Type" : JSON.stringify(contentType)}.`,
        code: "BAD_REQUEST",
      };
    }
  }
  return undefined;
}
