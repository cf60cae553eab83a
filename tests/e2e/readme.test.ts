/**
 * The README's reference tables say what the code does: the argument and update-vs-replace tables are
 * the renderings of the resource's model, and they and the configuration table name every field,
 * default, accepted value and bound the code uses.
 */
import * as fs from "fs";
import * as path from "path";
import { DEFAULT_TIMEOUT_MS, DEFAULT_URLS, ENV_VARS } from "../../src/api/config";
import { PULUMI_CONFIG_KEYS } from "../../src/provider/providerConfig";
import {
  ENDPOINT_ARG_FIELDS,
  ENDPOINT_DEFAULTS,
  ENDPOINT_MODEL,
  ENDPOINT_SETTING_DEFAULTS,
  ENDPOINT_SETTING_FIELDS,
  type EndpointSettingField,
} from "../../src/provider/endpoint/model";
import { changeOf, type ResourceModel } from "../../src/provider/model/fields";
import { renderArgumentTable, renderChangePolicyTable } from "../../src/provider/model/tables";
import { NETWORK_VOLUME_MODEL } from "../../src/provider/networkVolume/model";
import { POD_MODEL } from "../../src/provider/pod/model";
import { REGISTRY_AUTH_MODEL } from "../../src/provider/registryAuth/model";
import { TEMPLATE_MODEL } from "../../src/provider/template/model";
import { SPEC_TABLES as SPEC } from "../spec/specTables";

const F = ENDPOINT_MODEL.fields;
const NAME_MAX_LENGTH = F.name.rule.maxLength;
const IDLE_TIMEOUT_MAX = F.idleTimeout.rule.max;
/** GraphQL's bound: REST v2 states none. */
const SCALER_VALUE_MAX = F.scalerValue.onPath.graphql.rule.max;
const WORKERS_LIMIT = F.workersMax.onPath.graphql.rule.max;
const WORKERS_READY_TIMEOUT_MIN = F.workersReadyTimeout.rule.min;
const WORKERS_READY_TIMEOUT_MAX = F.workersReadyTimeout.rule.max;

const README = fs.readFileSync(path.join(__dirname, "..", "..", "README.md"), "utf8");

/** Rows of the first markdown table after `heading`, as arrays of cells (header and separator dropped). */
function table(heading: string): string[][] {
  const start = README.indexOf(heading);
  if (start < 0) throw new Error(`README has no "${heading}"`);
  const lines = README.slice(start).split("\n");
  const first = lines.findIndex((l) => l.startsWith("|"));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith("|")) break;
    rows.push(
      line
        .slice(1, -1)
        .split(" | ")
        .map((c) => c.trim()),
    );
  }
  return rows;
}

