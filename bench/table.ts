/**
 * `node dist/bench/table.js <results.json>...`: the markdown tables of docs/benchmark.md from one or
 * more results files of `npm run bench` — per kind, API path and provider (dynamic, plugin), N and operation the wall-time ratio to the engine's
 * floor and the CPU ratio (the Pulumi CLI and its plugins, ours over the floor's); the CPU per resource;
 * the peak RSS of the program and of the dynamic provider host.
 */
import * as fs from "fs";
import { cpuRatio, type BenchResults, type ResultRow } from "./report";
import { OPERATIONS, type BenchApi, type BenchKind } from "./requests";

const files = process.argv.slice(2);
if (files.length === 0) {
  process.stderr.write("usage: node dist/bench/table.js <results.json>...\n");
  process.exit(2);
}
const results = files.map((f) => JSON.parse(fs.readFileSync(f, "utf8")) as BenchResults);
// Results from before both API paths were benchmarked have no `api`: they ran on GraphQL.
const rows = results.flatMap((r) =>
  r.rows.map((row) => ({ ...row, api: (row as Partial<ResultRow>).api ?? ("graphql" as BenchApi), provider: row.provider ?? "dynamic" })),
);
/** Each resource kind on each API path, by what served it, e.g. `endpoints (v2)`, `endpoints (plugin, v2)`. */
const groups = [...new Set(rows.map((r) => `${r.kind}|${r.api}|${r.provider}`))].map((g) => {
  const [kind, api, provider] = g.split("|") as [BenchKind, BenchApi, string];
  return { kind, api, provider, label: provider === "plugin" ? `${kind} (plugin, ${api})` : `${kind} (${api})` };
});
const ns = [...new Set(rows.map((r) => r.n))].sort((a, b) => a - b);
const find = (g: { kind: BenchKind; api: BenchApi; provider: string }, n: number, op: string): ResultRow | undefined =>
  rows.find((r) => r.kind === g.kind && r.api === g.api && r.provider === g.provider && r.n === n && r.operation === op);
const x = (v: number | undefined) => (v === undefined ? "–" : `${v.toFixed(2)}×`);
const out: string[] = [];

for (const r of results) {
  const s = r.settings;
  out.push(
    `- ${r.generatedAt}: N = ${s.ns.join(", ")}, runpod:api ${(s.apis ?? ["graphql"]).join(", ")}, ${s.repeat} run(s), ${s.latencyMs} ms latency, \`--parallel ${s.parallelism}\`, Pulumi ${s.pulumiVersion}, node ${s.node}, ${s.cpus} CPUs${s.cpuModel ? ` (${s.cpuModel})` : ""}`,
  );
}
out.push("");

out.push("Wall time over the engine floor / CPU of the Pulumi CLI and its plugins over the floor's (1-minute load average at the end of our run):", "");
out.push(`| kind | N | ${OPERATIONS.join(" | ")} |`, `|---|---|${OPERATIONS.map(() => "---").join("|")}|`);
for (const kind of groups) {
  for (const n of ns) {
    const cells = OPERATIONS.map((op) => {
      const r = find(kind, n, op);
      return r ? `${x(r.ratio)} / ${x(cpuRatio(r))} (${r.load1?.join(", ") ?? "?"})` : "–";
    });
    out.push(`| ${kind.label} | ${n} | ${cells.join(" | ")} |`);
  }
}
out.push("");

out.push("CPU of the Pulumi CLI and its plugins per resource, ms (ours / engine floor):", "");
out.push(`| kind | N | ${OPERATIONS.join(" | ")} |`, `|---|---|${OPERATIONS.map(() => "---").join("|")}|`);
for (const kind of groups) {
  for (const n of ns) {
    const cells = OPERATIONS.map((op) => {
      const r = find(kind, n, op);
      return r?.childCpuMs ? `${(r.childCpuMs.ours / n).toFixed(1)} / ${(r.childCpuMs.engineFloor / n).toFixed(1)}` : "–";
    });
    out.push(`| ${kind.label} | ${n} | ${cells.join(" | ")} |`);
  }
}
out.push("");

out.push("Peak RSS, MB, the largest over the operations (ours / engine floor):", "");
out.push("| kind | N | program | dynamic provider host |", "|---|---|---|---|");
for (const kind of groups) {
  for (const n of ns) {
    const of = (side: "ours" | "engineFloor", role: "program" | "providerHost") => {
      const values = OPERATIONS.map((op) => find(kind, n, op)?.peakRssMb?.[side][role]).filter((v): v is number => v !== undefined);
      return values.length ? Math.max(...values).toFixed(0) : "–";
    };
    out.push(
      `| ${kind.label} | ${n} | ${of("ours", "program")} / ${of("engineFloor", "program")} | ${of("ours", "providerHost")} / ${of("engineFloor", "providerHost")} |`,
    );
  }
}
out.push("");

out.push("Requests made / needed (catalog requests among them, made / needed, where any are needed or made):", "");
out.push(`| kind | N | ${OPERATIONS.join(" | ")} |`, `|---|---|${OPERATIONS.map(() => "---").join("|")}|`);
for (const kind of groups) {
  for (const n of ns) {
    const cells = OPERATIONS.map((op) => {
      const r = find(kind, n, op);
      if (!r) return "–";
      const catalog = (r.catalogMade ?? 0) + (r.catalogNeeded ?? 0) > 0 ? ` (catalog ${r.catalogMade ?? "?"} / ${r.catalogNeeded ?? "?"})` : "";
      return `${r.requestsMade} / ${r.requestsNeeded}${catalog}`;
    });
    out.push(`| ${kind.label} | ${n} | ${cells.join(" | ")} |`);
  }
}
for (const r of results) {
  const m = r.startup?.median;
  if (m)
    out.push(
      "",
      `Provider start-up (${r.generatedAt}, median of ${r.startup!.runs.length}): stub ${m.stubMs.toFixed(1)} ms, \`require("pulumi-runpod/provider")\` + \`configure\` ${m.providerModuleMs.toFixed(1)} ms, first check (loads the api client, builds it) ${m.clientMs.toFixed(1)} ms; serialized stub ${r.startup!.stubBytes} bytes.`,
    );
}
console.log(out.join("\n"));
