/**
 * The API's floor: the fewest requests the spec allows for each benchmark operation, issued directly
 * with the api client at the engine's parallelism — what the operation would cost with no engine and
 * no provider in between (see requests.ts for the counts).
 */
import type { PlatformClient, SaveTemplateInput } from "../src/api";
import { forEachLimited } from "./pool";
import { measure, type BenchApi, type BenchKind, type BenchOperation, type Measurement, type RequestCounter } from "./requests";

/** The endpoint the benchmark stacks declare (bench/programs/*), as the platform takes it. */
export const BENCH_ENDPOINT = { templateId: "tpl_vllm", gpuIds: "ADA_24", idleTimeout: 30 } as const;
/** `idleTimeout` after the benchmark's one-field update. */
export const UPDATED_IDLE_TIMEOUT = 60;

/** The template the benchmark stacks declare (bench/programs/*): an image tag, a disk size, one env variable. */
export const BENCH_TEMPLATE = { imageRepository: "ghcr.io/acme/llm-worker", imageTag: "1.4.2", containerDiskInGb: 20, env: { MODEL: "llama-3-8b" } } as const;
/** The image tag after the benchmark's update (an image rollout, the most frequent template change). */
export const UPDATED_IMAGE_TAG = "1.4.3";

/** The network volume the benchmark stacks declare (bench/programs/networkVolumes): the tier left to the data center. */
export const BENCH_VOLUME = { size: 10, dataCenterId: "EU-RO-1" } as const;
/** `size` after the benchmark's update (a volume grows in place). */
export const UPDATED_VOLUME_SIZE = 20;

/** The pod the benchmark stacks declare (bench/programs/pods): a CPU pod, an image tag, a disk size, one env variable. */
export const BENCH_POD = {
  imageRepository: "ghcr.io/acme/dev-box",
  imageTag: "1.4.2",
  cpuFlavorId: "cpu3c",
  vcpuCount: 2,
  containerDiskInGb: 20,
  env: { MODEL: "llama-3-8b" },
} as const;

/** `imageName` of the benchmark's pods with `tag` (the update rolls them onto {@link UPDATED_IMAGE_TAG}). */
export function benchPodImage(tag: string): string {
  return `${BENCH_POD.imageRepository}:${tag}`;
}

/** `imageName` of the benchmark's templates with `tag`. */
export function benchImageName(tag: string): string {
  return `${BENCH_TEMPLATE.imageRepository}:${tag}`;
}

export interface ApiFloorOptions {
  /** Number of resources. */
  n: number;
  /** Requests in flight at most (the engine's `--parallel`). */
  parallelism: number;
  /** Resource names are `${prefix}-${i}`. */
  prefix: string;
}

/**
 * Runs every operation of `kind` once at the API floor, each step timed and counted.
 * @returns one measurement per operation.
 * @throws the first api client error (resources created so far are left on the platform).
 */
export function runApiFloor(
  kind: BenchKind,
  client: PlatformClient,
  counter: RequestCounter,
  opts: ApiFloorOptions,
  api: BenchApi = "graphql",
): Promise<Record<BenchOperation, Measurement>> {
  // Network volumes and pods speak REST v2 on both paths.
  if (kind === "networkVolumes") return networkVolumeFloor(client, counter, opts);
  if (kind === "pods") return podFloor(client, counter, opts);
  if (api === "v2") return kind === "endpoints" ? endpointFloorV2(client, counter, opts) : templateFloorV2(client, counter, opts);
  return kind === "endpoints" ? endpointFloor(client, counter, opts) : templateFloor(client, counter, opts);
}

/**
 * Network volumes (either path): a preview reads the data centers (the tier and the data center check); a
 * create reads them and creates each; one listing; an update reads them again (the grown size's cost) and
 * PATCHes `size`; a delete by id each.
 */
