/**
 * Each resource's Args interface and class outputs are written out by hand in src/resources/*.ts (their
 * docstrings are what an IDE shows on hover); this keeps them and the resource's model in step: the same
 * fields, the types, and docstrings that state each field's accepted values, bounds, unit, default and
 * what a change costs.
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import { ENDPOINT_MODEL } from "../../src/provider/endpoint/model";
import { NETWORK_VOLUME_MODEL } from "../../src/provider/networkVolume/model";
import { argumentNames, changeOf, outputNames, type Field, type ResourceModel } from "../../src/provider/model/fields";
import { POD_MODEL } from "../../src/provider/pod/model";
import { REGISTRY_AUTH_MODEL } from "../../src/provider/registryAuth/model";
import { TEMPLATE_MODEL } from "../../src/provider/template/model";

const RESOURCES: [string, ResourceModel, string][] = [
  ["endpoint.ts", ENDPOINT_MODEL, "Endpoint"],
  ["template.ts", TEMPLATE_MODEL, "Template"],
  ["containerRegistryAuth.ts", REGISTRY_AUTH_MODEL, "ContainerRegistryAuth"],
  ["networkVolume.ts", NETWORK_VOLUME_MODEL, "NetworkVolume"],
  ["pod.ts", POD_MODEL, "Pod"],
];

interface Member {
  type: string;
  doc: string;
}

/** Members of the interface or class `name` in `source`: property name → type text and docstring. */
function membersOf(source: ts.SourceFile, name: string): Record<string, Member> {
  const out: Record<string, Member> = {};
  const visit = (node: ts.Node): void => {
    if ((ts.isInterfaceDeclaration(node) || ts.isClassDeclaration(node)) && node.name?.text === name) {
      for (const m of node.members) {
        if (!(ts.isPropertySignature(m) || ts.isPropertyDeclaration(m)) || !m.type) continue;
        const doc = ts
          .getJSDocCommentsAndTags(m)
          .map((d) => (typeof d.comment === "string" ? d.comment : (ts.getTextOfJSDocComment(d.comment) ?? "")))
          .join("\n");
        out[m.name.getText(source)] = { type: m.type.getText(source), doc };
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe.each(RESOURCES)("%s", (file, model, className) => {
  const source = ts.createSourceFile(file, fs.readFileSync(path.join(__dirname, "..", "..", "src", "resources", file), "utf8"), ts.ScriptTarget.ES2022, true);
  const args = membersOf(source, `${className}Args`);
  const outputs = membersOf(source, className);
  const field = (name: string) => (model.fields as Record<string, Field>)[name];
  const ARG_FIELDS = argumentNames(model);
  const OUTPUT_FIELDS = outputNames(model);

  describe(`${className}Args and the model`, () => {
    it("declares exactly the model's arguments", () => {
      expect(Object.keys(args).sort()).toEqual([...ARG_FIELDS].sort());
    });

    it.each([...ARG_FIELDS])("%s: the type, and a docstring with its values, bounds, unit, default and change policy", (name) => {
      const f = field(name);
      if (f.kind === "output") throw new Error(`${name} is an output`);
      const { type, doc } = args[name];
      const problems: string[] = [];
      const expectType = {
        integer: /^pulumi\.Input<number>$/,
        number: /^pulumi\.Input<number>$/,
        boolean: /^pulumi\.Input<boolean>$/,
        string: /^pulumi\.Input<\w+>$/,
        "string[]": /^pulumi\.Input<pulumi\.Input<\w+>\[\]>$/,
        "map(string)": /^pulumi\.Input<Record<string, pulumi\.Input<string>>>$/,
      }[f.rule.type];
      if (!expectType.test(type)) problems.push(`type ${type} is not a ${f.rule.type}`);
      if (!doc.trim()) problems.push("no docstring");
      for (const v of f.rule.values ?? []) if (!doc.includes(`\`${v}\``)) problems.push(`does not name \`${v}\``);
      for (const bound of [f.rule.min, f.rule.max])
        if (bound !== undefined && !new RegExp(`\\b${bound}\\b`).test(doc)) problems.push(`does not give the bound ${bound}`);
      if (f.rule.maxLength !== undefined && !doc.includes(String(f.rule.maxLength))) problems.push(`does not give the length limit ${f.rule.maxLength}`);
      if (f.unit && !new RegExp(`\\b${f.unit}\\b`, "i").test(doc)) problems.push(`does not give the unit (${f.unit})`);
      const def = f.default;
      const empty =
        def === null || def === "" || (Array.isArray(def) && def.length === 0) || (typeof def === "object" && def !== null && Object.keys(def).length === 0);
      if (empty) {
        if (!/unset|none|`\{\}`/.test(doc)) problems.push("does not say what unset means");
      } else if (def !== undefined && !((typeof def === "string" ? doc.includes(def) : new RegExp(`\\b${def}\\b`).test(doc)) && /default/i.test(doc))) {
        problems.push(`does not give the default ${def}`);
      }
      if (f.kind === "setting") {
        if (!/no diff/.test(doc)) problems.push("does not say a change is no diff");
      } else if ((changeOf(model, name).policy === "replace") !== /replaces/.test(doc)) {
        problems.push(`says ${/replaces/.test(doc) ? "replaces" : "nothing of replacing"}, the model: ${changeOf(model, name).policy}`);
      }
      expect({ name, problems }).toEqual({ name, problems: [] });
    });
  });

  describe(`the ${className} class's outputs and the model`, () => {
    const declared = Object.fromEntries(Object.entries(outputs).filter(([, m]) => m.type.startsWith("pulumi.Output<")));

    it("declares an Output for every output of the model, and no other", () => {
      expect(Object.keys(declared).sort()).toEqual([...OUTPUT_FIELDS].sort());
    });

    it.each([...OUTPUT_FIELDS])("%s: the type the model gives", (name) => {
      const f = field(name);
      const display = f.kind === "output" ? f.type : f.rule.type;
      const inner = declared[name].type.replace(/^pulumi\.Output<(.*)>$/, "$1");
      const ok = {
        integer: /^number( \| null)?$/,
        number: /^number( \| null)?$/,
        boolean: /^boolean$/,
        string: /^\w+( \| null)?$/,
        "string[]": /^\w+\[\]( \| (null|undefined))*$/,
        "map(string)": /^Record<string, string>$/,
      }[display].test(inner);
      expect({ name, type: inner, ok }).toEqual({ name, type: inner, ok: true });
    });
  });
});
