/**
 * The public surface is kept on purpose: etc/api-report.md is the declarations of every entry point
 * (internals stripped). A change to the surface fails here until the report is regenerated
 * (`npm run api-report`) and the change reviewed against SemVer. Needs dist/ (`npm test` builds first).
 */
import * as fs from "fs";
import * as path from "path";
import { API_REPORT_FILE, apiReport } from "../../scripts/apiReport";
import { repoRoot } from "../../scripts/pulumiCli";

test("the built declarations match etc/api-report.md (after a deliberate change: npm run api-report)", () => {
  const kept = fs.readFileSync(path.join(repoRoot(), API_REPORT_FILE), "utf8");
  expect(apiReport()).toBe(kept);
});

test("internals are stripped: the provider module declares the stub contract and output types only", () => {
  const report = apiReport();
  const provider = report.slice(report.indexOf("## pulumi-runpod/provider"), report.indexOf("## pulumi-runpod/api"));
  const names = [...provider.matchAll(/^\/\/ (\w+)/gm)].map((m) => m[1]);
  expect(names).toEqual(expect.arrayContaining(["configure", "resources", "ResourceOperations", "EndpointOutputs"]));
  for (const internal of ["ENDPOINT_MODEL", "diffEndpoint", "renderArgumentTable", "providerStub", "endpoint", "RESOURCE_KINDS"])
    expect(names).not.toContain(internal);
  expect(report).not.toMatch(/export \* from/);
});
