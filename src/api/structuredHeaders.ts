/**
 * The `structured-headers` library (RFC 9651) loaded through its CommonJS build. The package's own type
 * declarations are reachable only via its `exports` map, which `moduleResolution: node` ignores, so the types
 * are taken from its dist folder and the runtime from the package entry. Shared by the client (parsing
 * `RateLimit` headers) and the emulator (writing them).
 */
import type * as StructuredHeaders from "structured-headers/dist/index.js";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const sh: typeof StructuredHeaders = require("structured-headers");

export const { serializeList, parseList, Token } = sh;
export type { BareItem, List, Item, Parameters } from "structured-headers/dist/index.js";
