/**
 * A network volume of the stack that the program stops declaring while endpoints or pods it still
 * declares keep mounting it (by a literal id or a lookup, so no dependency): the deployment would delete
 * it, and the platform refuses to delete a mounted volume however long one waits. The engine never asks
 * the provider about a planned delete at preview, so the mounting resources refuse it at their own
 * check: each records in its checked inputs which of its mounted volumes were volumes the program
 * declared (reserved.ts {@link STACK_MOUNTS_PROPERTY}, carried on while the mount stays; from the program's hand-over, catalog/stackMembers.ts
 * `STACK_VOLUMES_PROPERTY`), and fails while one of them is no longer declared. Without a hand-over
 * (the plugin path, whose programs hand none) nothing is recorded or refused here; `pulumi up` still
 * refuses that delete at once (kindSession.ts `keepsMounting`).
 */
import type { InputFailure } from "./model/check";
import type { KindSession } from "./kindSession";
import { STACK_VOLUMES_PROPERTY, stackVolumes, type StackVolumes } from "./catalog/stackMembers";
import { containsUnknown } from "./unknown";
import { STACK_MOUNTS_PROPERTY } from "./reserved";

type Props = Record<string, unknown>;

/** `news` without the program's hand-over, and the handed-over volumes (undefined: none handed over). */
export function takeStackVolumes(news: Props): { news: Props; declared: StackVolumes | undefined } {
  const { [STACK_VOLUMES_PROPERTY]: handed, ...rest } = news;
  return { news: rest, declared: stackVolumes(handed) };
}

const recordOf = (props: Props | undefined): Record<string, string> => {
  const r = props?.[STACK_MOUNTS_PROPERTY];
  if (typeof r !== "object" || r === null || Array.isArray(r)) return {};
  return Object.fromEntries(Object.entries(r).filter((e): e is [string, string] => typeof e[1] === "string"));
};

/**
 * Records in `inputs` the mounted volumes (`fields` of `inputs`) that are or were declared volumes of the
 * stack, and adds a failure for each one the program no longer declares, naming it and the resources
 * of this deployment that mount it (`user`, e.g. "endpoint llm", those the program says mount the same
 * literal id, and those checked before).
 * A volume declared after `user` (its id not awaited) might be it under another name (an alias): no refusal then.
 */
export async function reviewStackMounts(
  session: KindSession,
  olds: Props | undefined,
  inputs: Props,
  failures: InputFailure[],
  handed: StackVolumes | undefined,
  user: string,
  fields: readonly string[],
): Promise<void> {
  const previous = recordOf(olds);
  const declared = handed?.volumes;
  const record: Record<string, string> = {};
  for (const property of fields) {
    const ids = [inputs[property]].flat().filter((id): id is string => typeof id === "string" && id !== "" && !containsUnknown(id));
    for (const id of ids) {
      const match = declared?.find((v) => v.id === id);
      if (match) {
        if (!match.retained) record[id] = match.key;
        continue;
      }
      const was = previous[id];
      if (was === undefined) continue;
      record[id] = was;
      if (!declared || declared.some((v) => v.key === was || v.id === undefined)) continue;
      const users = [user, ...(handed?.mountedBy[id] ?? []), ...session.keptUsers("networkVolume", id)];
      failures.push({ property, reason: await goneReason(session, id, was, users) });
    }
  }
  if (Object.keys(record).length > 0) inputs[STACK_MOUNTS_PROPERTY] = record;
}

async function goneReason(session: KindSession, id: string, key: string, mounting: string[]): Promise<string> {
  const named = await session.networkVolumes().then(
    (volumes) => volumes.find((v) => v.id === id)?.name,
    () => undefined,
  );
  const users = [...new Set(mounting)].sort();
  const them = users.length === 1 ? "it" : "them";
  return (
    `NetworkVolume ${key} (network volume ${named === undefined ? "" : `"${named}" `}${id}) is no longer declared, so this deployment would delete it, ` +
    `but ${users.join(", ")} of this stack still mount${users.length === 1 ? "s" : ""} it, and the platform refuses to delete a mounted volume. ` +
    `Keep ${key} declared, or remove the mount from ${them} first and delete the volume in a later deployment`
  );
}
