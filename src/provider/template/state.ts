/** Conversions between the platform's template record and what Pulumi stores (the model's mapping). */
import type { SaveTemplateInput, TemplateRecord } from "../../api";
import { apiInput, inputsFromOutputs as modelInputs, outputsFromRecord as modelOutputs } from "../model/state";
import { TEMPLATE_MODEL, type TemplateInputs, type TemplateOutputs } from "./model";

/** Outputs of `record`; `previous` (declared inputs or stored outputs) gives the order of `ports`. */
export function templateOutputs(record: TemplateRecord, previous?: Record<string, unknown>): TemplateOutputs {
  return modelOutputs(TEMPLATE_MODEL, record, undefined, previous) as TemplateOutputs;
}

/** Inputs equivalent to a template's outputs (refresh and `Template.get`). */
export function templateInputs(outs: TemplateOutputs): TemplateInputs {
  return modelInputs(TEMPLATE_MODEL, outs) as TemplateInputs;
}

/**
 * The full `saveTemplate` input: every managed field, so the template ends up exactly as declared whether
 * the platform merges a modify or replaces the settings; always a serverless template.
 */
export function saveTemplateInput(inputs: TemplateInputs, id?: string): SaveTemplateInput {
  const save = { ...apiInput(TEMPLATE_MODEL, "save", inputs), isServerless: true } as unknown as SaveTemplateInput;
  if (id !== undefined) save.id = id;
  return save;
}
