/**
 * `cost`: the stack's endpoints (of the dynamic provider or the provider plugin: TypeScript, Python, YAML) with their two estimates (`maxHourlyCost`, `idleHourlyCost`; docs/cost.md)
 * and the totals: the stack's state with what `pulumi preview --json` would change (new, changed and
 * removed endpoints) — the program as `pulumi up` would deploy it, so a pipeline can gate on
 * `--max-hourly` before the deploy — or, when the preview fails (e.g. a budget
 * refusal) or with `--no-preview`, from the stack's state. `--since` adds what each endpoint actually
 * cost per bucket (REST v2 `listServerlessBilling`), with a sparkline in a terminal and the records
 * with `--json` / `--csv`. Endpoints billed while idle (minimum or standby workers above 0) are flagged.
 * The stack's network volumes follow with their monthly storage cost and, with `--since`, the storage
 * billed (`listNetworkVolumeBilling`; cost/volumes.ts); then its pods with their hourly cost (in both totals: a
 * running pod costs the same busy or idle) and, with `--since`, what they were billed (`listPodBilling`; cost/pods.ts).
 */
import type { CommandContext } from "../context";
import { UsageError } from "../errors";
import { EXIT, type ExitCode } from "../io";
import { podCosts, type PodEstimate } from "../cost/pods";
import { previewFailureReason } from "../cost/previewFailure";
import { bucketStarts, buildReport, renderCsv, renderJson, renderText, withPods, withVolumes, type BucketSize, type EndpointEstimate } from "../cost/report";
import { volumeCosts, type VolumeEstimate } from "../cost/volumes";
import { resourceNameOf, resourcesOf, type StateResource } from "../stack/checkpoint";
import { isEndpointType, isNetworkVolumeType, isPodType } from "../stack/registry";
import { stackSession, type StackOptions } from "../stack/session";
import { exportCheckpoint } from "../stack/stackState";

export interface CostOptions extends StackOptions {
  json?: boolean;
  csv?: boolean;
  /** USD per hour: exit 1 when the total `maxHourlyCost` exceeds it. */
  maxHourly?: number;
  /** RFC 3339 start of the spend window (parsed from a duration such as `7d`). */
  since?: string;
  bucket?: BucketSize;
  /** False with `--no-preview`: estimates from the state only. */
  preview?: boolean;
}

