/**
 * Values between the engine's protobuf `Struct`s and the provider's plain records. The engine marks a
 * secret as `{ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value }`
 * (sdk/go/common/resource/plugin/rpc.go); the plugin answers `Configure` with `acceptSecrets: false`,
 * so only configuration values arrive wrapped, and they are unwrapped here. Values not known yet stay
 * the engine's unknown sentinel string, which the provider's check and diff already understand.
 */
import { Struct } from "google-protobuf/google/protobuf/struct_pb";

const SIG_KEY = "4dabf18193072939515e22adb298388d";
const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

export type Record_ = Record<string, unknown>;

/** `value` with every secret wrapper replaced by its value (recursively). */
export function unwrapSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrapSecrets);
  if (value && typeof value === "object") {
    const o = value as Record_;
    if (o[SIG_KEY] === SECRET_SIG) return unwrapSecrets(o.value);
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, unwrapSecrets(v)]));
  }
  return value;
}

/**
 * `record` with the values of `names` (the model's secret inputs) wrapped as secrets, so the engine
 * stores them encrypted whatever the program said: also after `pulumi import` and `refresh`, where no
 * program marks them.
 */
export function withSecrets(record: Record_ | undefined, names: readonly string[]): Record_ {
  const out: Record_ = { ...(record ?? {}) };
  for (const name of names) {
    const v = out[name];
    if (v !== undefined && v !== null) out[name] = { [SIG_KEY]: SECRET_SIG, value: v };
  }
  return out;
}

/** A request's struct as a plain record (empty when the engine sent none, as `pulumi import`'s Read does). */
export function fromStruct(s: Struct | undefined): Record_ {
  return s ? (unwrapSecrets(s.toJavaScript()) as Record_) : {};
}

/** Drops `undefined` (which a Struct cannot hold) at any depth. */
function defined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : defined(v)));
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record_)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, defined(v)]),
    );
  }
  return value;
}

export function toStruct(record: Record_ | undefined): Struct {
  return Struct.fromJavaScript(defined(record ?? {}) as Parameters<typeof Struct.fromJavaScript>[0]);
}
