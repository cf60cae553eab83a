/**
 * Why `pulumi preview --json` failed, in preview's own words: the error diagnostics of its JSON document
 * (a budget refusal, a bad input), not the document's last lines, which are its change summary.
 */
import { PulumiCommandError } from "../stack/pulumiCommand";

interface Diagnostic {
  message?: string;
  severity?: string;
}

/** The engine's closing line of a failed preview says no more than that it failed. */
const GENERIC = /^(preview failed|an error occurred|update failed)\b/i;

/** The reason to quote: the preview's error messages (one line each, once), else the command's last output lines. */
export function previewFailureReason(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (err instanceof PulumiCommandError) {
    const messages = errorMessages(err.stdout);
    if (messages.length > 0) return messages.join("; ");
    const tail = err.output.trim().split("\n").slice(-3).join(" ").trim();
    return `\`pulumi ${err.args.join(" ")}\` exited ${err.exitCode ?? "on a signal"}${tail ? `: ${tail}` : ""}`;
  }
  return err.message;
}

function errorMessages(stdout: string): string[] {
  let doc: { diagnostics?: Diagnostic[] };
  try {
    doc = JSON.parse(stdout) as { diagnostics?: Diagnostic[] };
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const d of doc.diagnostics ?? []) {
    if (d.severity !== "error" || typeof d.message !== "string") continue;
    // The engine's message may carry its own "error: " prefix; the warning has one already.
    const line = d.message
      .replace(/\s+/g, " ")
      .trim()
      .replace(/^error:\s*/i, "");
    if (line && !GENERIC.test(line) && !out.includes(line)) out.push(line);
  }
  return out;
}
