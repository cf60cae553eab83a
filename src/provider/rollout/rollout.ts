/**
 * Following a container rollout to health (docs/endpoint.md › Rollouts and rollback), on the worker and
 * release listings every path shares (`GET /v2/serverless/{id}/workers`, `…/releases`): a rollout is
 * healthy once every worker runs the latest release and, when a smoke job is set, that job ends in the
 * expected status on it; it fails when its new workers fail to start (seen UNHEALTHY, `rolloutFailedStarts`
 * times), the smoke job ends otherwise, or it is not done within `rolloutTimeout`. What a failure does
 * (roll back, or leave the release in place) is the caller's; {@link rolloutFailure} says it to the user.
 */
import type { PlatformClient, V2 } from "../../api";
import { loadBalancerUrls, type JobEndpoint } from "../../api/requestUrls";
import { poll } from "../../api/poll";
import type { JobStatus } from "../../api/types";
import { messageOf } from "../errorKinds";
import { redactSecrets, withoutSecrets } from "../secrets";
import { SMOKE_STATUSES } from "./fields";

/** Pause between two listings while a rollout runs, in milliseconds. */
export const ROLLOUT_POLL_MS = 250;
/** Log lines of a failed worker the failure message quotes. */
export const FAILED_WORKER_LINES = 8;

/** When a rollout counts as healthy or failed (the resource's rollout settings). */
export interface RolloutPolicy {
  /** Limit for the whole rollout, smoke job included, in milliseconds. */
  timeoutMs: number;
  /** Failed starts of new workers that fail the rollout at once. */
  failedStarts: number;
  /** A job sent once every worker runs the release: its input and the status it must end in. */
  smoke?: { input: Record<string, unknown>; status: (typeof SMOKE_STATUSES)[number] };
}

/** How a failed rollout failed. */
export interface RolloutFailure {
  kind: "unhealthy" | "timeout" | "smoke";
  /** The release that failed (newest first in the listing), when the listing named one. */
  release?: { id: string; version?: number | null };
  /** Workers of the release seen failing to start. */
  failedWorkers: string[];
  /** Workers on the release out of all, at the end. */
  onLatest: number;
  total: number;
  /**
   * The smoke job's id and how it ended, for kind "smoke" (or a failure during it); `cancelled` when the
   * failure overtook it and it was cancelled then, or why that cancel failed.
   */
  smoke?: { jobId: string; status: string; error?: string; cancelled?: true | string };
}

type Workers = V2.ListEndpointWorkersResponse;
type Releases = V2.ListEndpointReleasesResponse;

/** The settings of a resource's rollout, from its checked inputs (Endpoint or Template). */
export function rolloutPolicy(settings: {
  rolloutTimeout: number;
  rolloutFailedStarts: number;
  smokeInput?: string | null;
  smokeStatus?: (typeof SMOKE_STATUSES)[number];
}): RolloutPolicy {
  const policy: RolloutPolicy = { timeoutMs: settings.rolloutTimeout * 1000, failedStarts: settings.rolloutFailedStarts };
  if (settings.smokeInput) policy.smoke = { input: JSON.parse(settings.smokeInput) as Record<string, unknown>, status: settings.smokeStatus ?? "COMPLETED" };
  return policy;
}

/**
 * Follows endpoint `endpoint`'s rollout until it is healthy or failed. The smoke job goes to the
 * endpoint's `requestUrls` when given (REST v2), else to `{inferenceUrl}/v2/{id}/`; a failure that
 * overtakes it cancels it, so no worker (of the release, or of the container a rollback puts back) runs it later.
 * @returns undefined when healthy; how it failed otherwise.
 * @throws the listings' own errors (authentication, network, …).
 */
