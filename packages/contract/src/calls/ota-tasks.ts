import { z } from 'zod';
import { defineCall } from '../call.js';
import { emptyReply, itemReply, listReply } from '../envelope.js';
import { pageParams } from '../rules.js';
import { optionalCalendarDate, utcOffsetParam } from '../dates.js';
import { TARGET_STATES, TASK_STATES } from '../rollouts.js';
import { otaFileIdParam, otaOperators, otaReaders, otaTaskIdParam, positiveId } from './ota-base.js';

// OTA force upgrade by label and the tasks it creates (spec 3 section 2.3); see ota.ts.

const tag = 'ota';

// ---- force upgrade ----

export const WAVE_MODES = ['none', 'count', 'percent'] as const;

/** Defaults of a staged rollout: the wave advances at 90% success and pauses past 20% failures after 5 results. */
export const WAVE_DEFAULTS = { successShare: 90, failureShare: 20, minResults: 5 } as const;

const percentField = (key: string, fallback: number) =>
  z.coerce
    .number({ error: key })
    .int({ error: key })
    .min(1, { error: key })
    .max(100, { error: key })
    .default(fallback);

export const forceUpdate = defineCall({
  method: 'POST',
  path: '/otaFile/forceUpdate',
  summary:
    'Force upgrade: a task with a row per panel of the labels (tagIds). Panels the file does not fit are skipped with the reason. ' +
    'timeEnable "1" starts it at upgradeTime (yyyy-MM-dd HH:mm:00 in the console\'s zone, utcOffset minutes east of UTC), else now. ' +
    'waveMode count|percent rolls out in waves: firstWave panels (or %), then waveStep each; a wave starts when the previous one reached successShare% succeeded; ' +
    'the task pauses itself when more than failureShare% of a wave\'s results (at least minResults) failed. allowDowngrade "1" lets an older version install. ' +
    "maxDownloads caps this task's simultaneous downloads (never above the server's ROLLOUT_MAX_DOWNLOADS).",
  tag,
  access: otaOperators,
  params: z
    .object({
      tagIds: z
        .string({ error: 'upgrade.nullLabel' })
        .trim()
        .min(1, { error: 'upgrade.nullLabel' })
        .transform((text) => [...new Set(text.split(',').map((part) => Number(part.trim())))])
        .refine(
          (ids) =>
            ids.length <= 1000 && ids.every((id) => Number.isInteger(id) && id > 0 && id <= 2_147_483_647),
          {
            error: 'upgrade.noLabel',
          },
        ),
      otaFileId: otaFileIdParam,
      timeEnable: z.enum(['0', '1'], { error: 'ota.timeEnableInvalid' }).default('0'),
      upgradeTime: z.string().trim().max(32).optional(),
      utcOffset: utcOffsetParam.default(0),
      waveMode: z.enum(WAVE_MODES, { error: 'ota.waveInvalid' }).default('none'),
      firstWave: z.coerce
        .number({ error: 'ota.waveInvalid' })
        .int({ error: 'ota.waveInvalid' })
        .min(1, { error: 'ota.waveInvalid' })
        .max(1_000_000, { error: 'ota.waveInvalid' })
        .optional(),
      waveStep: z.coerce
        .number({ error: 'ota.waveInvalid' })
        .int({ error: 'ota.waveInvalid' })
        .min(1, { error: 'ota.waveInvalid' })
        .max(1_000_000, { error: 'ota.waveInvalid' })
        .optional(),
      successShare: percentField('ota.shareInvalid', WAVE_DEFAULTS.successShare),
      failureShare: percentField('ota.shareInvalid', WAVE_DEFAULTS.failureShare),
      minResults: z.coerce
        .number({ error: 'ota.shareInvalid' })
        .int({ error: 'ota.shareInvalid' })
        .min(1, { error: 'ota.shareInvalid' })
        .max(100_000, { error: 'ota.shareInvalid' })
        .default(WAVE_DEFAULTS.minResults),
      allowDowngrade: z.enum(['0', '1'], { error: 'common.invalidParams' }).default('0'),
      /** "1": panels that start to match the labels (dynamic ones) while the task runs are added to its last wave. */
      keepAdding: z.enum(['0', '1'], { error: 'common.invalidParams' }).default('0'),
      maxDownloads: z.coerce
        .number({ error: 'ota.capInvalid' })
        .int({ error: 'ota.capInvalid' })
        .min(1, { error: 'ota.capInvalid' })
        .max(100_000, { error: 'ota.capInvalid' })
        .optional(),
    })
    .refine((p) => p.waveMode === 'none' || p.firstWave !== undefined, {
      error: 'ota.waveInvalid',
      path: ['firstWave'],
    })
    .refine((p) => p.waveMode !== 'percent' || ((p.firstWave ?? 1) <= 100 && (p.waveStep ?? 1) <= 100), {
      error: 'ota.waveInvalid',
      path: ['firstWave'],
    }),
  reply: itemReply(
    z.object({
      otaTaskId: z.number().int(),
      /** Rows made: panels in the labels. */
      deviceCount: z.number().int(),
      /** Of them skipped at once (the file does not fit, disabled panel, already on that version). */
      skippedCount: z.number().int(),
      waveCount: z.number().int(),
    }),
  ),
});

// ---- tasks ----

