/** Secret values kept out of the provider's errors (src/provider/secrets.ts). */
import { GraphQLRequestError } from "../../src/api";
import { redactSecrets, secretValues, withoutSecrets } from "../../src/provider/secrets";
import { UNKNOWN } from "../../src/provider/unknown";

describe("secret values of inputs", () => {
  it("collects strings and map values of the secret fields, longest first, never the unknown sentinel", () => {
    expect(secretValues({ env: { A: "short", B: "much-longer", C: UNKNOWN }, password: "pw1", other: "x" }, ["env", "password"])).toEqual([
      "much-longer",
      "short",
      "pw1",
    ]);
    expect(secretValues(undefined, ["env"])).toEqual([]);
  });

  it("redacts raw and JSON-escaped forms", () => {
    expect(redactSecrets('value "a\\"b" and a"b', ['a"b'])).toBe('value "[secret]" and [secret]');
  });

  it("rethrows an error whose message echoes a secret without it, keeping what the provider decides on", async () => {
    const echoed = new GraphQLRequestError([{ message: 'env HF_TOKEN="tok-123" refused', code: "FAILED_PRECONDITION" }] as never, 200, {
      operation: "saveTemplate",
    });
    const err = (await withoutSecrets(["tok-123"], () => Promise.reject(echoed)).catch((e: Error) => e)) as Error & { codes?: string[] };
    expect(`${err.message} ${err.stack} ${JSON.stringify(err)}`).not.toContain("tok-123");
    expect(err.message).toContain("[secret]");
    expect(err.codes).toEqual(["FAILED_PRECONDITION"]);
  });
});