export async function followRollout(
  client: PlatformClient,
  endpoint: JobEndpoint,
  policy: RolloutPolicy,
  intervalMs: number = ROLLOUT_POLL_MS,
): Promise<RolloutFailure | undefined> {
  const id = typeof endpoint === "string" ? endpoint : endpoint.id;
  const deadline = Date.now() + policy.timeoutMs;
  const failed = new Set<string>();
  let starts = 0;
  /** Whether each new worker was UNHEALTHY at its last sighting: a worker seen failing again after a restart counts again. */
  const wasUnhealthy = new Map<string, boolean>();
  const watch = (workers: Workers) => {
    for (const w of workers.workers) {
      if (w.isStale) continue;
      const unhealthy = w.status === "UNHEALTHY";
      if (unhealthy && !wasUnhealthy.get(w.id)) {
        starts += 1;
        failed.add(w.id);
      }
      wasUnhealthy.set(w.id, unhealthy);
    }
  };
  const tooMany = () => starts >= policy.failedStarts;
  const figures = (workers: Workers | undefined, releases: Releases | undefined) => ({
    release: releases?.releases[0] ? { id: releases.releases[0].id, version: releases.releases[0].version } : undefined,
    failedWorkers: [...failed],
    onLatest: releases?.rollout.workersOnLatest ?? workers?.workers.filter((w) => !w.isStale).length ?? 0,
    total: releases?.rollout.workersTotal ?? workers?.workers.length ?? 0,
  });

  const roll = await poll(
    async () => {
      const [workers, releases] = await Promise.all([client.v2.listEndpointWorkers(id), client.v2.listEndpointReleases(id)]);
      watch(workers);
      return { workers, releases };
    },
    ({ releases }) => tooMany() || !releases.rollout.inProgress,
    { timeoutMs: Math.max(1, deadline - Date.now()), intervalMs },
  );
  const last = roll.value;
  if (tooMany()) return { kind: "unhealthy", ...figures(last?.workers, last?.releases) };
  if (!roll.met) return { kind: "timeout", ...figures(last?.workers, last?.releases) };
  if (!policy.smoke) return undefined;

  // A load-balancing endpoint has no job queue: its smoke request is `smokeInput` POSTed to `base` once `health` answers 200.
  const lb = loadBalancerUrls(endpoint);
  if (lb) {
    let seen: Workers | undefined;
    const healthy = await poll(
      async () => {
        const [ok, w] = await Promise.all([client.loadBalancerHealth(lb.health), client.v2.listEndpointWorkers(id)]);
        watch(w);
        seen = w;
        return ok;
      },
      (ok) => tooMany() || ok,
      { timeoutMs: Math.max(1, deadline - Date.now()), intervalMs },
    );
    const at = figures(seen, last?.releases);
    if (tooMany()) return { kind: "unhealthy", ...at };
    if (!healthy.met) return { kind: "timeout", ...at };
    let answer: { status: string; error?: string } = { status: "COMPLETED" };
    try {
      await client.loadBalancerRequest(lb.base, policy.smoke.input);
    } catch (err) {
      answer = { status: "FAILED", error: messageOf(err) };
    }
    return answer.status === policy.smoke.status ? undefined : { kind: "smoke", ...at, smoke: { jobId: `request to ${lb.base}`, ...answer } };
  }

  // The smoke job: the same call `pulumi-runpod run` makes; every worker runs the release by now.
  let job: { id: string; status: JobStatus; error?: unknown };
  try {
    job = await client.run(endpoint, policy.smoke.input);
  } catch (err) {
    // Unsent, or sent with an unknown outcome: the release is not shown healthy.
    return { kind: "smoke", ...figures(last?.workers, last?.releases), smoke: { jobId: "", status: "not sent", error: messageOf(err) } };
  }
  let status: { id: string; status: JobStatus; error?: unknown } = job;
  let workers: Workers | undefined;
  const smoke = await poll(
    async () => {
      const [s, w] = await Promise.all([client.jobStatus(endpoint, job.id), client.v2.listEndpointWorkers(id)]);
      watch(w);
      status = s;
      workers = w;
      return s;
    },
    (s) => tooMany() || (SMOKE_STATUSES as readonly string[]).includes(s.status),
    { timeoutMs: Math.max(1, deadline - Date.now()), intervalMs },
  );
  const ended: NonNullable<RolloutFailure["smoke"]> = {
    jobId: job.id,
    status: status.status,
    ...(status.error === undefined ? {} : { error: String(status.error) }),
  };
  const base = figures(workers, last?.releases);
  if (tooMany() || !smoke.met) {
    if (!(SMOKE_STATUSES as readonly string[]).includes(ended.status)) ended.cancelled = await cancelSmoke(client, endpoint, job.id);
    return { kind: tooMany() ? "unhealthy" : "timeout", ...base, smoke: ended };
  }
  return status.status === policy.smoke.status ? undefined : { kind: "smoke", ...base, smoke: ended };
}

/** Cancels a smoke job the failure overtook: true when done, else why not (the message names it). */
async function cancelSmoke(client: PlatformClient, endpoint: JobEndpoint, jobId: string): Promise<true | string> {
  try {
    await client.cancelJob(endpoint, jobId);
    return true;
  } catch (err) {
    return messageOf(err);
  }
}

/** How a path puts an endpoint's previous container back after a failed rollout. */
export interface Rollback {
  /** What is put back, for the message: "the previous container settings" + `detail` "(image acme/llm:1)". */
  what: string;
  detail: string;
  put(): Promise<void>;
}

/**
 * Follows endpoint `id`'s rollout (the resource's rollout settings); when it fails: with `rollback` (the
 * default) puts the previous container back and waits until the workers run it again, then throws the
 * failure message (`secrets` redacted), so the update fails and the engine keeps the previous state.
 */
