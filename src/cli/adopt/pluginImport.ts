/**
 * The provider plugin's path (YAML): `pulumi import --file`, the engine reading each object through
 * `pulumi-resource-runpod` under the name the written program gives it; then the state gains what the
 * platform does not report (plan.ts `carried`: an endpoint's template on REST v2, the credentials'
 * placeholders), as the dynamic path seeds it, so the first refresh gives back what the program declares.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tokenOf } from "../../plugin/tokens";
import { resourcesOf } from "../stack/checkpoint";
import type { PulumiRunner } from "../stack/pulumiCommand";
import { exportCheckpoint, importCheckpoint, withStaleLockReleased } from "../stack/stackState";
import { MODEL_OF, type AdoptedObject } from "./plan";
import { sealSecrets, secretOf } from "./seedState";

export async function importThroughPlugin(pulumi: PulumiRunner, objects: readonly AdoptedObject[], notice: (line: string) => void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "pulumi-runpod-adopt-"));
  try {
    const file = join(dir, "import.json");
    writeFileSync(file, JSON.stringify({ resources: objects.map((o) => ({ type: tokenOf(MODEL_OF[o.kind]), name: o.resourceName, id: o.id })) }));
    await withStaleLockReleased(pulumi, notice, () => pulumi(["import", "--file", file, "--yes", "--protect=false", "--generate-code=false"]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const checkpoint = await exportCheckpoint(pulumi);
  const sealed = sealSecrets(checkpoint, objects, (o) => tokenOf(MODEL_OF[o.kind]));
  const carrying = objects.filter((o) => Object.keys(o.carried).length > 0);
  if (carrying.length === 0 && !sealed) return;
  for (const o of carrying) {
    const r = resourcesOf(checkpoint).find((x) => x.id === o.id && x.type === tokenOf(MODEL_OF[o.kind]) && !x.delete);
    if (!r) throw new Error(`\`pulumi import\` did not record ${o.resourceName} (${o.id})`);
    const carried = Object.fromEntries(Object.entries(o.carried).map(([k, v]) => [k, o.carriedSecrets.includes(k) ? secretOf(v) : v]));
    r.inputs = { ...r.inputs, ...carried };
    r.outputs = { ...r.outputs, ...carried };
  }
  await withStaleLockReleased(pulumi, notice, () => importCheckpoint(pulumi, checkpoint));
}