export const otaTask = z.object({
  otaTaskId: z.number().int(),
  otaFileId: z.number().int(),
  fileName: z.string(),
  otaVersion: z.string(),
  /** The machine types of the file (comma-separated names). */
  machineType: z.string(),
  operateMan: z.string(),
  /** "0" not finished (may be cancelled), "1" finished (view only). */
  deviceUpgradeState: z.enum(['0', '1']),
  state: z.enum(TASK_STATES),
  /** Why the task paused itself or missed its time (a message in the caller's language), '' otherwise. */
  stateReason: z.string(),
  createDate: z.number(),
  lastUpdateDate: z.number(),
  /** When it starts or started (epoch ms). */
  upgradeTime: z.number(),
  /** "1" timed. */
  timeEnable: z.enum(['0', '1']),
  /** A timed task still fires after a server outage until this time (upgradeTime + the late window); later it is missed. */
  fireBy: z.number().nullable(),
  firedAt: z.number().nullable(),
  allowDowngrade: z.enum(['0', '1']),
  /** "1": panels that start to match its labels while it runs are added (dynamic labels). */
  keepAdding: z.enum(['0', '1']),
  maxDownloads: z.number().int().nullable(),
  waveMode: z.enum(WAVE_MODES),
  successShare: z.number().int(),
  failureShare: z.number().int(),
  minResults: z.number().int(),
  /** The wave now running (0-based). */
  currentWave: z.number().int(),
  waveCount: z.number().int(),
  total: z.number().int(),
  /** Panels per state. */
  counts: z.record(z.enum(TARGET_STATES), z.number().int()),
  /** "1" when the caller may cancel, pause or resume it. */
  canManage: z.enum(['1', '0']),
});
export type OtaTask = z.infer<typeof otaTask>;

export const otaWave = z.object({
  wave: z.number().int(),
  size: z.number().int(),
  /** pending, running, done */
  state: z.enum(['pending', 'running', 'done']),
  startedAt: z.number().nullable(),
  counts: z.record(z.enum(TARGET_STATES), z.number().int()),
});

export const listOtaTasks = defineCall({
  method: 'GET',
  path: '/otaTask/list',
  summary:
    "One page of OTA tasks within reach, newest first; operateDate (yyyy-MM-dd, the console's day by utcOffset) filters by creation day",
  tag,
  access: otaReaders,
  params: pageParams.extend({
    operateDate: optionalCalendarDate(),
    utcOffset: utcOffsetParam.optional(),
  }),
  reply: listReply(otaTask),
});

export const getOtaTask = defineCall({
  method: 'GET',
  path: '/otaTask/selectById',
  summary: 'One task with its waves (the view dialog and the wave progress bars)',
  tag,
  access: otaReaders,
  params: z.object({ otaTaskId: otaTaskIdParam }),
  reply: itemReply(otaTask.extend({ waves: z.array(otaWave) })),
});

export const otaTaskDevice = z.object({
  deviceId: z.number().int(),
  deviceName: z.string(),
  deviceKey: z.string(),
  isOnline: z.enum(['1', '0']),
  /** The version the panel had when the task was made, and the one it installs. */
  otaVersionCurrent: z.string(),
  otaVersionUpdate: z.string(),
  /** 1 once it installed the update. */
  deviceUpgraded: z.union([z.literal(0), z.literal(1)]),
  state: z.enum(TARGET_STATES),
  /** Why skipped, failed or cancelled ('' otherwise); the console translates ota.reason.<reason>. */
  reason: z.string(),
  /** Download progress 0-100 while downloading (bytes stored / size), null otherwise. */
  progress: z.number().int().nullable(),
  /** The panel's wave (0 first); null for a panel skipped when the task was made (in no wave). */
  wave: z.number().int().nullable(),
  /** Not before this time (a policy's time-zone window), when waiting. */
  notBefore: z.number().nullable(),
  updatedAt: z.number(),
});

export const listOtaTaskDevices = defineCall({
  method: 'GET',
  path: '/otaTask/listDevice',
  summary: "One page of a task's panels with their states (the manage dialog); state filters",
  tag,
  access: otaReaders,
  params: pageParams.extend({
    otaTaskId: otaTaskIdParam,
    state: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.enum(TARGET_STATES, { error: 'common.invalidParams' }).optional(),
    ),
  }),
  reply: listReply(otaTaskDevice),
});

export const cancelOtaTask = defineCall({
  method: 'POST',
  path: '/otaTask/cancel',
  summary:
    'Cancel all: every panel not yet finished is cancelled (a download in progress stops); panels already verifying or installing finish',
  tag,
  access: otaOperators,
  params: z.object({ otaTaskId: otaTaskIdParam }),
  reply: itemReply(z.object({ cancelled: z.number().int() })),
});

export const cancelOtaTaskDevice = defineCall({
  method: 'POST',
  path: '/otaTask/cancelDevice',
  summary:
    'Cancel one panel of a task (its download stops); refused once it verifies or installs, or is finished',
  tag,
  access: otaOperators,
  params: z.object({ otaTaskId: otaTaskIdParam, deviceId: positiveId('device.notFound') }),
  reply: emptyReply,
});

export const pauseOtaTask = defineCall({
  method: 'POST',
  path: '/otaTask/pause',
  summary: 'Pause: no new panel starts; downloads in progress go on',
  tag,
  access: otaOperators,
  params: z.object({ otaTaskId: otaTaskIdParam }),
  reply: emptyReply,
});

export const resumeOtaTask = defineCall({
  method: 'POST',
  path: '/otaTask/resume',
  summary:
    'Resume a paused task; after an automatic pause the operator accepts that wave and the next one starts',
  tag,
  access: otaOperators,
  params: z.object({ otaTaskId: otaTaskIdParam }),
  reply: emptyReply,
});

export const rolloutSettings = defineCall({
  method: 'GET',
  path: '/otaTask/settings',
  summary: "The server's rollout settings: late window of timed tasks, download cap, start jitter (ms)",
  tag,
  access: otaReaders,
  params: z.object({}),
  reply: itemReply(
    z.object({ lateWindowMs: z.number().int(), maxDownloads: z.number().int(), jitterMs: z.number().int() }),
  ),
});
