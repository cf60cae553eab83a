/**
 * `client.v2` over real HTTP against a loopback server that answers with the REST v2 document's own
 * examples (v2Contract.ts). Every request the client sends — path, query, body — and every answer is
 * checked against the document with Ajv 2020; a test passes only if no exchange broke it.
 */
import {
  ApiHttpError,
  AuthenticationError,
  InvalidArgumentError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ResponseValidationError,
  ServerError,
  createClient,
  resolveClientConfig,
  type PlatformClient,
} from "../../src/api";
import { thrown } from "./helpers";
import { RestV2Contract, startV2Server, type V2Server } from "./v2Contract";

const KEY = "test-key";
const contract = new RestV2Contract();
let server: V2Server;

beforeAll(async () => {
  server = await startV2Server(contract);
});
afterAll(() => server.close());
beforeEach(() => server.reset());
afterEach(() => {
  // Every exchange of every test stays inside the document.
  expect(server.violations).toEqual([]);
});

function client(
  retry: Partial<{ retries: number; minDelayMs: number; maxDelayMs: number; deadlineMs: number }> = {},
  rateLimitDeadlineMs?: number,
): PlatformClient {
  return createClient(
    resolveClientConfig(
      {
        apiKey: KEY,
        graphqlUrl: `${server.url}/graphql`,
        restV1Url: server.url,
        restV2Url: server.url,
        inferenceUrl: server.url,
        timeoutMs: 5000,
        rateLimitDeadlineMs,
        retry: { retries: 3, minDelayMs: 5, maxDelayMs: 20, deadlineMs: 20_000, ...retry },
      },
      {},
    ),
  );
}

const example = (operationId: string): any => contract.example(contract.operation(operationId)).body;
const problem = (status: number, title: string, detail: string, errors?: string[]) => ({
  status,
  body: { title, status, detail, ...(errors ? { errors } : {}) },
});

