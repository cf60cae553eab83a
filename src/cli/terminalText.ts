/**
 * Text the platform supplies (log lines, worker fields, job errors, server messages), made safe to
 * print: a worker status or log line carrying `ESC ] 0;… BEL` or `ESC [2J` must not drive the terminal.
 */

// C0 controls but tab, DEL, and C1 controls (U+0080–U+009F; U+009B alone is a CSI on many terminals).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g;

/** `text` without C0/C1 control characters (tab kept), for terminal and plain output alike. */
export function printable(text: string): string {
  return text.replace(CONTROLS, "");
}

/**
 * `JSON.stringify(value, null, space)` with DEL and C1 controls escaped as `\u00XX` too (JSON.stringify
 * escapes only C0), so `--json` output carries every control character escaped and stays the same JSON.
 */
export function jsonText(value: unknown, space?: number): string {
  return JSON.stringify(value, null, space).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
