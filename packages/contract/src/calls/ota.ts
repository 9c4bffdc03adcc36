import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers, users } from '../access.js';
import { emptyReply, itemReply, listReply, okBase } from '../envelope.js';
import { optionalText, pageParams, requiredText } from '../rules.js';
import { optionalCalendarDate, utcOffsetParam } from '../dates.js';
import {
  DESCRIPTION_LANGUAGES,
  OTA_LOG_STATUSES,
  TARGET_STATES,
  TASK_STATES,
  VERSION_PATTERN,
} from '../rollouts.js';

/**
 * OTA firmware (spec 3 sections 2.1, 2.3, 2.4, 2.8): files, their descriptions in 36 languages,
 * force upgrade by label (a task with a row per panel, optionally timed and in waves), the task
 * list and its manage dialog, the OTA version catalog and the OTA log. Policies are in
 * ota-rules.ts, uploads in uploads.ts. Paths the spec does not show are chosen in its style.
 *
 * Tenancy: a file, its descriptions and a policy belong to the organisation that made them. A
 * caller sees the files of its own organisation and of the organisations above it (a customer
 * sees what its distributor and the platform publish) and changes only its own. Tasks belong to
 * the customer whose panels they update: the company account and its administrators (types 2
 * and 4) create and steer them; the platform, a distributor and a customer manager read them
 * within their reach (all, their customers', their own company's), as in the customer lists.
 */

const tag = 'ota';

/** Who opens the OTA screens (otaPromote: 0, 1, 1-special, 3; upgradeManage: 4). */
export const otaPublishers = users(['0', '1', '3', '4'], { deployment: 'any' });
/** Who reads tasks and the OTA log within their reach. */
export const otaReaders = users(['0', '1', '2', '3', '4'], { deployment: 'any' });
/** Who creates and steers tasks: the operators of the company's panels. */
export const otaOperators = callers.deviceOperators;

const positiveId = (key: string) =>
  z.coerce
    .number({ error: key })
    .int({ error: key })
    .positive({ error: key })
    .max(2_147_483_647, { error: key });

export const otaFileIdParam = positiveId('ota.fileNotFound');
export const otaTaskIdParam = positiveId('ota.taskNotFound');
export const otaDescriptionIdParam = positiveId('ota.descriptionNotFound');
export const otaVersionIdParam = positiveId('otaVersion.notFound');

/** Comma-separated catalog ids as forms send them ("" is none). */
const idCsv = (key: string, required: boolean) =>
  z
    .string()
    .trim()
    .max(2000, { error: key })
    .default('')
    .transform((text) => (text === '' ? [] : text.split(',').map((part) => Number(part.trim()))))
    .refine((ids) => ids.every((id) => Number.isInteger(id) && id > 0 && id <= 2_147_483_647), { error: key })
    .transform((ids) => [...new Set(ids)])
    .refine((ids) => !required || ids.length > 0, { error: key })
    .refine((ids) => ids.length <= 100, { error: key });

export const versionField = (emptyKey: string) =>
  z
    .string({ error: emptyKey })
    .trim()
    .min(1, { error: emptyKey })
    .refine((v) => VERSION_PATTERN.test(v), { error: 'ota.versionInvalid' });

// ---- files ----

export const otaFile = z.object({
  id: z.number().int(),
  /** The name the file was uploaded with. */
  fileName: z.string(),
  /** The version this image installs (signed into its manifest). */
  otaVersion: z.string(),
  fileSize: z.number().int(),
  fileMd5: z.string(),
  sha256: z.string(),
  /** Versions the image may be installed over (names and ids, comma-separated; empty: any). */
  fitOtaVersion: z.string(),
  fitOtaVersionId: z.string(),
  /** Machine types it fits (names and ids, comma-separated). */
  fitMachineType: z.string(),
  fitMachineTypeId: z.string(),
  /** The upgrade policy applied when it is dispatched ('' and null: none). */
  otaFileRuleName: z.string(),
  otaRuleId: z.number().int().nullable(),
  /** Who uploaded it. */
  userName: z.string(),
  remarkFileName: z.string(),
  createDate: z.number(),
  /** Panels that installed it; 0 shows the New badge. */
  finishUpgradeDeviceCount: z.number().int(),
  /** '1' when the caller's organisation owns it (edit, delete, descriptions); '0' for a file published above it. */
  owned: z.enum(['1', '0']),
  /** Tasks not finished that use it (delete is refused while not 0). */
  openTaskCount: z.number().int(),
  /** The signed manifest (JSON text) and its Ed25519 signature (base64), as panels receive them. */
  manifest: z.string(),
  signature: z.string(),
});
export type OtaFile = z.infer<typeof otaFile>;

export const listOtaFiles = defineCall({
  method: 'GET',
  path: '/otaFile/list',
  summary:
    'One page of the OTA files the caller sees (its own and those published above it), newest first; fileName: any part, any case',
  tag,
  access: otaPublishers,
  params: pageParams.extend({ fileName: optionalText(255) }),
  reply: listReply(otaFile),
});