async function networkVolumeFloor(client: PlatformClient, counter: RequestCounter, opts: ApiFloorOptions): Promise<Record<BenchOperation, Measurement>> {
  const indexes = Array.from({ length: opts.n }, (_, i) => i);
  const ids: string[] = [];
  const v2 = client.v2;

  const preview = await measure(counter, () => v2.listDataCenters());
  const create = await measure(counter, async () => {
    await v2.listDataCenters();
    await forEachLimited(indexes, opts.parallelism, async (i) => {
      ids[i] = (await v2.createNetworkVolume({ name: `${opts.prefix}-${i}`, size: BENCH_VOLUME.size, dataCenter: BENCH_VOLUME.dataCenterId })).id;
    });
  });
  const refresh = await measure(counter, () => v2.listNetworkVolumes());
  const update = await measure(counter, async () => {
    await v2.listDataCenters();
    await forEachLimited(indexes, opts.parallelism, async (i) => {
      await v2.updateNetworkVolume(ids[i], { size: UPDATED_VOLUME_SIZE });
    });
  });
  const destroy = await measure(counter, () =>
    forEachLimited(indexes, opts.parallelism, async (i) => {
      await v2.deleteNetworkVolume(ids[i]);
    }),
  );
  return { preview, create, refresh, update, destroy };
}

/**
 * CPU pods (either path): a preview reads the CPU flavors with their pod stock; a create reads them and
 * creates each; one listing; a PATCH of `image` each; a delete each.
 */
async function podFloor(client: PlatformClient, counter: RequestCounter, opts: ApiFloorOptions): Promise<Record<BenchOperation, Measurement>> {
  const indexes = Array.from({ length: opts.n }, (_, i) => i);
  const ids: string[] = [];
  const v2 = client.v2;
  const flavors = () => v2.listCpuTypes({ include: ["AVAILABILITY"], product: ["POD"] });

  const preview = await measure(counter, flavors);
  const create = await measure(counter, async () => {
    await flavors();
    await forEachLimited(indexes, opts.parallelism, async (i) => {
      const created = await v2.createPod({
        name: `${opts.prefix}-${i}`,
        cloud: "SECURE",
        dataCenterIds: [],
        globalNetworking: false,
        startJupyter: false,
        startSsh: false,
        cpu: { id: BENCH_POD.cpuFlavorId, vcpuCount: BENCH_POD.vcpuCount },
        image: benchPodImage(BENCH_POD.imageTag),
        disk: BENCH_POD.containerDiskInGb,
        env: { ...BENCH_POD.env },
        registry: null,
      });
      ids[i] = created.id;
    });
  });
  const refresh = await measure(counter, () => v2.listPods());
  const update = await measure(counter, () =>
    forEachLimited(indexes, opts.parallelism, async (i) => {
      await v2.updatePod(ids[i], { image: benchPodImage(UPDATED_IMAGE_TAG) });
    }),
  );
  const destroy = await measure(counter, () =>
    forEachLimited(indexes, opts.parallelism, async (i) => {
      await v2.deletePod(ids[i]);
    }),
  );
  return { preview, create, refresh, update, destroy };
}

/** One read of the serverless catalog (three REST v2 requests in parallel), as an endpoint check needs it. */
async function readCatalog(client: PlatformClient): Promise<void> {
  await Promise.all([
    client.v2.listGpuTypes({ include: ["AVAILABILITY"], product: ["SERVERLESS"] }),
    client.v2.listCpuTypes({ include: ["AVAILABILITY"], product: ["SERVERLESS"] }),
    client.v2.listDataCenters(),
  ]);
}

/**
 * Endpoints on REST v2: a preview and a create look the template up in one listing and read the
 * catalog once; `createEndpoint` each; a refresh lists the endpoints and the templates (the copy each
 * endpoint runs against its template's settings) and each endpoint's releases (the engine diffs a
 * refresh's outputs; the diff compares the release followed); an update lists both again (the diff's
 * comparison) and PATCHes `workers` each; a delete lists the workers (`listEndpointWorkers`: no job
 * running, so no scale-down first) and deletes.
 */
