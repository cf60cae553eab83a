/**
 * A template save followed to health on the endpoints that follow the template (GraphQL: the platform
 * rolls each of them onto the new version; the endpoint listing names their `templateId`). When one
 * endpoint's rollout fails (rollout/rollout.ts), the template's previous container settings are saved
 * back — every endpoint using it rolls back — and waited for, unless `rollback` is false; then the update
 * fails naming each failed endpoint. On REST v2 no endpoint follows a template (they hold copies): the
 * listing names none, and each endpoint's re-apply is followed by its own update.
 */
import { messageOf } from "../errorKinds";
import { settingsFrom } from "../model/state";
import type { EndpointState, TemplateState } from "../paths/records";
import type { Port } from "../port";
import { redactSecrets, withoutSecrets } from "../secrets";
import type { KindSession } from "../kindSession";
import { followRollout, lastLogLines, rolloutFailure, rolloutPolicy, type RolloutFailure } from "../rollout/rollout";
import { CONTAINER_FIELDS } from "./container";
import { TEMPLATE_MODEL, type TemplateInputs, type TemplateOutputs } from "./model";

type RolloutSettings = Parameters<typeof rolloutPolicy>[0] & { rollback: boolean };

/**
 * Follows the rollout of template `id`'s new container settings on each endpoint using it.
 * @param olds the stored outputs before the update (the previous settings a rollback saves back).
 * @throws Error naming the template, each failed endpoint, its release, failed workers and last log lines (env values redacted), and what was done.
 */
export async function followTemplateRollout(
  on: { session: KindSession; port: Port<TemplateInputs, TemplateState>; secrets: string[] },
  update: { id: string; olds: Partial<TemplateOutputs>; inputs: TemplateInputs; outs: TemplateOutputs },
): Promise<void> {
  const { session, port, secrets } = on;
  const { id, olds, inputs } = update;
  const users = (await session.listing<EndpointState>("endpoint").list()).filter((e) => e.templateId === id);
  if (users.length === 0) return;
  const settings: RolloutSettings = settingsFrom(TEMPLATE_MODEL, inputs);
  const client = session.client;
  await withoutSecrets(secrets, async () => {
    const outcomes = await Promise.all(users.map(async (e) => ({ e, failure: await followRollout(client, e.id, rolloutPolicy(settings)) })));
    const failed = outcomes.filter((o): o is { e: (typeof users)[number]; failure: RolloutFailure } => o.failure !== undefined);
    if (failed.length === 0) return;
    const logs = await Promise.all(failed.map((f) => (f.failure.failedWorkers[0] ? lastLogLines(client, f.e.id, f.failure.failedWorkers[0]) : undefined)));
    const names = users.map((e) => `${e.name} (${e.id})`).join(", ");
    let outcome = `Not rolled back (rollback: false): the template's failed settings stay in place on ${names}. The stack keeps the previous inputs.`;
    if (settings.rollback) {
      const previous = { ...inputs, ...Object.fromEntries(CONTAINER_FIELDS.map((f) => [f, olds[f]])) } as TemplateInputs;
      session.listing<TemplateState>("template").changed(id);
      try {
        await port.update(id, previous, update.outs);
      } catch (err) {
        const m = `Template ${inputs.name} (${id}): a rollout of its new settings failed, and saving its previous settings back failed too: ${messageOf(err)}`;
        throw new Error(
          redactSecrets(
            `${m}\n${failed.map((f, i) => rolloutFailure({ endpoint: `${f.e.name} (${f.e.id})`, id: f.e.id, failure: f.failure, timeoutS: settings.rolloutTimeout, logLines: logs[i], outcome: "Not rolled back." }, secrets)).join("\n")}`,
            secrets,
          ),
        );
      }
      const back = await Promise.all(
        users.map((e) => followRollout(client, e.id, { timeoutMs: settings.rolloutTimeout * 1000, failedStarts: Number.POSITIVE_INFINITY })),
      );
      const late = users.filter((_, i) => back[i] !== undefined);
      outcome =
        late.length > 0
          ? `The template's previous settings were saved back (image ${String(olds.imageName)}), but ${late.map((e) => e.id).join(", ")} did not run them on every worker within ${settings.rolloutTimeout} s.`
          : `Rolled back: the template's previous settings were saved back (image ${String(olds.imageName)}) and every worker of ${names} runs them again. The stack keeps the previous inputs, so the next preview shows the change again.`;
    }
    const each = failed.map((f, i) =>
      rolloutFailure(
        { endpoint: `${f.e.name} (${f.e.id})`, id: f.e.id, failure: f.failure, timeoutS: settings.rolloutTimeout, logLines: logs[i], outcome },
        secrets,
      ),
    );
    throw new Error(redactSecrets(`Template ${inputs.name} (${id}): a rollout of its new settings failed.\n${each.join("\n")}`, secrets));
  });
}
