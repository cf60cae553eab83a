/**
 * The emulator's billing clock: wall time plus an offset that `POST {admin}/clock` (or `emu.advanceClock`) can only
 * increase. Billing reads it, so a test can let workers "run" for hours without waiting; timers stay on wall time.
 */
export class Clock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  /** Move the clock forward by `ms` (a non-negative integer); returns the new time. */
  advance(ms: number): number {
    if (!Number.isInteger(ms) || ms < 0) throw new Error(`advanceMs must be a non-negative integer (milliseconds); got ${ms}`);
    this.offsetMs += ms;
    return this.now();
  }

  offset(): number {
    return this.offsetMs;
  }
}
