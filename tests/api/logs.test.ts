import type { RunningEmulator } from "../../emulator";
import { InvalidArgumentError, NetworkError, NotFoundError, type LogEvent, type LogStreamOptions, type PlatformClient } from "../../src/api";
import { ENDPOINT_INPUT, clientFor, eventually, startFastEmulator, thrown } from "./helpers";

let emu: RunningEmulator;
let client: PlatformClient;
let endpointId: string;
let workerId: string;

/** Reads up to `max` events (or until the iterator ends). */
async function collect(options: LogStreamOptions, max = Infinity, c = client): Promise<LogEvent[]> {
  const out: LogEvent[] = [];
  if (max <= 0) return out;
  for await (const ev of c.streamWorkerLogs(endpointId, workerId, options)) {
    out.push(ev);
    if (out.length >= max) break;
  }
  return out;
}

const seq = (e: LogEvent) => Number(e.id.split("/")[1]);

function expectStrictlyIncreasing(events: LogEvent[]): void {
  for (let i = 1; i < events.length; i++) expect(seq(events[i])).toBeGreaterThan(seq(events[i - 1]));
}

/** The platform's own record of the lines after `first` (inclusive), read without faults. */
async function reference(first: LogEvent, source?: LogStreamOptions["source"]): Promise<LogEvent[]> {
  const all = await collect({ since: first.ts, follow: false, source });
  const at = all.findIndex((e) => e.id === first.id);
  expect(at).toBeGreaterThanOrEqual(0);
  return all.slice(at);
}

beforeAll(async () => {
  emu = await startFastEmulator();
  client = clientFor(emu);
  endpointId = (await client.saveEndpoint({ ...ENDPOINT_INPUT, name: "logs", workersMin: 1, workersMax: 1 })).id;
  workerId = (await eventually(async () => (await client.listWorkers(endpointId))[0])).id;
  // Enough history for the backfill tests.
  await eventually(async () => ((await collect({ tail: 40, follow: false })).length >= 40 ? true : undefined));
});
afterAll(() => emu.close());
afterEach(() => emu.setFaults({}));

describe("worker log stream", () => {
  it("follow:false delivers the tail backfill, in order, then ends", async () => {
    const events = await collect({ tail: 25, follow: false });
    // Lines stamped while the request travels are live, not backfill, so a few may be missing here.
    expect(events.length).toBeGreaterThan(0);
    expect(events.length).toBeLessThanOrEqual(25);
    expectStrictlyIncreasing(events);
    for (const e of events) {
      expect(e.id.startsWith(e.ts)).toBe(true);
      expect(["container", "system"]).toContain(e.source);
      expect(typeof e.line).toBe("string");
    }
    // The backfill is contiguous: it matches the platform's record from its first line on.
    const ref = await reference(events[0]);
    expect(ref.slice(0, events.length)).toEqual(events);
  });

  it("source filters the stream, and tail 0 sends no backfill", async () => {
    const system = await collect({ tail: 30, source: "system", follow: false });
    expect(system.length).toBeGreaterThan(0);
    for (const e of system) expect(e.source).toBe("system");
    const startedAt = Date.now();
    const live = await collect({ tail: 0 }, 3);
    expect(live).toHaveLength(3);
    for (const e of live) expect(Date.parse(e.ts)).toBeGreaterThanOrEqual(startedAt - 5);
  });

  it("lastEventId resumes right after that event", async () => {
    const events = await collect({ tail: 10, follow: false });
    // Lines stamped while the backfill request travels are not in it (see above), so it may hold fewer than 10.
    expect(events.length).toBeGreaterThanOrEqual(6);
    const resumed = await collect({ lastEventId: events[4].id }, 5);
    expect(resumed.slice(0, events.length - 5)).toEqual(events.slice(5));
  });

  it("resumes after forced disconnects with no duplicate and no missing line", async () => {
    emu.setFaults({ dropStreamAfterEvents: 7, match: ["workerLogs"] });
    const before = client.stats.streamReconnects;
    const events = await collect({ tail: 20 }, 60);
    expect(events).toHaveLength(60);
    expect(client.stats.streamReconnects - before).toBeGreaterThanOrEqual(Math.floor(60 / 7) - 1);
    expect(emu.stats().faultsByKind.dropStream).toBeGreaterThanOrEqual(Math.floor(60 / 7));
    expect(new Set(events.map((e) => e.id)).size).toBe(60);
    expectStrictlyIncreasing(events);
    emu.setFaults({});
    expect((await reference(events[0])).slice(0, 60)).toEqual(events);
  });

  it("resume also holds for a single source", async () => {
    emu.setFaults({ dropStreamAfterEvents: 3, match: ["workerLogs"] });
    const events = await collect({ tail: 5, source: "container" }, 20);
    emu.setFaults({});
    expect(events.every((e) => e.source === "container")).toBe(true);
    expect((await reference(events[0], "container")).slice(0, 20)).toEqual(events);
  });

  it("validates tail, source, since and ids before sending anything", async () => {
    emu.resetStats();
    const bad: [LogStreamOptions, string][] = [
      [{ tail: 5001 }, "tail"],
      [{ tail: -1 }, "tail"],
      [{ tail: 1.5 }, "tail"],
      [{ tail: "10" as never }, "tail"],
      [{ source: "stderr" as never }, "source"],
      [{ since: "yesterday" }, "since"],
      [{ since: "2024-13-45T99:00:00Z" }, "since"],
      [{ lastEventId: "" }, "lastEventId"],
      [{ idleMs: 0 }, "idleMs"],
    ];
    for (const [options, argument] of bad) {
      let err: unknown;
      try {
        client.streamWorkerLogs(endpointId, workerId, options);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect((err as InvalidArgumentError).argument).toBe(argument);
      expect((err as Error).message).toContain(argument);
    }
    expect(() => client.streamWorkerLogs("", workerId)).toThrow(InvalidArgumentError);
    expect(() => client.streamWorkerLogs(endpointId, "")).toThrow(InvalidArgumentError);
    expect(emu.stats().requests).toBe(0);
    // The bounds themselves are accepted.
    expect(await collect({ tail: 0, follow: false })).toEqual([]);
    expect((await collect({ tail: 5000, follow: false })).length).toBeGreaterThan(0);
  });

  it("an AbortSignal ends the iteration without an error", async () => {
    const controller = new AbortController();
    const events: LogEvent[] = [];
    for await (const e of client.streamWorkerLogs(endpointId, workerId, { tail: 0, signal: controller.signal })) {
      events.push(e);
      if (events.length === 3) controller.abort();
    }
    expect(events).toHaveLength(3);
  });

  it("a 429 on connect is waited out; a stream that never delivers gives up with a NetworkError", async () => {
    emu.setFaults({ force429: 1, retryAfterSeconds: 0, match: ["workerLogs"] });
    expect(await collect({ tail: 3 }, 3)).toHaveLength(3);
    emu.setFaults({ dropStreamAfterEvents: 0, match: ["workerLogs"] });
    const c = clientFor(emu, { retry: { retries: 2 } });
    emu.resetStats();
    const err = await thrown(() => collect({ tail: 3 }, 3, c));
    expect(err).toBeInstanceOf(NetworkError);
    expect(emu.stats().byOperation.workerLogs).toBe(3);
  });

  it("an unknown worker is a NotFoundError", async () => {
    const err = await thrown(async () => {
      for await (const _ of client.streamWorkerLogs(endpointId, "no-such-worker", { follow: false })) break;
    });
    expect(err).toBeInstanceOf(NotFoundError);
  });
});