interface PreviewStep {
  op: string;
  urn: string;
  type?: string;
  newState?: { type?: string; inputs?: Record<string, unknown> };
  oldState?: { type?: string };
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

function estimateOf(urn: string, props: Record<string, unknown> | undefined, state: StateResource | undefined): EndpointEstimate {
  const p = props ?? {};
  return {
    resource: resourceNameOf(urn),
    endpointId: state?.id,
    name: typeof p.name === "string" ? p.name : undefined,
    maxHourlyCost: num(p.maxHourlyCost),
    idleHourlyCost: num(p.idleHourlyCost),
    workersMin: num(p.workersMin) ?? 0,
    workersStandby: num(state?.outputs?.workersStandby) ?? 0,
  };
}

function volumeOf(urn: string, props: Record<string, unknown> | undefined, state: StateResource | undefined): VolumeEstimate {
  const p = props ?? {};
  return {
    resource: resourceNameOf(urn),
    networkVolumeId: state?.id,
    name: typeof p.name === "string" ? p.name : undefined,
    size: num(p.size),
    type: typeof p.type === "string" ? p.type : typeof state?.outputs?.type === "string" ? state.outputs.type : null,
    monthlyCost: num(p.monthlyCost),
  };
}

function podOf(urn: string, props: Record<string, unknown> | undefined, state: StateResource | undefined): PodEstimate {
  const p = props ?? {};
  return {
    resource: resourceNameOf(urn),
    podId: state?.id,
    name: typeof p.name === "string" ? p.name : undefined,
    desiredStatus: typeof p.desiredStatus === "string" ? p.desiredStatus : "RUNNING",
    costPerHour: num(p.costPerHour),
  };
}

/**
 * @returns EXIT.OK, or EXIT.FAILED when `--max-hourly` is exceeded (the report is printed either way).
 * @throws UsageError for `--json` with `--csv`; PulumiCommandError, api errors.
 */
export async function costCommand(ctx: CommandContext, opts: CostOptions): Promise<ExitCode> {
  if (opts.json && opts.csv) throw new UsageError("--json and --csv are exclusive: choose one");
  const session = stackSession(ctx, opts);
  const resources = resourcesOf(await exportCheckpoint(session.pulumi)).filter((r) => !r.delete && r.custom !== false);
  const deployed = resources.filter((r) => isEndpointType(r.type));
  const byUrn = new Map(deployed.map((r) => [r.urn, r]));
  const deployedVolumes = resources.filter((r) => isNetworkVolumeType(r.type));
  const volumeByUrn = new Map(deployedVolumes.map((r) => [r.urn, r]));
  let volumes: VolumeEstimate[] = deployedVolumes.map((r) => volumeOf(r.urn, r.outputs, r));
  const deployedPods = resources.filter((r) => isPodType(r.type));
  const podByUrn = new Map(deployedPods.map((r) => [r.urn, r]));
  let pods: PodEstimate[] = deployedPods.map((r) => podOf(r.urn, r.outputs, r));

  let source: "preview" | "state" = "state";
  let estimates: EndpointEstimate[] = deployed.map((r) => estimateOf(r.urn, r.outputs, r));
  if (opts.preview !== false) {
    try {
      const preview = JSON.parse(await session.pulumi(["preview", "--json"])) as { steps?: PreviewStep[] };
      // The preview lists only what changes: an unchanged endpoint keeps its estimate from the state.
      const planned = new Map(estimates.map((e, i) => [deployed[i].urn, e]));
      const plannedVolumes = new Map(volumes.map((v, i) => [deployedVolumes[i].urn, v]));
      const plannedPods = new Map(pods.map((p, i) => [deployedPods[i].urn, p]));
      for (const step of preview.steps ?? []) {
        if (isPodType(step.newState?.type ?? step.oldState?.type)) {
          if (step.op === "delete") plannedPods.delete(step.urn);
          else if (step.newState?.inputs && !/delete|discard|read/.test(step.op)) {
            // An unchanged compute keeps the state's cost (check writes none then).
            const state = podByUrn.get(step.urn);
            const inputs = { costPerHour: state?.outputs?.costPerHour, ...step.newState.inputs };
            plannedPods.set(step.urn, podOf(step.urn, inputs, state));
          }
          continue;
        }
        if (isNetworkVolumeType(step.newState?.type ?? step.oldState?.type)) {
          if (step.op === "delete") plannedVolumes.delete(step.urn);
          else if (step.newState?.inputs && !/delete|discard|read/.test(step.op))
            plannedVolumes.set(step.urn, volumeOf(step.urn, step.newState.inputs, volumeByUrn.get(step.urn)));
          continue;
        }
        if (!isEndpointType(step.newState?.type ?? step.oldState?.type)) continue;
        if (step.op === "delete") planned.delete(step.urn);
        else if (step.newState?.inputs && !/delete|discard|read/.test(step.op))
          planned.set(step.urn, estimateOf(step.urn, step.newState.inputs, byUrn.get(step.urn)));
      }
      estimates = [...planned.values()];
      volumes = [...plannedVolumes.values()];
      pods = [...plannedPods.values()];
      source = "preview";
    } catch (err) {
      ctx.io.stderr.write(
        ctx.err.yellow(`warning: \`pulumi preview\` failed, so the estimates are the stack's state as deployed: ${previewFailureReason(err)}`) + "\n",
      );
    }
  }

  let spend: Parameters<typeof buildReport>[2];
  let volumeSpend: Parameters<typeof volumeCosts>[1];
  let podSpend: Parameters<typeof podCosts>[1];
  if (opts.since !== undefined) {
    const bucketSize = opts.bucket ?? "day";
    const { client } = await session.connect();
    // No endTime: the platform's "now" ends the window (its default), so the current bucket is in.
    const answer = await client.v2.listServerlessBilling({ startTime: opts.since, bucketSize });
    const { startTime, endTime } = answer.metadata.query;
    spend = { window: { startTime, endTime, bucketSize, buckets: bucketStarts(startTime, endTime, bucketSize) }, records: answer.records };
    if (volumes.length > 0)
      volumeSpend = { window: spend.window, records: (await client.v2.listNetworkVolumeBilling({ startTime, endTime, bucketSize })).records };
    if (pods.length > 0) podSpend = { window: spend.window, records: (await client.v2.listPodBilling({ startTime, endTime, bucketSize })).records };
  }

  const report = withPods(withVolumes(buildReport(source, estimates, spend, opts.maxHourly), volumeCosts(volumes, volumeSpend)), podCosts(pods, podSpend));
  ctx.io.stdout.write(opts.json ? renderJson(report) : opts.csv ? renderCsv(report) : renderText(report, ctx.out));
  if (report.budget?.over) {
    if (opts.json || opts.csv)
      ctx.io.stderr.write(`over budget: $${report.totals.maxHourlyCost.toFixed(2)}/h exceeds --max-hourly $${report.budget.maxHourly.toFixed(2)}/h\n`);
    return EXIT.FAILED;
  }
  return EXIT.OK;
}
