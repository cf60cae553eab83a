/** Limits of Node's timers, shared by every duration the client accepts. */

/**
 * The longest delay Node's timers hold: 2^31 − 1 ms (about 24.8 days). A longer delay is replaced
 * by 1 ms with only a warning, so a huge timeout or poll interval would fire at once.
 */
export const MAX_TIMER_MS = 2_147_483_647;