describe("every v2 operation of the client reaches the document's operation and returns its answer", () => {
  // [client call, operationId the request must match, expected result from the document's example]
  const CASES: [string, (c: PlatformClient) => Promise<unknown>, (ex: any) => unknown][] = [
    ["listEndpoints", (c) => c.v2.listEndpoints(), (ex) => ex.endpoints],
    ["getEndpoint", (c) => c.v2.getEndpoint("4m7x2k9q"), (ex) => ex],
    ["createEndpoint", (c) => c.v2.createEndpoint(contract.requestExample("createEndpoint", "serverlessEndpoint")), (ex) => ex],
    ["updateEndpoint", (c) => c.v2.updateEndpoint("4m7x2k9q", contract.requestExample("updateEndpoint", "scaleEndpoint")), (ex) => ex],
    ["deleteEndpoint", (c) => c.v2.deleteEndpoint("4m7x2k9q"), () => undefined],
    ["listEndpointReleases", (c) => c.v2.listEndpointReleases("4m7x2k9q"), (ex) => ex],
    ["listPods", (c) => c.v2.listPods(), (ex) => ex.pods],
    ["getPod", (c) => c.v2.getPod("7h9k2m4n6p"), (ex) => ex],
    ["createPod", (c) => c.v2.createPod(contract.requestExample("createPod", "gpuPod")), (ex) => ex],
    ["updatePod", (c) => c.v2.updatePod("7h9k2m4n6p", contract.requestExample("updatePod", "renamePod")), (ex) => ex],
    ["deletePod", (c) => c.v2.deletePod("7h9k2m4n6p"), () => undefined],
    ["podAction", (c) => c.v2.podAction("7h9k2m4n6p", contract.requestExample("podAction", "startPod")), (ex) => ex],
    ["listPodBilling", (c) => c.v2.listPodBilling({ bucketSize: "day", lastN: 7, podId: "7h9k2m4n6p" }), (ex) => ex],
    ["listEndpointWorkers", (c) => c.v2.listEndpointWorkers("4m7x2k9q"), (ex) => ex],
    ["listTemplates", (c) => c.v2.listTemplates(), (ex) => ex.templates],
    ["getTemplate", (c) => c.v2.getTemplate("30zmvf89kd"), (ex) => ex],
    ["createTemplate", (c) => c.v2.createTemplate(contract.requestExample("createTemplate", "podTemplate")), (ex) => ex],
    ["updateTemplate", (c) => c.v2.updateTemplate("30zmvf89kd", contract.requestExample("updateTemplate", "renameTemplate")), (ex) => ex],
    ["deleteTemplate", (c) => c.v2.deleteTemplate("30zmvf89kd"), () => undefined],
    ["listRegistries", (c) => c.v2.listRegistries(), (ex) => ex.registries],
    ["getRegistry", (c) => c.v2.getRegistry("reg1"), (ex) => ex],
    ["createRegistry", (c) => c.v2.createRegistry(contract.requestExample("createRegistry", "dockerHubRegistry")), (ex) => ex],
    ["deleteRegistry", (c) => c.v2.deleteRegistry("reg1"), () => undefined],
    ["listNetworkVolumes", (c) => c.v2.listNetworkVolumes(), (ex) => ex.networkVolumes],
    ["getNetworkVolume", (c) => c.v2.getNetworkVolume("2q9m7x4c"), (ex) => ex],
    ["createNetworkVolume", (c) => c.v2.createNetworkVolume(contract.requestExample("createNetworkVolume", "networkVolume")), (ex) => ex],
    ["updateNetworkVolume", (c) => c.v2.updateNetworkVolume("2q9m7x4c", contract.requestExample("updateNetworkVolume", "resizeNetworkVolume")), (ex) => ex],
    ["deleteNetworkVolume", (c) => c.v2.deleteNetworkVolume("2q9m7x4c"), () => undefined],
    ["listGpuTypes", (c) => c.v2.listGpuTypes({ include: ["AVAILABILITY"], product: ["SERVERLESS"] }), (ex) => ex.gpus],
    ["getGpuType", (c) => c.v2.getGpuType("NVIDIA GeForce RTX 4090"), (ex) => ex],
    ["listCpuTypes", (c) => c.v2.listCpuTypes(), (ex) => ex.cpus],
    ["getCpuType", (c) => c.v2.getCpuType("cpu5c"), (ex) => ex],
    ["listDataCenters", (c) => c.v2.listDataCenters({ regions: ["EUROPE"], include: ["GPU_AVAILABILITY"] }), (ex) => ex.dataCenters],
    ["getDataCenter", (c) => c.v2.getDataCenter("EU-RO-1"), (ex) => ex],
    ["listServerlessBilling", (c) => c.v2.listServerlessBilling({ bucketSize: "day", lastN: 7, serverlessId: "4m7x2k9q" }), (ex) => ex],
    [
      "listEndpointBilling",
      (c) => c.v2.listEndpointBilling({ startTime: "2026-06-01T00:00:00Z", endTime: "2026-06-08T00:00:00Z", bucketSize: "day" }),
      (ex) => ex,
    ],
    ["listNetworkVolumeBilling", (c) => c.v2.listNetworkVolumeBilling({ bucketSize: "day", lastN: 1, networkVolumeId: "2q9m7x4c" }), (ex) => ex],
  ];

  test.each(CASES)("v2.%s", async (operationId, call, expected) => {
    const result = await call(client());
    expect(server.exchanges.map((e) => e.operationId)).toEqual([operationId]);
    expect(result).toEqual(expected(example(operationId)));
  });

  test("the client has exactly these v2 methods", () => {
    expect(Object.keys(client().v2).sort()).toEqual(CASES.map(([id]) => id).sort());
  });
});

