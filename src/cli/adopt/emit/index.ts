/** The written program per language. */
import type { AdoptedObject } from "../plan";
import type { Language } from "../project";
import { emitNode } from "./typescript";
import { emitPython } from "./python";
import { emitYaml } from "./yaml";

/** The program text declaring `objects` in `language`. */
export function emitProgram(language: Language, objects: readonly AdoptedObject[]): string {
  switch (language) {
    case "typescript":
      return emitNode(objects, true);
    case "javascript":
      return emitNode(objects, false);
    case "python":
      return emitPython(objects);
    case "yaml":
      return emitYaml(objects);
    default:
      throw new Error(`adopt does not write ${language} yet`);
  }
}
