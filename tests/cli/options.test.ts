/** Option parsers: what the CLI accepts before any request is sent. */
import { InvalidArgumentError } from "commander";
import { parseCount, parseMillis, parseSeconds, parseSince, parseSource, parseTail, parseUrl } from "../../src/cli/options";

describe("option parsers", () => {
  test("--tail accepts 0..5000 integers only", () => {
    expect(parseTail("0")).toBe(0);
    expect(parseTail("5000")).toBe(5000);
    for (const bad of ["-1", "5001", "1.5", "ten", ""]) expect(() => parseTail(bad)).toThrow(InvalidArgumentError);
  });

  test("--source accepts the spec's two sources", () => {
    expect(parseSource("container")).toBe("container");
    expect(parseSource("system")).toBe("system");
    expect(() => parseSource("stdout")).toThrow(/container, system/);
  });

  test("--since passes RFC 3339 through and turns durations into a UTC time before now", () => {
    expect(parseSince("2024-05-01T12:00:00Z")).toBe("2024-05-01T12:00:00Z");
    expect(parseSince("2024-05-01T12:00:00.123+02:00")).toBe("2024-05-01T12:00:00.123+02:00");
    const now = Date.parse("2024-05-01T12:00:00.000Z");
    expect(parseSince("10m", () => now)).toBe("2024-05-01T11:50:00.000Z");
    expect(parseSince("2h", () => now)).toBe("2024-05-01T10:00:00.000Z");
    expect(parseSince("90s", () => now)).toBe("2024-05-01T11:58:30.000Z");
    for (const bad of ["yesterday", "2024-05-01", "2024-13-45T99:00:00Z", "10", "-5m"]) {
      expect(() => parseSince(bad)).toThrow(InvalidArgumentError);
    }
  });

  test("numbers and URLs", () => {
    expect(parseSeconds("0.5")).toBe(0.5);
    for (const bad of ["0", "-1", "x", ""]) expect(() => parseSeconds(bad)).toThrow(InvalidArgumentError);
    expect(parseMillis("20")).toBe(20);
    for (const bad of ["0", "1.5", "x"]) expect(() => parseMillis(bad)).toThrow(InvalidArgumentError);
    expect(parseCount("0")).toBe(0);
    expect(() => parseCount("-2")).toThrow(InvalidArgumentError);
    expect(parseUrl("http://127.0.0.1:1234/api")).toBe("http://127.0.0.1:1234/api");
    for (const bad of ["ftp://x", "not a url"]) expect(() => parseUrl(bad)).toThrow(InvalidArgumentError);
  });
});
