/**
 * Container settings as REST v2 shows them on endpoints and templates (`ContainerConfig`: image, args, disk,
 * ports[], env{}, registry) and their mapping onto the stored template record (imageName, dockerArgs,
 * containerDiskInGb, ports "a,b", env [{key,value}], containerRegistryAuthId).
 */
import type { Core } from "../core";
import type { TemplateRow } from "../store";
import { refused } from "./problems";

export interface Container {
  image: string;
  args: string;
  disk: number;
  ports: string[];
  env: Record<string, string>;
  registry: string | null;
}

/** The container-affecting fields in the order a release diff lists them. */
export const CONTAINER_FIELDS = ["image", "args", "disk", "ports", "env", "registry"] as const;

export function containerOf(t: TemplateRow): Container {
  return {
    image: t.imageName,
    args: t.dockerArgs,
    disk: t.containerDiskInGb,
    ports: t.ports === "" ? [] : t.ports.split(",").map((p) => p.trim()),
    env: Object.fromEntries(t.env.map((e) => [e.key, e.value])),
    registry: t.containerRegistryAuthId === "" ? null : t.containerRegistryAuthId,
  };
}

/** The stored template fields a container sets. */
export function templateFields(
  c: Container,
): Pick<TemplateRow, "imageName" | "dockerArgs" | "containerDiskInGb" | "ports" | "env" | "containerRegistryAuthId"> {
  return {
    imageName: c.image,
    dockerArgs: c.args,
    containerDiskInGb: c.disk,
    ports: c.ports.join(","),
    env: Object.entries(c.env).map(([key, value]) => ({ key, value })),
    containerRegistryAuthId: c.registry,
  };
}

const sortedEnv = (env: Record<string, string>) => JSON.stringify(Object.entries(env).sort(([a], [b]) => a.localeCompare(b)));

/** What differs between two containers; env values never enter a diff (secrets): only its keys. */
export function containerDiff(a: Container, b: Container): { field: string; old: unknown; new: unknown }[] {
  const out: { field: string; old: unknown; new: unknown }[] = [];
  for (const f of CONTAINER_FIELDS) {
    const same = f === "env" ? sortedEnv(a.env) === sortedEnv(b.env) : JSON.stringify(a[f]) === JSON.stringify(b[f]);
    if (same) continue;
    out.push(f === "env" ? { field: "env", old: Object.keys(a.env).sort(), new: Object.keys(b.env).sort() } : { field: f, old: a[f], new: b[f] });
  }
  return out;
}

/**
 * The document's rules on container settings beyond the schema: `ports` "formatted as port/protocol" (a port number
 * 1–65535 and a protocol name; the document names no protocol set and allows repeats), and `registry` one of the
 * caller's credentials. `image`, `args` and `env` keys are free strings there (GraphQL's rules are its own).
 */
export function checkContainer(core: Core, userId: string, c: Partial<Pick<Container, "ports" | "registry">>): void {
  for (const p of c.ports ?? []) {
    const m = /^(\d+)\/([A-Za-z]+)$/.exec(p);
    if (!m || Number(m[1]) < 1 || Number(m[1]) > 65535) throw refused(`ports: "${p}" must be port/protocol, e.g. 8888/http, with a port from 1 to 65535.`);
  }
  if (c.registry !== null && c.registry !== undefined) {
    const auth = core.store.getRegistryAuth(c.registry);
    if (!auth || auth.userId !== userId) throw refused(`registry: registry credentials "${c.registry}" not found.`);
  }
}
