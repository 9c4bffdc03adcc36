import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers } from '../access.js';
import { itemReply } from '../envelope.js';
import { recordId } from '../ids.js';

// Each panel's history in the device detail (issue 27 item 5): presence, the state it reported,
// firmware and app version changes, commands, rollouts and screenshots, over a chosen range.

const tag = 'device detail';
const DAY_MS = 86_400_000;
/** The longest range one request reads: a quarter (the default retention). */
export const PANEL_HISTORY_MAX_RANGE_MS = 92 * DAY_MS;
/** Up to this long a range reads the changes row by row (when they are still kept so); beyond, per hour. */
export const PANEL_HISTORY_RAW_RANGE_MS = 2 * DAY_MS;

const epochMs = z.coerce
  .number({ error: 'panelHistory.rangeInvalid' })
  .int({ error: 'panelHistory.rangeInvalid' })
  .min(0, { error: 'panelHistory.rangeInvalid' });

export const historyParams = z
  .object({ deviceId: recordId('device.notFound'), from: epochMs, to: epochMs })
  .refine((v) => v.to > v.from && v.to - v.from <= PANEL_HISTORY_MAX_RANGE_MS, {
    error: 'panelHistory.rangeInvalid',
    path: ['to'],
  });

/** A point of a numeric group: its values (per hour: the hour's average, with n1's minimum and maximum). */
export const historyPoint = z.object({
  at: z.number().int(),
  n1: z.number().nullable(),
  n2: z.number().nullable(),
  n3: z.number().nullable(),
  txt: z.string().nullable(),
  min: z.number().nullable(),
  max: z.number().nullable(),
});
export type HistoryPoint = z.infer<typeof historyPoint>;

/** A change of a text value: the signal source, the power state, the firmware version. */
export const historyChange = z.object({ at: z.number().int(), value: z.string() });

export const PRESENCE_REASONS = ['connected', 'disconnected', 'keepalive', 'instanceLost'] as const;
export const presenceChange = z.object({
  at: z.number().int(),
  online: z.boolean(),
  reason: z.enum(PRESENCE_REASONS),
});

/** A change of an installed app: installed (from null), removed (to null) or another version. */
export const appChange = z.object({
  at: z.number().int(),
  packageName: z.string(),
  appName: z.string(),
  from: z.string().nullable(),
  to: z.string().nullable(),
});
export type AppChange = z.infer<typeof appChange>;

/** A screenshot stored in the range; its picture and thumbnail come from `screenshotImage`. */
export const historyScreenshot = z.object({
  screenshotId: z.number().int(),
  at: z.number().int(),
  /** The user who asked for it, null when that user is gone. */
  requestedBy: z.string().nullable(),
});

export const historyCommand = z.object({
  commandId: z.string(),
  orderCode: z.string(),
  status: z.string(),
  createdAt: z.number().int(),
});

export const historyRollout = z.object({
  taskId: z.number().int(),
  /** The rollout's kind ('ota') and what it installs (the version). */
  kind: z.string(),
  name: z.string(),
  status: z.string(),
  createdAt: z.number().int(),
});

export const panelHistory = z.object({
  from: z.number().int(),
  to: z.number().int(),
  /** 'raw': every change; 'hour': one point per hour (averages). */
  resolution: z.enum(['raw', 'hour']),
  /** Online before the range starts (the last presence change before it), null when unknown. */
  onlineAtStart: z.boolean().nullable(),
  presence: z.array(presenceChange),
  /** temperature (n1 °C), RAM used (n2 bytes), RAM total (n3 bytes). */
  telemetry: z.array(historyPoint),
  /** brightness (n1, 0-100). */
  brightness: z.array(historyPoint),
  /** volume (n1, 0-100), mute (n2, 0/1). */
  sound: z.array(historyPoint),
  /** network strength (n1), network state (txt). */
  network: z.array(historyPoint),
  source: z.array(historyChange),
  power: z.array(historyChange),
  firmware: z.array(historyChange),
  apps: z.array(appChange),
  commands: z.array(historyCommand),
  rollouts: z.array(historyRollout),
  /** Screenshots stored in the range, oldest first (at most 200). */
  screenshots: z.array(historyScreenshot),
});
export type PanelHistory = z.infer<typeof panelHistory>;

export const selectPanelHistory = defineCall({
  method: 'GET',
  path: '/platform/device/history',
  summary:
    "One panel's history over a range (at most 92 days): presence, reported state (every change up to 2 days, per hour beyond), firmware and app versions, commands, rollouts, screenshots",
  tag,
  access: callers.deviceOperators,
  params: historyParams,
  reply: itemReply(panelHistory),
});