export async function guardRollout(
  client: PlatformClient,
  endpoint: { id: string; label: string; requestUrls?: Readonly<Record<string, string>> | null },
  settings: Parameters<typeof rolloutPolicy>[0] & { rollback: boolean },
  secrets: string[],
  rollback: Rollback,
): Promise<void> {
  const { id } = endpoint;
  await withoutSecrets(secrets, async () => {
    const failure = await followRollout(client, { id, requestUrls: endpoint.requestUrls }, rolloutPolicy(settings));
    if (!failure) return;
    const worker = failure.failedWorkers[0];
    const logLines = worker ? await lastLogLines(client, id, worker) : undefined;
    let outcome = "Not rolled back (rollback: false): the failed release stays in place. The stack keeps the previous inputs.";
    if (settings.rollback) {
      try {
        await rollback.put();
        // The way back is followed to its end too; only its own deadline can fail it.
        const back = await followRollout(client, id, { timeoutMs: settings.rolloutTimeout * 1000, failedStarts: Number.POSITIVE_INFINITY });
        outcome = back
          ? `Rolling back to ${rollback.what} ${rollback.detail} was sent, but only ${back.onLatest} of ${back.total} workers ran them after ${settings.rolloutTimeout} s; the next \`pulumi up\` re-applies what the stack holds.`
          : `Rolled back: every worker runs ${rollback.what} again ${rollback.detail}. The stack keeps the previous inputs, so the next preview shows the change again.`;
      } catch (err) {
        // The failure itself still has to reach the user, with the rollback's own error.
        outcome = `Rolling back to ${rollback.what} ${rollback.detail} failed: ${messageOf(err)}. The failed release may still be in place.`;
      }
    }
    throw new Error(rolloutFailure({ endpoint: endpoint.label, id, failure, timeoutS: settings.rolloutTimeout, logLines, outcome }, secrets));
  });
}

/** The last {@link FAILED_WORKER_LINES} log lines of worker `workerId` (a snapshot of its stream), or a note why there are none. */
export async function lastLogLines(client: PlatformClient, id: string, workerId: string): Promise<string[]> {
  const lines: string[] = [];
  try {
    for await (const e of client.streamWorkerLogs(id, workerId, { tail: 50, follow: false, idleMs: 500 })) lines.push(`${e.ts} ${e.source}: ${e.line}`);
  } catch (err) {
    return [`(its logs could not be read: ${messageOf(err)})`];
  }
  return lines.length > 0 ? lines.slice(-FAILED_WORKER_LINES) : ["(no log lines)"];
}

/**
 * The failure message: what failed (endpoint, release, failed workers, the last log lines of one), what
 * was done about it, and what to do. `secrets` (env values) are redacted from all of it.
 */
export function rolloutFailure(
  what: { endpoint: string; id: string; failure: RolloutFailure; timeoutS: number; logLines?: string[]; outcome: string },
  secrets: readonly string[],
): string {
  const { failure: f } = what;
  const release = f.release ? `release ${f.release.id}${f.release.version != null ? ` (version ${f.release.version})` : ""}` : "its new release";
  const failedCount = f.failedWorkers.length;
  const workersFailed = `${failedCount} worker${failedCount === 1 ? "" : "s"} failed to start (UNHEALTHY)`;
  // A smoke job the failure overtook: queued means no worker of the release could take it.
  const cancelled = f.smoke?.cancelled === true ? "; it is cancelled" : f.smoke?.cancelled ? `; cancelling it failed: ${f.smoke.cancelled}` : "";
  const smokeLeft =
    f.smoke?.jobId && !(SMOKE_STATUSES as readonly string[]).includes(f.smoke.status)
      ? `; its smoke job ${f.smoke.jobId} was still ${f.smoke.status}${f.smoke.status === "IN_QUEUE" ? " (no worker of the release could take it)" : ""}${cancelled}`
      : "";
  const why =
    f.kind === "unhealthy"
      ? workersFailed + smokeLeft
      : f.kind === "smoke"
        ? (f.smoke!.jobId
            ? `its smoke job ${f.smoke!.jobId} ended ${f.smoke!.status}${f.smoke!.error ? ` (${f.smoke!.error})` : ""}, not the expected smokeStatus`
            : `its smoke job could not be sent (${f.smoke!.error})`) + (failedCount > 0 ? `; ${workersFailed}` : "")
        : `it was not done within rolloutTimeout (${what.timeoutS} s): ${f.onLatest} of ${f.total} workers on it` +
          (f.smoke ? `, smoke job ${f.smoke.jobId} still ${f.smoke.status}${cancelled}` : "") +
          (failedCount > 0 ? `; ${workersFailed}` : "");
  const logs =
    what.logLines && f.failedWorkers.length > 0 ? `\nLast log lines of worker ${f.failedWorkers[0]}:\n${what.logLines.map((l) => `  ${l}`).join("\n")}` : "";
  const text =
    `Endpoint ${what.endpoint}: the rollout of ${release} failed: ${why}.${logs}\n${what.outcome}\n` +
    `What to do: fix the image or settings (or the template) and run \`pulumi up\` again; \`pulumi-runpod logs ${what.id}\` and \`pulumi-runpod workers ${what.id}\` show the workers; ` +
    "raise rolloutTimeout or rolloutFailedStarts if the release only needs longer; set rollback: false to leave a failed release in place for debugging.";
  return redactSecrets(text, secrets);
}
