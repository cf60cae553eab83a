/**
 * The autoscaler's decision: how many workers an endpoint wants for its queue (docs/emulator.md › Jobs run on
 * workers). The spec and the REST v2 document describe the scalers only in words ("adjusts the number of workers
 * based on how long requests wait in the queue" / "on active in-flight requests"); the rule here is the emulator's.
 */

/** An endpoint's scaling settings as the simulator uses them. */
export interface Scaling {
  /** Workers kept running whatever the queue (`workersMin`). */
  min: number;
  /** Workers never exceeded (`workersMax`). */
  max: number;
  type: "QUEUE_DELAY" | "REQUEST_COUNT";
  /** Seconds of queue wait (`QUEUE_DELAY`, may be fractional) or jobs per worker (`REQUEST_COUNT`). */
  value: number;
  /** How long a worker the queue no longer needs stays idle before it stops, in milliseconds. */
  idleTimeoutMs: number;
}

/** What the queue asks of the scaler. */
export interface QueueLoad {
  /** Acceptance instants (epoch ms) of the queued jobs that may trigger scaling (not `lowPriority`). */
  queuedSince: number[];
  /** Jobs a worker is running. */
  running: number;
}

/**
 * Workers the queue wants (before `min` and `max` apply), and when the answer changes by itself (a queued job
 * passing the queue delay).
 *
 * QUEUE_DELAY: a busy worker per running job, plus one per job that has waited `value` seconds or more; a queue
 * nobody is working on gets one worker at once (a cold start does not wait for the delay). REQUEST_COUNT: one worker
 * per `value` jobs queued or running.
 */
export function queueDemand(scaling: Scaling, load: QueueLoad, now: number): { wanted: number; recheckAt?: number } {
  const queued = load.queuedSince.length;
  if (scaling.type === "REQUEST_COUNT") return { wanted: Math.ceil((queued + load.running) / Math.max(1, scaling.value)) };
  const delayMs = scaling.value * 1000;
  const waited = load.queuedSince.filter((t) => now - t >= delayMs).length;
  const pending = load.queuedSince.filter((t) => now - t < delayMs).map((t) => t + delayMs);
  const wanted = queued > 0 ? Math.max(1, load.running + waited) : load.running;
  return pending.length > 0 ? { wanted, recheckAt: Math.min(...pending) } : { wanted };
}

/** Workers to run: the queue's want within `min` and `max`. */
export function desiredWorkers(scaling: Scaling, wanted: number): number {
  return Math.min(scaling.max, Math.max(scaling.min, wanted));
}
