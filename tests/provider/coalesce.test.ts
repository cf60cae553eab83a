/**
 * The sharing rules behind the provider's request counts: CoalescedCall (one call for a burst of
 * callers, bounded by a maximum age) and KeyedSerial (one task at a time per key). The clock is
 * stubbed, so nothing here depends on how fast the machine is.
 */
import { CoalescedCall } from "../../src/provider/coalesce";
import { KeyedSerial } from "../../src/provider/keyedSerial";

let now = 1_000_000;
beforeEach(() => {
  jest.spyOn(Date, "now").mockImplementation(() => now);
});
afterEach(() => jest.restoreAllMocks());

/** A call whose results are numbered 1, 2, ... */
function counter(): { call: () => Promise<number>; calls: () => number } {
  let n = 0;
  return { call: async () => ++n, calls: () => n };
}

describe("CoalescedCall", () => {
  it("callers while in flight share the call", async () => {
    const c = counter();
    const shared = new CoalescedCall(c.call, 100);
    expect(await Promise.all([shared.get(), shared.get(), shared.get()])).toEqual([1, 1, 1]);
    expect(shared.callCount).toBe(1);
  });

  it("without a max age, a result answers for `windowMs` after it completed, then a new call starts", async () => {
    const c = counter();
    const shared = new CoalescedCall(c.call, 100);
    await shared.get();
    now += 60;
    expect(await shared.get()).toBe(1);
    now += 60; // 120 ms after completion, although only 60 after the last caller
    expect(await shared.get()).toBe(2);
  });

  it("with a max age, a burst of callers each within `windowMs` of the last shares one result up to the max age", async () => {
    const c = counter();
    const shared = new CoalescedCall(c.call, 100, 1000);
    await shared.get();
    for (let i = 0; i < 10; i++) {
      now += 90;
      expect(await shared.get()).toBe(1);
    }
    now += 90; // 990 ms old: still within the max age
    expect(await shared.get()).toBe(1);
    now += 20; // 1010 ms old
    expect(await shared.get()).toBe(2);
    now += 150; // a pause longer than the window ends the burst
    expect(await shared.get()).toBe(3);
  });

  it("invalidate() makes the next caller start a new call, also while one is in flight", async () => {
    const c = counter();
    const shared = new CoalescedCall(c.call, 10_000, 10_000);
    const first = shared.get();
    shared.invalidate();
    expect(await shared.get()).toBe(2);
    expect(await first).toBe(1);
  });

  it("a failed call is not shared after it failed", async () => {
    let n = 0;
    const shared = new CoalescedCall(async () => {
      n++;
      if (n === 1) throw new Error("first fails");
      return n;
    }, 10_000);
    await expect(shared.get()).rejects.toThrow("first fails");
    expect(await shared.get()).toBe(2);
  });
});

describe("KeyedSerial", () => {
  function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
    let resolve!: () => void;
    let reject!: (e: Error) => void;
    const promise = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  }
  const tick = () => new Promise((r) => setImmediate(r));

  it("tasks with one key run one after another, in order, also after a failure; other keys do not wait", async () => {
    const serial = new KeyedSerial();
    const started: string[] = [];
    const gates = { a1: deferred(), a2: deferred(), a3: deferred(), b1: deferred() };
    const run = (key: string, name: keyof typeof gates) =>
      serial.run(key, async () => {
        started.push(name);
        await gates[name].promise;
        return name;
      });
    const a1 = run("a", "a1");
    const a2 = run("a", "a2");
    const a3 = run("a", "a3");
    const b1 = run("b", "b1");
    await tick();
    expect(started).toEqual(["a1", "b1"]);
    gates.a1.reject(new Error("a1 failed"));
    await expect(a1).rejects.toThrow("a1 failed");
    await tick();
    expect(started).toEqual(["a1", "b1", "a2"]);
    gates.a2.resolve();
    expect(await a2).toBe("a2");
    await tick();
    expect(started).toEqual(["a1", "b1", "a2", "a3"]);
    gates.a3.resolve();
    gates.b1.resolve();
    expect(await Promise.all([a3, b1])).toEqual(["a3", "b1"]);
  });
});
