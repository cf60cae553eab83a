/** The repository's legal and security files say what package.json says (README › License). */
import * as fs from "fs";
import * as path from "path";

const ROOT = path.join(__dirname, "..", "..");
const read = (f: string) => fs.readFileSync(path.join(ROOT, f), "utf8");

test("LICENSE is the full Apache-2.0 text that package.json names", () => {
  const pkg = JSON.parse(read("package.json")) as { license: string };
  expect(pkg.license).toBe("Apache-2.0");
  const text = read("LICENSE").replace(/\s+/g, " ");
  expect(text).toMatch(/^ ?Apache License Version 2\.0, January 2004 http:\/\/www\.apache\.org\/licenses\//);
  for (const section of [
    "1. Definitions.",
    "2. Grant of Copyright License.",
    "3. Grant of Patent License.",
    "4. Redistribution.",
    "9. Accepting Warranty or Additional Liability.",
  ]) {
    expect(text).toContain(section);
  }
  expect(text.trim()).toMatch(/END OF TERMS AND CONDITIONS$/);
});

test("SECURITY.md says how to report and names the tests behind each guarantee it makes", () => {
  const text = read("SECURITY.md");
  expect(text).toMatch(/## Reporting a vulnerability/);
  for (const [, file] of text.matchAll(/`(tests\/[^`]+)`/g)) expect(fs.existsSync(path.join(ROOT, file))).toBe(true);
});