async function endpointFloorV2(client: PlatformClient, counter: RequestCounter, opts: ApiFloorOptions): Promise<Record<BenchOperation, Measurement>> {
  const indexes = Array.from({ length: opts.n }, (_, i) => i);
  const ids: string[] = [];
  const v2 = client.v2;
  const workers = (idleTimeout: number) => ({ min: 0, max: 3, idleTimeout });
  const lookups = () => Promise.all([v2.listTemplates(), readCatalog(client)]);

  const preview = await measure(counter, lookups);
  const create = await measure(counter, async () => {
    await lookups();
    await forEachLimited(indexes, opts.parallelism, async (i) => {
      const created = await v2.createEndpoint({
        name: `${opts.prefix}-${i}`,
        type: "QUEUE",
        templateId: BENCH_ENDPOINT.templateId,
        gpu: { pools: [BENCH_ENDPOINT.gpuIds], excludedTypes: [] },
        workers: workers(BENCH_ENDPOINT.idleTimeout),
        scaling: { type: "QUEUE_DELAY", queueDelay: 4 },
        networkVolumes: [],
        flashboot: "OFF",
        dataCenterIds: [],
      });
      ids[i] = created.id;
    });
  });
  const copies = () => Promise.all([v2.listEndpoints(), v2.listTemplates()]);
  const refresh = await measure(counter, () =>
    Promise.all([copies(), forEachLimited(indexes, opts.parallelism, async (i) => void (await v2.listEndpointReleases(ids[i])))]),
  );
  const update = await measure(counter, async () => {
    await copies();
    await forEachLimited(indexes, opts.parallelism, async (i) => {
      // The diff's and the update's look for a release nobody followed (docs/endpoint.md › Releases kept in state).
      await v2.listEndpointReleases(ids[i]);
      await v2.listEndpointReleases(ids[i]);
      await v2.updateEndpoint(ids[i], { workers: workers(UPDATED_IDLE_TIMEOUT) });
    });
  });
  const destroy = await measure(counter, () =>
    forEachLimited(indexes, opts.parallelism, async (i) => {
      await v2.listEndpointWorkers(ids[i]);
      await v2.deleteEndpoint(ids[i]);
    }),
  );
  return { preview, create, refresh, update, destroy };
}

/** Templates on REST v2: nothing for a preview; `createTemplate` each, one listing, a PATCH of `image` each, `deleteTemplate` each (by id: no listing). */
async function templateFloorV2(client: PlatformClient, counter: RequestCounter, opts: ApiFloorOptions): Promise<Record<BenchOperation, Measurement>> {
  const indexes = Array.from({ length: opts.n }, (_, i) => i);
  const ids: string[] = [];
  const v2 = client.v2;

  const preview = await measure(counter, async () => undefined);
  const create = await measure(counter, () =>
    forEachLimited(indexes, opts.parallelism, async (i) => {
      const created = await v2.createTemplate({
        name: `${opts.prefix}-${i}`,
        image: benchImageName(BENCH_TEMPLATE.imageTag),
        args: "",
        disk: BENCH_TEMPLATE.containerDiskInGb,
        ports: [],
        env: { ...BENCH_TEMPLATE.env },
        registry: null,
        serverless: true,
        startSsh: false,
        startJupyter: false,
      });
      ids[i] = created.id;
    }),
  );
  const refresh = await measure(counter, () => v2.listTemplates());
  const update = await measure(counter, () =>
    forEachLimited(indexes, opts.parallelism, async (i) => {
      await v2.updateTemplate(ids[i], { image: benchImageName(UPDATED_IMAGE_TAG) });
    }),
  );
  const destroy = await measure(counter, () =>
    forEachLimited(indexes, opts.parallelism, async (i) => {
      await v2.deleteTemplate(ids[i]);
    }),
  );
  return { preview, create, refresh, update, destroy };
}