describe("requests", () => {
  test("bearer key, JSON content type, and the document's query form (arrays comma-separated)", async () => {
    await client().v2.listGpuTypes({ include: ["AVAILABILITY"], product: ["SERVERLESS"] });
    const [ex] = server.exchanges;
    expect(ex.path).toBe("/v2/catalog/gpus");
    expect(ex.query.toString()).toBe("include=AVAILABILITY&product=SERVERLESS");
    expect(ex.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(ex.headers.accept).toBe("application/json");
  });

  test("billing query: time range, bucket size and endpoint id as the document names them", async () => {
    await client().v2.listServerlessBilling({ startTime: "2026-06-01T00:00:00Z", endTime: "2026-06-02T00:00:00Z", bucketSize: "hour", serverlessId: "ep1" });
    const [ex] = server.exchanges;
    expect(ex.path).toBe("/v2/billing/serverless");
    expect(Object.fromEntries(ex.query)).toEqual({
      startTime: "2026-06-01T00:00:00Z",
      endTime: "2026-06-02T00:00:00Z",
      bucketSize: "hour",
      serverlessId: "ep1",
    });
  });

  test("a GPU type id with spaces is one encoded path segment", async () => {
    await client().v2.getGpuType("NVIDIA GeForce RTX 4090", { include: ["AVAILABILITY"], product: ["SERVERLESS"], count: 2 });
    expect(server.exchanges[0].path).toBe("/v2/catalog/gpus/NVIDIA GeForce RTX 4090");
    expect(server.exchanges[0].query.toString()).toBe("include=AVAILABILITY&product=SERVERLESS&count=2");
  });

  // Bodies beyond the document's examples, as the provider builds them; the server validates each one.
  const BODIES: [string, (c: PlatformClient) => Promise<unknown>][] = [
    ["CPU endpoint (document example)", (c) => c.v2.createEndpoint(contract.requestExample("createEndpoint", "cpuServerlessEndpoint"))],
    [
      "GPU endpoint from a template, with exclusions, CUDA floor, volumes and flashboot",
      (c) =>
        c.v2.createEndpoint({
          name: "from-template",
          type: "QUEUE",
          templateId: "30zmvf89kd",
          gpu: { pools: ["ADA_24", "AMPERE_24"], excludedTypes: ["NVIDIA GeForce RTX 3090"], count: 1, minCudaVersion: "12.1" },
          workers: { min: 0, max: 3, idleTimeout: 10 },
          scaling: { type: "QUEUE_DELAY", queueDelay: 0.5 },
          dataCenterIds: ["EU-RO-1"],
          networkVolumes: ["2q9m7x4c", "7x4c2q9m"],
          flashboot: "PRIORITY_FLASHBOOT",
          env: { MODEL: "sdxl" },
        }),
    ],
    [
      "load-balancer endpoint with request-count scaling",
      (c) =>
        c.v2.createEndpoint({
          name: "lb",
          type: "LOAD_BALANCER",
          image: "ghcr.io/acme/api:1",
          ports: ["8000/http"],
          gpu: { pools: ["ADA_24"], count: 1 },
          scaling: { type: "REQUEST_COUNT", requestCount: 4 },
        }),
    ],
    [
      "container PATCH with the whole GPU selection",
      (c) =>
        c.v2.updateEndpoint("4m7x2k9q", {
          image: "runpod/worker:2",
          env: { A: "1" },
          registry: null,
          gpu: { pools: ["ADA_24"], excludedTypes: [], count: 1, allowedCudaVersions: ["12.4"] },
        }),
    ],
    ["PATCH that re-applies a template", (c) => c.v2.updateEndpoint("4m7x2k9q", { templateId: "30zmvf89kd" })],
    [
      "serverless template with category and ssh/jupyter off",
      (c) =>
        c.v2.createTemplate({
          name: "worker",
          image: "runpod/worker:1",
          serverless: true,
          category: "CPU",
          startSsh: false,
          startJupyter: false,
          env: { TOKEN: "s3cret" },
          registry: "reg1",
        }),
    ],
    ["template PATCH of image and env", (c) => c.v2.updateTemplate("30zmvf89kd", { image: "runpod/worker:2", env: { TOKEN: "rotated" } })],
  ];

  test.each(BODIES)("body valid under the document: %s", async (_label, call) => {
    await call(client());
    expect(server.exchanges).toHaveLength(1);
    expect(server.exchanges[0].body).toBeDefined();
  });

  test("the body check is real: a property the document does not allow is reported", async () => {
    const body = { ...contract.requestExample("createEndpoint", "serverlessEndpoint"), gpuIds: "ADA_24" };
    await client().v2.createEndpoint(body as never);
    expect(server.violations).toEqual([expect.stringContaining("createEndpoint request body: (root) must NOT have unevaluated properties: gpuIds")]);
    server.violations.length = 0;
  });

  test("the query check is real: an unknown parameter, a value outside the enum, a repeated array are reported", () => {
    const op = contract.operation("listGpuTypes");
    expect(contract.validateQuery(op, new URLSearchParams("include=AVAILABILITY&product=SERVERLESS&count=2"))).toEqual([]);
    expect(contract.validateQuery(op, new URLSearchParams("include=PRICES"))).toEqual([
      expect.stringMatching(/^include\/0 must be equal to one of the allowed values/),
    ]);
    expect(contract.validateQuery(op, new URLSearchParams("gpuIds=ADA_24"))).toEqual(["unknown query parameter gpuIds"]);
    expect(contract.validateQuery(op, new URLSearchParams("product=POD&product=SERVERLESS"))).toEqual([expect.stringContaining("more than once")]);
    expect(contract.validateQuery(op, new URLSearchParams("count=0"))).toEqual([expect.stringMatching(/^count must be >= 1/)]);
  });

  test("the body check is real: a load balancer with queue-delay scaling is reported", () => {
    const body = { ...contract.requestExample("createEndpoint", "serverlessEndpoint"), type: "LOAD_BALANCER" };
    expect(contract.validateBody(contract.operation("createEndpoint"), body)).not.toEqual([]);
    expect(contract.validateBody(contract.operation("createEndpoint"), { ...body, scaling: { type: "REQUEST_COUNT", requestCount: 1 } })).toEqual([]);
  });
});

describe("arguments are checked against the document before anything is sent", () => {
  test.each<[string, (c: PlatformClient) => Promise<unknown>, string]>([
    ["endpoint id that would change the path", (c) => c.v2.getEndpoint(".."), "endpointId"],
    ["empty template id", (c) => c.v2.updateTemplate("", { name: "x" }), "templateId"],
    ["create without a name", (c) => c.v2.createEndpoint({ type: "QUEUE", scaling: { type: "QUEUE_DELAY", queueDelay: 1 }, image: "x" } as never), "name"],
    [
      "unknown endpoint type",
      (c) => c.v2.createEndpoint({ name: "x", type: "QB", scaling: { type: "QUEUE_DELAY", queueDelay: 1 }, image: "x" } as never),
      "type",
    ],
    ["include value the document does not list", (c) => c.v2.listGpuTypes({ include: ["PRICES"] } as never), "include"],
    ["registry without a password", (c) => c.v2.createRegistry({ name: "r", username: "u" } as never), "password"],
  ])("%s", async (_label, call, argument) => {
    const err = await thrown(() => call(client()));
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as InvalidArgumentError).argument).toBe(argument);
    expect(err.message).toMatch(/^v2\.\w+: /);
    expect(server.exchanges).toHaveLength(0);
  });
});

