/** Conversions between the template record every path reports and what Pulumi stores (the model's mapping). */
import { inputsFromOutputs as modelInputs, outputsFromRecord as modelOutputs } from "../model/state";
import type { TemplateState } from "../paths/records";
import { TEMPLATE_MODEL, type TemplateInputs, type TemplateOutputs } from "./model";

/** Outputs of `record`; `previous` (declared inputs or stored outputs) gives the order of `ports`. */
export function templateOutputs(record: TemplateState, previous?: Record<string, unknown>): TemplateOutputs {
  return modelOutputs(TEMPLATE_MODEL, record, undefined, previous) as TemplateOutputs;
}

/** Inputs equivalent to a template's outputs (refresh and `Template.get`). */
export function templateInputs(outs: TemplateOutputs): TemplateInputs {
  return modelInputs(TEMPLATE_MODEL, outs) as TemplateInputs;
}
