/**
 * Value sets the provider's models take from the REST v2 document (docs/spec/rest-v2-openapi.json) are
 * written as literals in src/api/spec.ts, so that a program loading the package loads no zod; here they
 * are held to the generated schemas, so a regenerated document that changes them fails.
 */
import { FLASHBOOT_MODES } from "../../src/api/spec";
import { zFlashBoot } from "../../src/api/generated/zod.gen";

test("FLASHBOOT_MODES are the document's FlashBoot enum, in its order", () => {
  expect([...FLASHBOOT_MODES]).toEqual([...zFlashBoot.options]);
});