const isSetting = (field: string): field is EndpointSettingField => (ENDPOINT_SETTING_FIELDS as readonly string[]).includes(field);
const code = (cell: string) => cell.replace(/`/g, "").replace(/ \(secret\)$/, "");

/** The text between `<!-- name:begin -->` and `<!-- name:end -->`. */
const generated = (name: string) => new RegExp(`<!-- ${name}:begin -->\\n([\\s\\S]*?)\\n<!-- ${name}:end -->`).exec(README)?.[1];

test("the update-or-replace table is the model's own", () => {
  expect(generated("endpoint-change-policy")).toBe(renderChangePolicyTable(ENDPOINT_MODEL));
});

test("the arguments table is the model's own", () => {
  expect(generated("endpoint-arguments")).toBe(renderArgumentTable(ENDPOINT_MODEL));
});

test.each([
  ["template", TEMPLATE_MODEL],
  ["registry-auth", REGISTRY_AUTH_MODEL],
  ["network-volume", NETWORK_VOLUME_MODEL],
  ["pod", POD_MODEL],
] as [string, ResourceModel][])("the %s argument and update-or-replace tables are the model's own", (marker, model) => {
  expect(generated(`${marker}-arguments`)).toBe(renderArgumentTable(model));
  expect(generated(`${marker}-change-policy`)).toBe(renderChangePolicyTable(model));
});

describe("the Endpoint arguments table", () => {
  const rows = table("### `Endpoint` arguments");
  const row = (field: string) => {
    const r = rows.find((cells) => code(cells[0]) === field);
    if (!r) throw new Error(`no row for ${field}`);
    return { type: r[1], accepts: r[2], default: r[3], onChange: r[4] };
  };

  test("lists every argument the resource accepts, once", () => {
    expect(rows.map((r) => code(r[0])).sort()).toEqual([...ENDPOINT_ARG_FIELDS].sort());
  });

  test("says replace exactly where the provider replaces, and no diff for the provider's own settings", () => {
    for (const field of ENDPOINT_ARG_FIELDS) {
      if (isSetting(field)) {
        expect({ field, onChange: row(field).onChange }).toEqual({ field, onChange: "no diff (provider setting)" });
        continue;
      }
      const policy = changeOf(ENDPOINT_MODEL, field);
      expect({ field, replace: /replace/.test(row(field).onChange) }).toEqual({ field, replace: policy.policy === "replace" });
    }
  });

  test("gives the provider's defaults", () => {
    expect(row("type").default).toBe(`\`${ENDPOINT_DEFAULTS.type}\``);
    expect(row("idleTimeout").default).toBe(`\`${ENDPOINT_DEFAULTS.idleTimeout}\``);
    expect(row("scalerType").default).toBe(`\`${ENDPOINT_DEFAULTS.scalerType}\``);
    expect(row("scalerValue").default).toBe(`\`${ENDPOINT_DEFAULTS.scalerValue}\``);
    expect(row("workersMin").default).toBe(`\`${ENDPOINT_DEFAULTS.workersMin}\``);
    expect(row("workersMax").default).toMatch(new RegExp(`^\`${ENDPOINT_DEFAULTS.workersMax}\`, or \`workersMin\` when larger$`));
    expect(row("locations").default).toMatch(/^`\[\]`/);
    expect(ENDPOINT_DEFAULTS.locations).toEqual([]);
    expect(row("networkVolumeId").default).toBe("unset");
    expect(ENDPOINT_DEFAULTS.networkVolumeId).toBeNull();
    expect(row("waitForWorkers").default).toBe(`\`${ENDPOINT_SETTING_DEFAULTS.waitForWorkers}\``);
    expect(row("workersReadyTimeout").default).toBe(`\`${ENDPOINT_SETTING_DEFAULTS.workersReadyTimeout}\``);
  });

  test("names every accepted value and the bounds validation uses", () => {
    for (const tier of SPEC.gpuTiers) expect(row("gpuIds").accepts).toContain(`\`${tier}\``);
    for (const loc of SPEC.locations) expect(row("locations").accepts).toContain(`\`${loc}\``);
    for (const t of SPEC.endpointTypes) expect(row("type").accepts).toContain(`\`${t}\``);
    for (const s of SPEC.scalerTypes) expect(row("scalerType").accepts).toContain(`\`${s}\``);
    expect(row("name").accepts).toContain(`1–${NAME_MAX_LENGTH} characters`);
    expect(row("idleTimeout").accepts).toContain(`seconds, 0–${IDLE_TIMEOUT_MAX}`);
    expect(row("idleTimeout").accepts).toContain(`at least \`${F.idleTimeout.onPath.v2.rule.min}\` on \`runpod:api v2\``);
    expect(row("scalerValue").accepts).toContain(`1–${SCALER_VALUE_MAX}`);
    for (const f of ["workersMin", "workersMax"] as const) {
      expect(row(f).accepts).toContain(`≥ ${F[f].rule.min} workers`);
      expect(row(f).accepts).toContain(`at most ${WORKERS_LIMIT} on \`runpod:api graphql\``);
    }
    expect(row("workersReadyTimeout").accepts).toContain(`seconds, ${WORKERS_READY_TIMEOUT_MIN}–${WORKERS_READY_TIMEOUT_MAX}`);
  });
});

test("the configuration table names every key, its environment fallback and default", () => {
  const rows = table("### Configuration");
  // The connection keys in their order; tests/docs/readmeConfig.test.ts holds the table equal to every key the provider reads.
  const connection: string[] = Object.values(PULUMI_CONFIG_KEYS);
  expect(rows.map((r) => code(r[0])).filter((k) => connection.includes(k))).toEqual(connection);
  for (const [field, key] of Object.entries(PULUMI_CONFIG_KEYS)) {
    const r = rows.find((cells) => code(cells[0]) === key)!;
    const env = (ENV_VARS as Record<string, string>)[field];
    expect({ key, env: r[1] }).toEqual({ key, env: env ? `\`${env}\`` : "—" });
    const def = field === "timeoutMs" ? String(DEFAULT_TIMEOUT_MS) : (DEFAULT_URLS as Record<string, string>)[field];
    if (def !== undefined) expect({ key, default: r[2] }).toEqual({ key, default: `\`${def}\`` });
  }
  expect(rows[0][1]).toBe(`\`${ENV_VARS.apiKey}\``);
});
