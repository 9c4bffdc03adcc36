export interface RolloutSettings {
  /** Panels downloading at once across the server. */
  maxDownloads: number;
  /** Panels of a wave start spread over this window. */
  jitterMs: number;
  /** A timed task still fires this long after its time (after a server outage); later it is missed. */
  lateWindowMs: number;
  /** How often the engine works when nothing wakes it. */
  tickMs: number;
  /** How long a task stays with the instance that leased it without renewing. */
  leaseMs: number;
  /** A panel sent or downloading and not seen for this long frees its download slot. */
  slotQuietMs: number;
  /** A panel's row whose step has not moved for this long is asked for its state (ROLLOUT_STALL_MS). */
  stallMs: number;
  /** A listening panel that leaves the question unanswered this long is failed `timedOut` (ROLLOUT_ANSWER_MS). */
  answerMs: number;
  /** How often a running task that keeps adding looks for panels that started to match its labels. */
  keepAddingMs: number;
}

export const DEFAULT_ROLLOUT_SETTINGS: RolloutSettings = {
  maxDownloads: 100,
  jitterMs: 30_000,
  lateWindowMs: 24 * 60 * 60_000,
  tickMs: 1000,
  leaseMs: 30_000,
  slotQuietMs: 5 * 60_000,
  stallMs: 10 * 60_000,
  answerMs: 2 * 60_000,
  keepAddingMs: 60_000,
};