export const getOtaFile = defineCall({
  method: 'GET',
  path: '/otaFile/selectById',
  summary: 'One OTA file (the view dialog)',
  tag,
  access: otaPublishers,
  params: z.object({ otaFileId: otaFileIdParam }),
  reply: itemReply(otaFile),
});

const otaFileFields = {
  fitMachineTypeId: idCsv('ota.machineTypeNull', true),
  fitOtaVersionId: idCsv('ota.fromVersionInvalid', false),
  otaRuleId: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    positiveId('otaRule.notFound').optional(),
  ),
  remarkFileName: optionalText(200),
};

export const insertOtaFile = defineCall({
  method: 'POST',
  path: '/otaFile/insert',
  summary:
    'Make an OTA file of a finished upload (uploadId from /upload/tus): the version it installs (unique in the company), the machine types it fits (enabled ones), the versions it may be installed over, an optional policy and a remark. The server signs its manifest (Ed25519).',
  tag,
  access: otaPublishers,
  params: z.object({
    uploadId: z
      .string({ error: 'upload.notFound' })
      .trim()
      .regex(/^[0-9a-f]{32}$/, { error: 'upload.notFound' }),
    otaVersion: versionField('ota.versionNull'),
    ...otaFileFields,
  }),
  reply: itemReply(z.object({ id: z.number().int() })),
});

export const updateOtaFile = defineCall({
  method: 'POST',
  path: '/otaFile/update',
  summary:
    'Change what an own file fits, its policy and remark (the image and its version stay; the manifest is signed again). Refused while an unfinished task uses it.',
  tag,
  access: otaPublishers,
  params: z.object({ otaFileId: otaFileIdParam, ...otaFileFields }),
  reply: emptyReply,
});

export const deleteOtaFile = defineCall({
  method: 'POST',
  path: '/otaFile/delete',
  summary: 'Delete an own file and its descriptions; refused while an unfinished task uses it',
  tag,
  access: otaPublishers,
  params: z.object({ otaFileId: otaFileIdParam }),
  reply: emptyReply,
});

// ---- descriptions ----

export const DESCRIPTION_MAX = 2000;
export const REMIND_MAX = 500;

export const otaDescription = z.object({
  id: z.number().int(),
  otaFileId: z.number().int(),
  fileName: z.string(),
  language: z.enum(DESCRIPTION_LANGUAGES),
  textContent: z.string(),
  /** The reminder a panel shows before installing (the edit-reminder dialog). */
  remindText: z.string(),
  /** Who last changed it. */
  userName: z.string(),
  /** Who wrote it first. */
  createUser: z.string(),
  updateDate: z.number(),
});

const languageField = z.enum(DESCRIPTION_LANGUAGES, { error: 'ota.languageInvalid' });
const textContentField = requiredText('ota.descriptionNull', DESCRIPTION_MAX, 'ota.descriptionTooLong');
const remindField = z
  .string()
  .trim()
  .max(REMIND_MAX, { error: 'ota.remindTooLong' })
  .optional()
  .transform((v) => v ?? '');

export const listOtaDescriptions = defineCall({
  method: 'GET',
  path: '/otaFile/listOtaDescription',
  summary: 'One page (5 in the console) of the descriptions of a file the caller sees',
  tag,
  access: otaPublishers,
  params: pageParams.extend({ otaFileId: otaFileIdParam }),
  reply: listReply(otaDescription),
});

export const viewOtaDescription = defineCall({
  method: 'POST',
  path: '/otaFile/viewDescription',
  summary: "A description's text (spec: listObject is the text)",
  tag,
  access: otaPublishers,
  params: z.object({ id: otaDescriptionIdParam }),
  reply: okBase.extend({ listObject: z.string(), dataObject: otaDescription }),
});

export const addOtaDescription = defineCall({
  method: 'POST',
  path: '/otaFile/addDescription',
  summary: 'Add the description of an own file in one language (one per language)',
  tag,
  access: otaPublishers,
  params: z.object({
    otaFileId: otaFileIdParam,
    language: languageField,
    textContent: textContentField,
    remindText: remindField,
  }),
  reply: itemReply(z.object({ id: z.number().int() })),
});

export const updateOtaDescription = defineCall({
  method: 'POST',
  path: '/otaFile/updateDescription',
  summary: 'Change a description of an own file (its language too, if that language is free)',
  tag,
  access: otaPublishers,
  params: z.object({
    id: otaDescriptionIdParam,
    language: languageField,
    textContent: textContentField,
    remindText: remindField,
  }),
  reply: emptyReply,
});

export const updateOtaRemind = defineCall({
  method: 'POST',
  path: '/otaFile/updateRemind',
  summary: 'Change the reminder text of a description (the edit-reminder dialog)',
  tag,
  access: otaPublishers,
  params: z.object({ id: otaDescriptionIdParam, remindText: remindField }),
  reply: emptyReply,
});

export const deleteOtaDescription = defineCall({
  method: 'POST',
  path: '/otaFile/deleteDescription',
  summary: 'Delete a description of an own file',
  tag,
  access: otaPublishers,
  params: z.object({ id: otaDescriptionIdParam }),
  reply: emptyReply,
});

