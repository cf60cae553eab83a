/**
 * REST v1 `POST {rest_url}/v1/endpoints` (spec: Endpoints, Resources › REST v1 creation body). Each GPU type
 * name in `gpuTypeIds` is mapped to its tier (order kept, duplicates dropped) to form `gpuIds`; the answer is
 * 200 with the same record GraphQL returns (response body not shown by the spec).
 */
import { z } from "zod";
import type { Route } from "../core";
import { ProblemError, issueList } from "../problem";
import { json } from "../reply";

const bodySchema = z.object({
  name: z.string().trim().min(1),
  templateId: z.string().min(1),
  gpuTypeIds: z.array(z.string().min(1)).min(1),
  workersMin: z.number().int().min(0).optional(),
  workersMax: z.number().int().min(0).optional(),
  idleTimeout: z.number().int().min(0).optional(),
  // Beyond the spec's body: the fields the published REST v1 document adds (docs/spec/platform-clients.md).
  gpuCount: z.number().int().optional(),
  allowedCudaVersions: z.array(z.string()).optional(),
  executionTimeoutMs: z.number().int().optional(),
  flashboot: z.boolean().optional(),
});

export const restCreateEndpointRoute: Route = {
  method: "POST",
  path: "/rest/v1/endpoints",
  style: "rest",
  auth: "bearer",
  classify: { operations: ["restCreateEndpoint"], scope: "write" },
  handle({ body, principal, core }) {
    const parsed = bodySchema.safeParse(body);
    if (!parsed.success) throw new ProblemError(400, "The request body is invalid.", issueList(parsed.error));
    const input = parsed.data;
    const types = core.platform.gpuTypes();
    const unknown = input.gpuTypeIds.filter((id) => !types.some((t) => t.id === id));
    if (unknown.length > 0) {
      throw new ProblemError(
        400,
        "The request body is invalid.",
        unknown.map((id) => `gpuTypeIds: unknown GPU type "${id}"; allowed values are ${types.map((t) => t.id).join(", ")}`),
      );
    }
    const tiers = [...new Set(input.gpuTypeIds.map((id) => types.find((t) => t.id === id)!.tier))];
    const record = core.platform.saveEndpoint(principal.user.id, {
      name: input.name,
      templateId: input.templateId,
      gpuIds: tiers.join(","),
      workersMin: input.workersMin,
      workersMax: input.workersMax,
      idleTimeout: input.idleTimeout,
      gpuCount: input.gpuCount,
      allowedCudaVersions: input.allowedCudaVersions?.join(","),
      executionTimeoutMs: input.executionTimeoutMs,
      fastBootType: input.flashboot === undefined ? undefined : input.flashboot ? "FASTBOOT" : null,
    });
    return json(record);
  },
};
