/** Wrapping secret arguments before registration, so the engine stores them encrypted (model: `secret`). */
import * as pulumi from "@pulumi/pulumi";

/**
 * A map whose every value is a Pulumi secret. A plain object keeps its keys visible: the engine then
 * shows `pulumi preview --diff` per key (`~ HF_TOKEN: [secret] => [secret]`) without any value. A map
 * given as an Output or a promise is made secret whole.
 */
export function secretValues(
  map: pulumi.Input<Record<string, pulumi.Input<string>>> | undefined,
): pulumi.Input<Record<string, pulumi.Input<string>>> | undefined {
  if (map === undefined || map === null) return map;
  if (pulumi.Output.isInstance(map) || typeof (map as { then?: unknown }).then === "function") return pulumi.secret(map);
  return Object.fromEntries(Object.entries(map as Record<string, pulumi.Input<string>>).map(([k, v]) => [k, pulumi.secret(v)]));
}
