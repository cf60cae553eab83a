/**
 * emulator/README.md states the emulator's facts and fault options in prose tables; these checks keep it in
 * step with emulator/facts.ts and the fault schema the emulator validates against.
 */
import { readFileSync } from "fs";
import { join } from "path";
import { ENDPOINT_FACTS, LOG_FACTS, TEMPLATE_FACTS } from "../../emulator/facts";
import { faultConfigSchema } from "../../emulator/faults";

const README = readFileSync(join(__dirname, "..", "..", "emulator", "README.md"), "utf8");

/** Cells of the table row whose first cell is `first`. */
function row(first: string): string[] {
  const line = README.split("\n").find((l) => l.startsWith(`| ${first} |`));
  if (!line) throw new Error(`emulator/README.md has no table row "${first}"`);
  return line
    .slice(1, -1)
    .split(" | ")
    .map((c) => c.trim());
}

test("the fault table lists every fault option, and nothing else", () => {
  const start = README.indexOf("## Fault injection");
  const section = README.slice(start, README.indexOf("\n## ", start + 1));
  const listed = [...section.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
  expect(listed.sort()).toEqual(Object.keys(faultConfigSchema.innerType().shape).sort());
});

test("the defaults row gives facts.ts's defaults", () => {
  const cell = row("Defaults of omitted endpoint fields")[1];
  const stated = Object.fromEntries([...cell.matchAll(/`(\w+)` (\S+?)(?:,|$)/g)].map((m) => [m[1], m[2]]));
  const defaults = Object.fromEntries(
    Object.entries(ENDPOINT_FACTS)
      .filter(([, f]) => "default" in f)
      .map(([field, f]) => [field, String((f as { default: unknown }).default)]),
  );
  expect(stated).toEqual(defaults);
});

test("the validation row gives facts.ts's bounds", () => {
  const cell = row("Other validation")[1];
  const { idleTimeout, scalerValue, workersMin, workersMax } = ENDPOINT_FACTS;
  expect(cell).toContain(`\`idleTimeout\` ${idleTimeout.min}–${idleTimeout.max}`);
  expect(cell).toContain(`\`scalerValue\` ${scalerValue.min}–${scalerValue.max}`);
  expect(workersMin).toMatchObject({ min: workersMax.min, max: workersMax.max });
  expect(cell).toContain(`\`workersMin\`, \`workersMax\` ${workersMin.min}–${workersMin.max}`);
});

test("the log stream paragraph gives facts.ts's tail bounds and default", () => {
  const { min, max, default: def } = LOG_FACTS.tail;
  expect(README).toContain(`\`tail\` (${min}–${max}, default ${def})`);
});

test("the template rules row gives facts.ts's template bounds and defaults", () => {
  const cell = row("Template defaults and bounds")[1];
  const { containerDiskInGb: disk, volumeInGb: vol, volumeMountPath, startSsh, isServerless } = TEMPLATE_FACTS;
  expect(cell).toContain(`\`containerDiskInGb\` ${disk.min}–${disk.max} GB (default ${disk.default})`);
  expect(cell).toContain(`\`volumeInGb\` ${vol.min}–${vol.max} GB (default ${vol.default})`);
  expect(cell).toContain(`(default \`${volumeMountPath.default}\`)`);
  expect(cell).toContain(`\`isServerless\` default ${isServerless.default}`);
  expect(cell).toContain(`\`startSsh\` default ${startSsh.default}`);
  expect(row("`ports`")[1]).toContain(`protocol ${TEMPLATE_FACTS.ports.protocols.map((p) => `\`${p}\``).join(" or ")}`);
});