// ---- options of the file dialogs ----

export const machineTypeOption = z.object({ machineTypeId: z.number().int(), machineType: z.string() });
export const otaVersionOption = z.object({ otaVersionId: z.number().int(), otaVersion: z.string() });
export const otaRuleOption = z.object({ otaRuleId: z.number().int(), name: z.string() });

export const listMachineTypeOptions = defineCall({
  method: 'GET',
  path: '/otaFile/machineTypeOptions',
  summary: 'Enabled machine types, by name (a disabled one is not offered)',
  tag,
  access: otaReaders,
  params: z.object({}),
  reply: listReply(machineTypeOption),
});

export const listOtaVersionOptions = defineCall({
  method: 'GET',
  path: '/otaFile/otaVersionOptions',
  summary: 'Enabled OTA versions of the catalog, by name (a disabled one is not offered)',
  tag,
  access: otaPublishers,
  params: z.object({}),
  reply: listReply(otaVersionOption),
});

export const listOtaRuleOptions = defineCall({
  method: 'GET',
  path: '/otaFile/ruleOptions',
  summary: "The caller's organisation's upgrade policies, by name",
  tag,
  access: otaPublishers,
  params: z.object({}),
  reply: listReply(otaRuleOption),
});

export const firmwareKey = defineCall({
  method: 'GET',
  path: '/otaFile/signingKey',
  summary:
    "The platform's Ed25519 public key that panels verify manifests with (raw 32 bytes, base64), as given at enrollment",
  tag,
  access: otaPublishers,
  params: z.object({}),
  reply: itemReply(z.object({ algorithm: z.literal('ed25519'), publicKey: z.string() })),
});

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

// ---- OTA versions (catalog, spec 3 section 2.4) ----

export const otaVersion = z.object({
  otaVersionId: z.number().int(),
  otaVersion: z.string(),
  /** "1" enabled, "0" disabled (not offered). */
  enable: z.enum(['1', '0']),
  creationDate: z.number(),
  lastUpdateDate: z.number(),
  lastUpdateMan: z.string(),
  /**
   * OTA files that name it (as the version they install or one they install over) and devices
   * that report it, within the reader's reach (the platform sees all). Edit and delete are
   * refused while not 0.
   */
  referenceCount: z.number().int(),
});

const otaVersionFields = {
  otaVersion: versionField('noneVersion'),
  enable: z.enum(['1', '0'], { error: 'otaVersion.enableInvalid' }).default('1'),
};

export const listOtaVersions = defineCall({
  method: 'GET',
  path: '/otaVersion/list',
  summary: 'One page of the OTA version catalog, optionally by name',
  tag,
  access: callers.catalogReaders,
  params: pageParams.extend({ otaVersion: optionalText(64) }),
  reply: listReply(otaVersion),
});

export const insertOtaVersion = defineCall({
  method: 'POST',
  path: '/otaVersion/insert',
  summary: 'Add an OTA version (unique name; platform only)',
  tag,
  access: callers.catalogEditors,
  params: z.object(otaVersionFields),
  reply: itemReply(z.object({ otaVersionId: z.number().int() })),
});

export const updateOtaVersion = defineCall({
  method: 'POST',
  path: '/otaVersion/update',
  summary: 'Change an OTA version nothing refers to (platform only)',
  tag,
  access: callers.catalogEditors,
  params: z.object({ otaVersionId: otaVersionIdParam, ...otaVersionFields }),
  reply: emptyReply,
});

export const deleteOtaVersion = defineCall({
  method: 'POST',
  path: '/otaVersion/delete',
  summary: 'Delete an OTA version nothing refers to (platform only; POST, not the GET the spec shows)',
  tag,
  access: callers.catalogEditors,
  params: z.object({ otaVersionId: otaVersionIdParam }),
  reply: emptyReply,
});

// ---- OTA log (spec 3 section 2.8) ----

export const otaLogRow = z.object({
  /** The task row's id. */
  id: z.number().int(),
  otaTaskId: z.number().int(),
  deviceKey: z.string(),
  deviceName: z.string(),
  machineType: z.string(),
  /** The version before, and the one the task installs. */
  otaVersion: z.string(),
  otaNewVersion: z.string(),
  /** 0 waiting for update, 1 success, 2 failed, 3 abnormal (skipped or cancelled). */
  status: z.enum(OTA_LOG_STATUSES),
  state: z.enum(TARGET_STATES),
  reason: z.string(),
  creationDate: z.number(),
  updateDate: z.number(),
});

export const listOtaLog = defineCall({
  method: 'GET',
  path: '/otaLog/listOtaLog',
  summary:
    'One page of OTA results per panel within reach, newest first; by device key (start of it), OTA version (either side) and status',
  tag,
  access: otaReaders,
  params: pageParams.extend({
    deviceKey: optionalText(64),
    otaVersion: optionalText(64),
    status: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.enum(OTA_LOG_STATUSES, { error: 'otaLog.statusInvalid' }).optional(),
    ),
  }),
  reply: listReply(otaLogRow),
});
