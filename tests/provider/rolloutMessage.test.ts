/**
 * The failure message of a rollout (rollout/rollout.ts `rolloutFailure`): each kind of failure says
 * what failed, the log lines of one failed worker are quoted, every secret (env value) anywhere in it is
 * redacted, and it ends with what to do; and a load-balancing endpoint's smoke request needs v2 (check).
 */
import { checkEndpointInputs } from "../../src/provider/endpoint/check";
import { rolloutFailure, type RolloutFailure } from "../../src/provider/rollout/rollout";

const SECRET = "hf_message-secret-2236067977";
const base: Omit<RolloutFailure, "kind"> = { release: { id: "rel_1", version: 4 }, failedWorkers: ["w1", "w2"], onLatest: 1, total: 3 };
const message = (failure: RolloutFailure, logLines?: string[]) =>
  rolloutFailure({ endpoint: "llm (ep1)", id: "ep1", failure, timeoutS: 30, logLines, outcome: "Rolled back: …" }, [SECRET]);

describe("rolloutFailure", () => {
  it("failed starts: endpoint, release, how many workers failed, one worker's last log lines with secrets redacted, what to do", () => {
    const m = message({ kind: "unhealthy", ...base }, ["system: exited 1", `container: token=${SECRET} rejected`]);
    expect(m).toBe(
      "Endpoint llm (ep1): the rollout of release rel_1 (version 4) failed: 2 workers failed to start (UNHEALTHY).\n" +
        "Last log lines of worker w1:\n  system: exited 1\n  container: token=[secret] rejected\n" +
        "Rolled back: …\n" +
        "What to do: fix the image or settings (or the template) and run `pulumi up` again; `pulumi-runpod logs ep1` and `pulumi-runpod workers ep1` show the workers; " +
        "raise rolloutTimeout or rolloutFailedStarts if the release only needs longer; set rollback: false to leave a failed release in place for debugging.",
    );
  });

  it("failed starts while the smoke job waited: the job is named as still queued, and whether it was cancelled", () => {
    expect(message({ kind: "unhealthy", ...base, failedWorkers: ["w1"], smoke: { jobId: "job1", status: "IN_QUEUE" } })).toMatch(
      /failed: 1 worker failed to start \(UNHEALTHY\); its smoke job job1 was still IN_QUEUE \(no worker of the release could take it\)\.\n/,
    );
    expect(message({ kind: "unhealthy", ...base, failedWorkers: ["w1"], smoke: { jobId: "job1", status: "IN_QUEUE", cancelled: true } })).toMatch(
      /its smoke job job1 was still IN_QUEUE \(no worker of the release could take it\); it is cancelled\.\n/,
    );
    expect(message({ kind: "unhealthy", ...base, smoke: { jobId: "job1", status: "IN_PROGRESS", cancelled: "HTTP 500" } })).toContain(
      "; its smoke job job1 was still IN_PROGRESS; cancelling it failed: HTTP 500.",
    );
  });

  it("a timeout gives the figures; a smoke job says how it ended, or why it was not sent; a secret in a job's error is redacted", () => {
    expect(message({ kind: "timeout", ...base, failedWorkers: [] })).toMatch(
      /^Endpoint llm \(ep1\): the rollout of release rel_1 \(version 4\) failed: it was not done within rolloutTimeout \(30 s\): 1 of 3 workers on it\.\nRolled back/,
    );
    const smoke = message({ kind: "smoke", ...base, failedWorkers: [], smoke: { jobId: "job1", status: "FAILED", error: `bad token ${SECRET}` } });
    expect(smoke).toContain("failed: its smoke job job1 ended FAILED (bad token [secret]), not the expected smokeStatus.");
    expect(smoke).not.toContain(SECRET);
    expect(message({ kind: "smoke", ...base, failedWorkers: [], smoke: { jobId: "", status: "not sent", error: "404" } })).toContain(
      "failed: its smoke job could not be sent (404).",
    );
  });
});

describe("smokeInput at check", () => {
  const lb = { name: "x", templateId: "tpl_vllm", gpuIds: ["ADA_24"], type: "LB", scalerType: "REQUEST_COUNT", smokeInput: "{}" };
  it("is refused on a load-balancing endpoint on graphql, naming the field and the path it needs", () => {
    expect(checkEndpointInputs(lb, "graphql").failures).toEqual([
      {
        property: "smokeInput",
        reason:
          'smokeInput on a load-balancing endpoint (type "LB") needs runpod:api v2, where its requestUrls take the smoke request; on graphql it takes no jobs: unset it',
      },
    ]);
  });
  it("is taken on v2, where the endpoint's requestUrls (base, health) take the smoke request", () => {
    expect(checkEndpointInputs(lb, "v2").failures).toEqual([]);
  });
});