/**
 * Endpoints: a preview and a create look the template up in one listing and read the catalog once; creates `n` endpoints, lists
 * them once, updates one field of each, deletes them (a look at the workers: no job running; then scale to zero and delete, in one request).
 */
async function endpointFloor(client: PlatformClient, counter: RequestCounter, opts: ApiFloorOptions): Promise<Record<BenchOperation, Measurement>> {
  const indexes = Array.from({ length: opts.n }, (_, i) => i);
  const ids: string[] = [];
  const name = (i: number) => `${opts.prefix}-${i}`;

  const lookups = () => Promise.all([client.listTemplates(), readCatalog(client)]);
  const preview = await measure(counter, lookups);
  const create = await measure(counter, async () => {
    await lookups();
    await forEachLimited(indexes, opts.parallelism, async (i) => {
      ids[i] = (await client.saveEndpoint({ name: name(i), ...BENCH_ENDPOINT })).id;
    });
  });
  const refresh = await measure(counter, () => client.listEndpoints());
  const update = await measure(counter, () =>
    forEachLimited(indexes, opts.parallelism, async (i) => {
      await client.saveEndpoint({
        id: ids[i],
        name: name(i),
        templateId: BENCH_ENDPOINT.templateId,
        gpuIds: BENCH_ENDPOINT.gpuIds,
        idleTimeout: UPDATED_IDLE_TIMEOUT,
      });
    }),
  );
  const destroy = await measure(counter, () =>
    forEachLimited(indexes, opts.parallelism, async (i) => {
      await client.listWorkers(ids[i]);
      await client.scaleDownAndDeleteEndpoint({ id: ids[i], name: name(i), templateId: BENCH_ENDPOINT.templateId, gpuIds: BENCH_ENDPOINT.gpuIds });
    }),
  );
  return { preview, create, refresh, update, destroy };
}

/**
 * Templates: a preview sends nothing; creates `n` templates, lists them once, rolls each onto a new
 * image (a modify carrying every field, as the provider sends it) and lists the endpoints once (those
 * using a template follow its rollout: none here), then lists the templates once for their current names
 * and deletes each by name.
 */
async function templateFloor(client: PlatformClient, counter: RequestCounter, opts: ApiFloorOptions): Promise<Record<BenchOperation, Measurement>> {
  const indexes = Array.from({ length: opts.n }, (_, i) => i);
  const ids: string[] = [];
  const name = (i: number) => `${opts.prefix}-${i}`;
  const save = (i: number, tag: string, id?: string): SaveTemplateInput => ({
    ...(id === undefined ? {} : { id }),
    name: name(i),
    imageName: benchImageName(tag),
    dockerArgs: "",
    containerDiskInGb: BENCH_TEMPLATE.containerDiskInGb,
    volumeInGb: 0,
    volumeMountPath: "/workspace",
    ports: "",
    env: Object.entries(BENCH_TEMPLATE.env).map(([key, value]) => ({ key, value })),
    isServerless: true,
    containerRegistryAuthId: null,
    readme: "",
  });

  const preview = await measure(counter, async () => undefined);
  const create = await measure(counter, () =>
    forEachLimited(indexes, opts.parallelism, async (i) => {
      ids[i] = (await client.saveTemplate(save(i, BENCH_TEMPLATE.imageTag))).id;
    }),
  );
  const refresh = await measure(counter, () => client.listTemplates());
  const update = await measure(counter, async () => {
    await forEachLimited(indexes, opts.parallelism, async (i) => {
      await client.saveTemplate(save(i, UPDATED_IMAGE_TAG, ids[i]));
    });
    await client.listEndpoints();
  });
  const destroy = await measure(counter, async () => {
    const names = new Map((await client.listTemplates()).map((t) => [t.id, t.name]));
    await forEachLimited(indexes, opts.parallelism, async (i) => {
      await client.deleteTemplate(names.get(ids[i]) ?? name(i));
    });
  });
  return { preview, create, refresh, update, destroy };
}
