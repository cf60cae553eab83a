/**
 * Ends the dynamic provider process when the Pulumi engine that started it is gone. The host does not
 * notice a killed engine (measured: still running 16 minutes after a SIGKILL) and would go on retrying
 * creates whose results no stack will record — endpoints that bill while nothing tracks them. The
 * engine is the process's parent (the launcher `exec`s node), so a changed parent pid means it died.
 */

/** How often the parent is checked, in milliseconds. */
export const PARENT_CHECK_MS = 1_000;

let watching = false;

/**
 * Starts the watch once per process; the timer never keeps the process alive.
 * @param onOrphaned what to do when the parent is gone (default: exit with status 1).
 */
export function exitWhenParentDies(onOrphaned: () => void = () => process.exit(1), intervalMs: number = PARENT_CHECK_MS): void {
  if (watching) return;
  watching = true;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      onOrphaned();
    }
  }, intervalMs);
  timer.unref();
}
