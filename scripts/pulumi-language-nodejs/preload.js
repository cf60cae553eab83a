// Preloaded into Pulumi programs by the minimal language host (see main.go).
//
// Why: Node.js 20.20's util.inspect loops until "RangeError: Invalid string length" (20-40 s of
// CPU) when colouring a stack line whose path ends in a scoped package segment with no further
// separator, e.g. "/node_modules/@pulumi/config.ts:301:19". @pulumi/pulumi's source maps produce
// exactly such paths, and its run script inspects every uncaught error with colours on, so any
// failing program stalls before reporting. Inspecting those errors without colours avoids the
// faulty code path; the text is the same minus ANSI codes.
"use strict";
const util = require("util");
const original = util.inspect;
const scopedTail = /[/\\]node_modules[/\\]@[^/\\\s]+[/\\][^/\\\n]*(?:\n|$)/;

function affected(value) {
  return value instanceof Error && typeof value.stack === "string" && scopedTail.test(value.stack);
}

function inspect(value, opts, ...rest) {
  if (opts && typeof opts === "object" && opts.colors && affected(value)) {
    opts = { ...opts, colors: false };
  }
  return original.call(this, value, opts, ...rest);
}
Object.defineProperties(inspect, Object.getOwnPropertyDescriptors(original));
util.inspect = inspect;
