/**
 * A one-line spinner on stderr while a command waits. It draws only when stderr is a terminal,
 * so pipelines and CI logs get no carriage-return noise.
 */
import type { TextSink } from "./io";
import type { Style } from "./style";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const CLEAR_LINE = "\r\u001b[2K";

export class Progress {
  private text = "";
  private since?: number;
  private frame = 0;
  private timer?: NodeJS.Timeout;
  private readonly live: boolean;

  constructor(
    private readonly sink: TextSink,
    private readonly style: Style,
  ) {
    this.live = sink.isTTY === true;
  }

  /** Shows `text` (and the seconds elapsed since `since`, a `Date.now()` value, when given). */
  update(text: string, since?: number): void {
    if (!this.live) return;
    this.text = text;
    this.since = since;
    if (!this.timer) {
      this.timer = setInterval(() => this.draw(), 100);
      this.timer.unref();
    }
    this.draw();
  }

  /** Removes the spinner line; safe to call when nothing is shown. */
  clear(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.live && this.text) this.sink.write(CLEAR_LINE);
    this.text = "";
  }

  private draw(): void {
    const elapsed = this.since === undefined ? "" : ` ${((Date.now() - this.since) / 1000).toFixed(1)}s`;
    this.frame = (this.frame + 1) % FRAMES.length;
    this.sink.write(`${CLEAR_LINE}${this.style.cyan(FRAMES[this.frame])} ${this.text}${this.style.dim(elapsed)}`);
  }
}
