import { z } from 'zod';
import { defineCall } from '../call.js';
import { users } from '../access.js';

const tag = 'live';

/**
 * Events of the live console (server-sent events). Every event belongs to one company; a
 * stream carries those of the caller's scope only (its company; a distributor's customers;
 * the platform all).
 */
export const presenceEvent = z.object({
  type: z.literal('presence'),
  deviceId: z.number().int(),
  deviceKey: z.string(),
  online: z.boolean(),
  at: z.number().int(),
});

/** Every panel's presence is unknown again (the server lost its broker): read it anew. */
export const presenceResetEvent = z.object({ type: z.literal('presenceReset'), at: z.number().int() });

export const commandEvent = z.object({
  type: z.literal('command'),
  commandId: z.string(),
  deviceId: z.number().int(),
  order: z.string(),
  status: z.enum(['queued', 'sent', 'delivered', 'succeeded', 'failed', 'expired']),
  detail: z.string(),
  at: z.number().int(),
});

/** Progress of a long task (an OTA rollout, a label command): published by the module that runs it. */
export const taskProgressEvent = z.object({
  type: z.literal('taskProgress'),
  /** What kind of task (e.g. "ota") and its id in that kind. */
  kind: z.string(),
  taskId: z.string(),
  done: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  finished: z.boolean(),
  at: z.number().int(),
});

/** An alert of the company was raised, acknowledged or cleared (issue 26): the bell counts again. */
export const alertEvent = z.object({
  type: z.literal('alert'),
  change: z.enum(['raised', 'acknowledged', 'cleared']),
  alertId: z.number().int(),
  ruleId: z.number().int(),
  severity: z.enum(['critical', 'major', 'minor', 'info']),
  /** The panel the alert is about, if it is about one. */
  deviceId: z.number().int().optional(),
  at: z.number().int(),
});

export const liveEvent = z.discriminatedUnion('type', [
  presenceEvent,
  presenceResetEvent,
  commandEvent,
  taskProgressEvent,
  alertEvent,
]);
export type LiveEvent = z.infer<typeof liveEvent>;
export type LiveEventType = LiveEvent['type'];

/** SSE event names besides the data events: `ready` once connected, `end` before the server closes a stream (logout, expiry). */
export const STREAM_READY = 'ready';
export const STREAM_END = 'end';
/**
 * Streams one session holds at once on one server instance (a console opens one per tab). A
 * further one is served and the session's oldest is ended with reason `replaced`: the tab the
 * user just opened is live, the older ones fall back to polling and do not reopen on their own.
 */
export const MAX_STREAMS_PER_SESSION = 4;
/** The `end` event's reason when a newer stream of the same session took this one's place. */
export const STREAM_REPLACED = 'replaced';

export const events = defineCall({
  method: 'GET',
  path: '/platform/live/events',
  summary:
    "The live console: a server-sent-events stream of the caller's scope (presence, command results, task progress). Closed at once when the session ends (sign-out, expiry, disabled user).",
  tag,
  access: users(['0', '1', '2', '3', '4']),
  params: z.object({}),
  reply: liveEvent,
  produces: 'text/event-stream',
});