describe("RFC 9457 error answers map onto the client's error classes", () => {
  test("400 keeps title, detail, errors[] and the request id, and is not retried", async () => {
    server.queue({
      ...problem(400, "Bad Request", "type cannot be changed", ["$.type: immutable", "$.gpu: compute family cannot change"]),
      headers: { "X-Request-Id": "req-7f3a" },
    });
    const err = (await thrown(() => client().v2.updateEndpoint("4m7x2k9q", { name: "renamed" }))) as ApiHttpError;
    expect(err).toBeInstanceOf(ApiHttpError);
    expect(err.status).toBe(400);
    expect(err.operation).toBe("v2.updateEndpoint");
    expect(err.problem).toEqual({
      title: "Bad Request",
      status: 400,
      detail: "type cannot be changed",
      errors: ["$.type: immutable", "$.gpu: compute family cannot change"],
    });
    expect(err.requestId).toBe("req-7f3a");
    expect(err.message).toContain("type cannot be changed");
    expect(err.message).toContain("$.gpu: compute family cannot change");
    expect(err.message).toContain("request id req-7f3a");
    expect(server.exchanges).toHaveLength(1);
  });

  test.each<[number, string, new (...a: never[]) => ApiHttpError]>([
    [401, "Unauthorized", AuthenticationError],
    [403, "Forbidden", PermissionError],
    [404, "Not Found", NotFoundError],
  ])("%i %s", async (status, title, cls) => {
    server.queue(problem(status, title, `${title.toLowerCase()} here`));
    const err = (await thrown(() => client().v2.getTemplate("30zmvf89kd"))) as ApiHttpError;
    expect(err).toBeInstanceOf(cls);
    expect(err.status).toBe(status);
    expect(err.problem?.detail).toBe(`${title.toLowerCase()} here`);
  });

  test("409 and 422 stay ApiHttpError with their status and validation errors", async () => {
    server.queue(problem(409, "Conflict", "name already used"));
    const conflict = (await thrown(() => client().v2.createRegistry({ name: "r", username: "u", password: "p" }))) as ApiHttpError;
    expect([conflict.constructor, conflict.status]).toEqual([ApiHttpError, 409]);
    server.queue(problem(422, "Unprocessable Entity", "validation failed", ["$.disk: must be >= 1"]));
    const invalid = (await thrown(() => client().v2.createTemplate({ name: "t", image: "i", disk: 1 }))) as ApiHttpError;
    expect([invalid.status, invalid.problem?.errors]).toEqual([422, ["$.disk: must be >= 1"]]);
  });

  test("the registry password never reaches an error", async () => {
    server.queue(problem(400, "Bad Request", "registry rejected"));
    const err = await thrown(() => client().v2.createRegistry({ name: "r", username: "u", password: "hunter2-secret" }));
    expect(JSON.stringify(err)).not.toContain("hunter2-secret");
    expect(err.message).not.toContain("hunter2-secret");
  });

  test("the API key in a problem's detail is redacted", async () => {
    server.queue(problem(400, "Bad Request", `bad key ${KEY}`));
    const err = (await thrown(() => client().v2.listTemplates())) as ApiHttpError;
    expect(err.message).not.toContain(KEY);
    expect(err.problem?.detail).not.toContain(KEY);
  });
});

