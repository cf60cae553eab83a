/**
 * The emulator's billing clock: wall time plus an offset that `POST {admin}/clock` (or `emu.advanceClock`) moves
 * forward. Billing reads it, so a test can let workers "run" for hours without waiting; timers stay on wall time.
 * A frozen clock stands still until resumed, so two reads of billing (say, the CLI's and a test's) see one instant;
 * resuming continues from the frozen reading, never jumping over the time it stood still.
 */
export class Clock {
  private offsetMs = 0;
  private frozenAt: number | undefined;

  now(): number {
    return this.frozenAt ?? Date.now() + this.offsetMs;
  }

  /** Move the clock forward by `ms` (a non-negative integer); returns the new time. */
  advance(ms: number): number {
    if (!Number.isInteger(ms) || ms < 0) throw new Error(`advanceMs must be a non-negative integer (milliseconds); got ${ms}`);
    this.offsetMs += ms;
    if (this.frozenAt !== undefined) this.frozenAt += ms;
    return this.now();
  }

  /** Stop the clock at its current reading (a no-op when already frozen); returns that reading. */
  freeze(): number {
    this.frozenAt ??= this.now();
    return this.frozenAt;
  }

  /** Let the clock run again from where it stood (a no-op when running); returns the current reading. */
  resume(): number {
    if (this.frozenAt !== undefined) {
      this.offsetMs = this.frozenAt - Date.now();
      this.frozenAt = undefined;
    }
    return this.now();
  }

  frozen(): boolean {
    return this.frozenAt !== undefined;
  }

  offset(): number {
    return this.offsetMs;
  }
}
