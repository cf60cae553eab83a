/**
 * Value sets the provider's models take from the REST v2 document (docs/spec/rest-v2-openapi.json) are
 * written as literals in src/api/spec.ts, so that a program loading the package loads no zod; here they
 * are held to the generated schemas, so a regenerated document that changes them fails.
 */
import * as fs from "fs";
import * as path from "path";
import { CUDA_VERSION_PATTERN, FLASHBOOT_MODES, TEMPLATE_CATEGORIES } from "../../src/api/spec";
import { zFlashBoot, zTemplateCategory } from "../../src/api/generated/zod.gen";

test("FLASHBOOT_MODES are the document's FlashBoot enum, in its order", () => {
  expect([...FLASHBOOT_MODES]).toEqual([...zFlashBoot.options]);
});

test("CUDA_VERSION_PATTERN is the document's pattern of gpu.minCudaVersion on endpoint create", () => {
  const doc = JSON.parse(fs.readFileSync(path.join(__dirname, "..", "..", "docs", "spec", "rest-v2-openapi.json"), "utf8"));
  const gpu = doc.components.schemas.CreateEndpointGpuConfig.allOf[1].properties;
  expect(CUDA_VERSION_PATTERN.source).toBe(gpu.minCudaVersion.pattern);
  expect(CUDA_VERSION_PATTERN.source).toBe(gpu.allowedCudaVersions.items.pattern);
});

test("TEMPLATE_CATEGORIES are the document's TemplateCategory enum, in its order", () => {
  expect([...TEMPLATE_CATEGORIES]).toEqual([...zTemplateCategory.options]);
});