describe("retries and rate limits pace v2 as they pace the other interfaces", () => {
  test("429 with Retry-After: the read waits, then succeeds; the figures are kept", async () => {
    server.queue({
      ...problem(429, "Too Many Requests", "rate limit exceeded for the minute window"),
      headers: { "Retry-After": "1", RateLimit: '"minute";r=0;t=1', "RateLimit-Policy": '"minute";q=60;w=60' },
    });
    const c = client();
    const started = Date.now();
    await c.v2.listEndpoints();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.exchanges.map((e) => e.status)).toEqual([429, 200]);
    expect(c.stats.retries).toBe(0); // a rate limit waited out is not a retry
    expect(c.stats.rateLimitWaits).toBe(1);
  });

  test("429 on a create is retried too (the platform did not act on it)", async () => {
    server.queue({ ...problem(429, "Too Many Requests", "rate limit exceeded for the minute window"), headers: { "Retry-After": "0" } });
    await client().v2.createTemplate(contract.requestExample("createTemplate", "podTemplate"));
    expect(server.exchanges.map((e) => [e.operationId, e.status])).toEqual([
      ["createTemplate", 429],
      ["createTemplate", 201],
    ]);
  });

  test("a 429 is waited out whatever the retry count: the retries are for faults", async () => {
    const limited = {
      ...problem(429, "Too Many Requests", "rate limit exceeded for the minute window"),
      headers: { "Retry-After": "0", RateLimit: '"minute";r=0;t=0' },
    };
    server.queue(limited, limited);
    const c = client({ retries: 0 });
    await c.v2.listRegistries();
    expect(server.exchanges.map((e) => e.status)).toEqual([429, 429, 200]);
    expect(c.stats.retries).toBe(0);
  });

  test("a 429 that outlasts the rate-limit deadline is a RateLimitError naming the exceeded window", async () => {
    server.queue({
      ...problem(429, "Too Many Requests", "rate limit exceeded for the minute window"),
      headers: { "Retry-After": "5", RateLimit: '"minute";r=0;t=5' },
    });
    const err = (await thrown(() => client({}, 1000).v2.listRegistries())) as RateLimitError;
    expect(err).toBeInstanceOf(RateLimitError);
    expect(err.exceededWindows).toEqual(["minute"]);
    expect(err.retryAfterSeconds).toBe(5);
    expect(server.exchanges.map((e) => e.status)).toEqual([429]);
  });

  test("RateLimit on a successful answer holds the next v2 request until the window resets", async () => {
    server.headers = { RateLimit: '"minute";r=0;t=1, "hour";r=100;t=1800', "RateLimit-Policy": '"minute";q=60;w=60, "hour";q=1000;w=3600' };
    const c = client();
    await c.v2.listTemplates();
    expect(c.rateLimit.minute).toEqual({ remaining: 0, resetSeconds: 1, quota: 60, windowSeconds: 60 });
    expect(c.rateLimit.hour?.remaining).toBe(100);
    server.headers = {};
    const started = Date.now();
    await c.v2.getTemplate("30zmvf89kd");
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(c.stats.rateLimitWaits).toBe(1);
  });

  test("5xx: a read is retried, a create is not and says its outcome is unknown", async () => {
    server.queue(problem(503, "Service Unavailable", "upstream"));
    await client().v2.getEndpoint("4m7x2k9q");
    expect(server.exchanges.map((e) => e.status)).toEqual([503, 200]);
    server.reset();
    server.queue(problem(502, "Bad Gateway", "upstream"));
    const err = (await thrown(() => client().v2.createEndpoint(contract.requestExample("createEndpoint", "serverlessEndpoint")))) as ServerError;
    expect(err).toBeInstanceOf(ServerError);
    expect(err.outcomeUnknown).toBe(true);
    expect(server.exchanges).toHaveLength(1);
  });

  test("a PATCH is retried after a 5xx (the same fields set twice are the same state)", async () => {
    server.queue(problem(500, "Internal Server Error", "boom"));
    await client().v2.updateEndpoint("4m7x2k9q", { workers: { min: 1, max: 2 } });
    expect(server.exchanges.map((e) => [e.method, e.status])).toEqual([
      ["PATCH", 500],
      ["PATCH", 200],
    ]);
  });

  test("a DELETE whose retry finds the endpoint gone is done", async () => {
    server.queue(problem(500, "Internal Server Error", "boom"), problem(404, "Not Found", "endpoint not found"));
    await expect(client().v2.deleteEndpoint("4m7x2k9q")).resolves.toBeUndefined();
    expect(server.exchanges.map((e) => e.status)).toEqual([500, 404]);
  });

  test("a DELETE of a missing endpoint on the first attempt is a NotFoundError", async () => {
    server.queue(problem(404, "Not Found", "endpoint not found"));
    await expect(client().v2.deleteEndpoint("4m7x2k9q")).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("answers the document does not allow", () => {
  test("a missing required field is a ResponseValidationError naming it", async () => {
    const endpoint = structuredClone(example("getEndpoint"));
    delete endpoint.workers;
    server.queue({ status: 200, body: endpoint });
    const err = (await thrown(() => client().v2.getEndpoint("4m7x2k9q"))) as ResponseValidationError;
    expect(err).toBeInstanceOf(ResponseValidationError);
    expect(err.issues).toEqual([expect.stringMatching(/^workers: /)]);
    // The server's own check saw the same answer break the document.
    expect(server.violations).toEqual([expect.stringContaining("getEndpoint answer 200")]);
    server.violations.length = 0;
  });

  test("a value outside the document's enum is refused", async () => {
    const list = structuredClone(example("listNetworkVolumes"));
    list.networkVolumes[0].type = "SUPER_FAST";
    server.queue({ status: 200, body: list });
    const err = (await thrown(() => client().v2.listNetworkVolumes())) as ResponseValidationError;
    expect(err.issues).toEqual([expect.stringMatching(/^networkVolumes\.0\.type: /)]);
    server.violations.length = 0;
  });
});
