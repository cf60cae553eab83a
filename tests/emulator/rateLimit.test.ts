import { DEFAULT_SEED, type RunningEmulator, type SeedInput } from "../../emulator";
import { gql, inFreshMinute, rateLimitWindows as parseWindows, rest, start } from "./harness";

const seed: SeedInput = {
  ...DEFAULT_SEED,
  users: [
    { id: "user_1", email: "demo@example.com", rateLimits: { minute: 3 } },
    { id: "user_2", email: "other@example.com", rateLimits: { minute: 100, hour: 2 } },
    { id: "user_3", email: "third@example.com", rateLimits: { minute: 100, hour: 100, day: 2 } },
  ],
  apiKeys: [...DEFAULT_SEED.apiKeys, { key: "rpa_test_user3_readwrite", userId: "user_3", scopes: ["read", "write"] }],
  rateLimits: { minute: 50, hour: 500, day: 5000 },
};

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await start({ seed });
});
afterAll(() => emu.close());

const volumes = (key: string) => rest("GET", `${emu.urls.restV2}/v2/network-volumes`, key);

test("successful responses carry RateLimit and RateLimit-Policy for every window", async () => {
  const res = await volumes(emu.otherUserApiKey);
  expect(res.status).toBe(200);
  const limit = parseWindows(res.headers.get("ratelimit"));
  const policy = parseWindows(res.headers.get("ratelimit-policy"));
  expect(Object.keys(limit)).toEqual(["minute", "hour", "day"]);
  expect(policy).toEqual({ minute: { q: 100, w: 60 }, hour: { q: 2, w: 3600 }, day: { q: 5000, w: 86400 } });
  expect(limit.hour.r).toBe(1);
  for (const [window, { t }] of Object.entries(limit)) {
    expect(Number.isInteger(t)).toBe(true);
    expect(t).toBeGreaterThan(0);
    expect(t).toBeLessThanOrEqual(policy[window].w);
  }
});

test("the minute window runs out: 429 problem+json with Retry-After and a detail naming the minute", async () => {
  await inFreshMinute(() => volumes(emu.apiKey)); // uses 1 of the 3; the minute cannot roll over mid-test
  const second = await volumes(emu.apiKey);
  expect(parseWindows(second.headers.get("ratelimit")).minute.r).toBe(1);
  const third = await gql(emu, `{ myself { id } }`);
  expect(third.status).toBe(200);
  expect(parseWindows(third.headers.get("ratelimit")).minute.r).toBe(0);

  const limited = await volumes(emu.apiKey);
  expect(limited.status).toBe(429);
  expect(limited.headers.get("content-type")).toBe("application/problem+json");
  expect(limited.body).toMatchObject({ title: "Too Many Requests", status: 429 });
  expect(limited.body.detail).toMatch(/minute/);
  const retryAfter = Number(limited.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  const windows = parseWindows(limited.headers.get("ratelimit"));
  expect(windows.minute).toEqual({ r: 0, t: retryAfter });
  expect(parseWindows(limited.headers.get("ratelimit-policy")).minute).toEqual({ q: 3, w: 60 });

  // The same user's GraphQL requests are limited too, in the GraphQL errors shape.
  const gqlLimited = await gql(emu, `{ myself { id } }`);
  expect(gqlLimited.status).toBe(429);
  expect(gqlLimited.body.errors[0].extensions.code).toBe("RATE_LIMITED");
  expect(gqlLimited.headers.get("retry-after")).not.toBeNull();
});

test("limits are per user: another user is unaffected", async () => {
  const res = await rest("GET", `${emu.urls.restV2}/v2/network-volumes`, "rpa_test_user3_readwrite");
  expect(res.status).toBe(200);
});

test("the hour window runs out with a detail naming the hour", async () => {
  // user_2 already used 1 of 2 in the first test.
  expect((await volumes(emu.otherUserApiKey)).status).toBe(200);
  const limited = await volumes(emu.otherUserApiKey);
  expect(limited.status).toBe(429);
  expect(limited.body.detail).toMatch(/hour/);
  expect(limited.body.detail).not.toMatch(/minute/);
  expect(Number(limited.headers.get("retry-after"))).toBe(parseWindows(limited.headers.get("ratelimit")).hour.t);
});

test("the day window runs out with a detail naming the day", async () => {
  const key = "rpa_test_user3_readwrite"; // one request made above
  expect((await volumes(key)).status).toBe(200);
  const limited = await volumes(key);
  expect(limited.status).toBe(429);
  expect(limited.body.detail).toMatch(/day/);
});

test("the job interface is limited as well", async () => {
  const res = await rest("POST", `${emu.urls.inference}/v2/flux-1-schnell/run`, "rpa_test_user3_readwrite", { input: { prompt: "x" } });
  expect(res.status).toBe(429);
});
