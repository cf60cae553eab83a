/**
 * Terminal styling without a dependency: a handful of ANSI SGR codes, switched off unless the
 * sink is a terminal and `NO_COLOR` is unset (https://no-color.org: any non-empty value disables).
 */
import type { TextSink } from "./io";

export interface Style {
  readonly enabled: boolean;
  dim(text: string): string;
  bold(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  magenta(text: string): string;
}

const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string) => text;

/** Colour for `sink` when it is a TTY and `env.NO_COLOR` is unset or empty. */
export function styleFor(sink: TextSink, env: Record<string, string | undefined>): Style {
  const enabled = sink.isTTY === true && !env.NO_COLOR;
  if (!enabled) {
    return { enabled, dim: plain, bold: plain, red: plain, green: plain, yellow: plain, cyan: plain, magenta: plain };
  }
  return {
    enabled,
    dim: sgr(2, 22),
    bold: sgr(1, 22),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    cyan: sgr(36, 39),
    magenta: sgr(35, 39),
  };
}
