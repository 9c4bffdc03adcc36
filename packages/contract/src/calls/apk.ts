import { z } from 'zod';
import { defineCall, type MultipartFile } from '../call.js';
import { callers, users } from '../access.js';
import { emptyReply, itemReply, listReply } from '../envelope.js';
import { optionalText, pageParams } from '../rules.js';
import { TARGET_STATES, TASK_STATES } from '../rollouts.js';
import { panelMatching, targetKinds } from '../device/selection.js';

/**
 * The APK repository (spec 3 sections 2.6 and 7, checklist WP-5): an application card per
 * package, its versions and each version's auxiliary apps. Files arrive through the resumable
 * upload (uploads.ts, kind `apk`); the calls below take a finished upload by its uploadId, as
 * the OTA file calls do, instead of the original multipart body. The server reads every APK:
 * package name, label, versionName, versionCode, minimum SDK, launcher icon and the signing
 * certificate of its v2/v3 signature, and refuses what is not an APK, a zip bomb, a new version
 * of another package, a versionCode not above the latest (unless `downgrade` is "1"), and a
 * signer other than the card's.
 *
 * Tenancy: cards belong to the organisation that uploaded them; another company's card, version
 * or auxiliary app reads as missing.
 */

const tag = 'apk';

/** Who opens the APK screen: apk is a tab of otaPromote (0, 1, 3) and upgradeManage (4). */
export const apkManagers = users(['0', '1', '3', '4'], { deployment: 'any' });

const positiveId = (key: string) =>
  z.coerce
    .number({ error: key })
    .int({ error: key })
    .positive({ error: key })
    .max(2_147_483_647, { error: key });

export const apkMarkIdParam = positiveId('apk.cardNotFound');
export const apkVersionIdParam = positiveId('apk.versionNotFound');
export const apkFileSubIdParam = positiveId('apk.subNotFound');

const uploadIdField = z
  .string({ error: 'upload.notFound' })
  .trim()
  .regex(/^[0-9a-f]{32}$/, { error: 'upload.notFound' });

/**
 * The APK itself, one of two ways: `uploadId`, a finished resumable upload (any size, the
 * console's way), or `file`, the spec's multipart field (small files, up to the server's
 * multipart limit).
 */
const fileParam = z
  .custom<MultipartFile>((v) => typeof v === 'object' && v !== null && 'bytes' in v && 'fileName' in v, {
    error: 'apk.fileNull',
  })
  .optional();
const fileOrUpload = { uploadId: uploadIdField.optional(), file: fileParam };
const oneFile = (p: { uploadId?: string; file?: MultipartFile }) =>
  (p.uploadId === undefined) !== (p.file === undefined);

/** A version's description (spec 3 section 9: 200 units, wide characters count 2). */
export const APK_REMARK_MAX = 200;
const remarkField = optionalText(APK_REMARK_MAX, 'apk.remarkTooLong').transform((v) => v ?? '');

/** One box of the four-part mark: at most 4 characters, no Chinese characters. */
export const MARK_PART_MAX = 4;
const markPart = /^[^\u3400-\u9fff\uf900-\ufaff]{1,4}$/;

/** The mark as the form sends it: four parts joined by "-" (each 1-4 characters, no "-"). */
export const markField = z
  .string({ error: 'apk.markNull' })
  .trim()
  .min(1, { error: 'apk.markNull' })
  .max(32, { error: 'apk.markInvalid' })
  .refine((v) => v.split('-').length === 4, { error: 'apk.markNull' })
  .refine((v) => v.split('-').every((p) => p.trim() !== ''), { error: 'apk.markNull' })
  .refine((v) => v.split('-').every((p) => markPart.test(p.trim())), { error: 'apk.markInvalid' })
  .transform((v) =>
    v
      .split('-')
      .map((p) => p.trim())
      .join('-'),
  );

export const apkCard = z.object({
  apkMarkId: z.number().int(),
  /** The icon's URL (GET /apkUpgrade/icon), '' when the APK has none (the console shows its default image). */
  iconName: z.string(),
  label: z.string(),
  mark: z.string(),
  remark: z.string(),
  packageName: z.string(),
  /** When the latest version was uploaded. */
  apkVersionDate: z.number(),
  versionName: z.string(),
  versionCode: z.number().int(),
  /** Bytes of the latest version. */
  fileSize: z.number().int(),
  /** SHA-256 of the certificate every version is signed with. */
  signerSha256: z.string(),
  versionCount: z.number().int(),
});
export type ApkCard = z.infer<typeof apkCard>;

export const apkFileSub = z.object({
  apkFileSubId: z.number().int(),
  apkVersionId: z.number().int(),
  packageName: z.string(),
  label: z.string(),
  iconName: z.string(),
  fileName: z.string(),
  versionName: z.string(),
  fileSize: z.number().int(),
});
export type ApkFileSub = z.infer<typeof apkFileSub>;

export const apkVersion = z.object({
  apkVersionId: z.number().int(),
  apkMarkId: z.number().int(),
  versionName: z.string(),
  versionCode: z.number().int(),
  /** 1 for the latest version (the one installs use), 0 otherwise. */
  logo: z.union([z.literal(1), z.literal(0)]),
  fileName: z.string(),
  fileSize: z.number().int(),
  sha256: z.string(),
  minSdk: z.number().int().nullable(),
  label: z.string(),
  iconName: z.string(),
  creationDate: z.number(),
  /** The operator who uploaded it. */
  userName: z.string(),
  /** Its description. */
  remark: z.string(),
  /** "1" when it was uploaded deliberately below the latest versionCode. */
  downgrade: z.enum(['0', '1']),
  apkFileSubList: z.array(apkFileSub),
});
export type ApkVersion = z.infer<typeof apkVersion>;

export const listApkCards = defineCall({
  method: 'GET',
  path: '/apkUpgrade/listUploadApk',
  summary: "One page of the caller's company's application cards, newest first; label: any part, any case",
  tag,
  access: apkManagers,
  params: pageParams.extend({ label: optionalText(255) }),
  reply: listReply(apkCard),
});

export const apkDetails = defineCall({
  method: 'GET',
  path: '/apkUpgrade/apkDetails',
  summary:
    "A card's versions, newest first, with their auxiliary apps (the console asks page 1, size 100); dataObject is the card",
  tag,
  access: apkManagers,
  params: pageParams.extend({ apkMarkId: apkMarkIdParam }),
  reply: listReply(apkVersion).extend({ dataObject: apkCard }),
});

const uploaded = itemReply(
  z.object({
    apkMarkId: z.number().int(),
    apkVersionId: z.number().int(),
    packageName: z.string(),
    label: z.string(),
    versionName: z.string(),
    versionCode: z.number().int(),
  }),
);

export const uploadApk = defineCall({
  method: 'POST',
  path: '/apkUpgrade/uploadApkPackage',
  summary:
    'A new application card from a finished upload (kind apk, uploadId) or a multipart `file` (small files): the four-part mark and a description. Refused when the file is not an APK, and when a card of the same package exists (upload a new version there).',
  tag,
  access: apkManagers,
  multipartFile: 'file',
  params: z
    .object({ ...fileOrUpload, mark: markField, remark: remarkField })
    .refine(oneFile, { error: 'apk.fileOrUpload' }),
  reply: uploaded,
});

export const uploadNewApkVersion = defineCall({
  method: 'POST',
  path: '/apkUpgrade/uploadNewApkPackage',
  summary:
    'A new version of a card from a finished upload (uploadId) or a multipart `file` (small files): same package, same signer, versionCode above the latest (downgrade "1" lets a lower one in, deliberately); it becomes the latest',
  tag,
  access: apkManagers,
  multipartFile: 'file',
  params: z
    .object({
      ...fileOrUpload,
      apkMarkId: apkMarkIdParam,
      remark: remarkField,
      downgrade: z.enum(['0', '1'], { error: 'common.invalidParams' }).default('0'),
    })
    .refine(oneFile, { error: 'apk.fileOrUpload' }),
  reply: uploaded,
});

export const uploadApkFileSub = defineCall({
  method: 'POST',
  path: '/apkUpgrade/uploadApkFileSub',
  summary:
    'An auxiliary app of a version, from a finished upload (uploadId) or a multipart `file` (any package; it is read and checked like any APK)',
  tag,
  access: apkManagers,
  multipartFile: 'file',
  params: z
    .object({ ...fileOrUpload, apkMarkId: apkMarkIdParam, apkVersionId: apkVersionIdParam })
    .refine(oneFile, { error: 'apk.fileOrUpload' }),
  reply: itemReply(z.object({ apkFileSubId: z.number().int() })),
});

export const deleteApkFileSub = defineCall({
  method: 'POST',
  path: '/apkUpgrade/deleteApkFileSub',
  summary: 'Delete an auxiliary app and its file',
  tag,
  access: apkManagers,
  params: z.object({ apkFileSubId: apkFileSubIdParam }),
  reply: emptyReply,
});

export const updateApkRemark = defineCall({
  method: 'POST',
  path: '/apkUpgrade/updateApkRemark',
  summary: "Change a version's description",
  tag,
  access: apkManagers,
  params: z.object({ apkVersionId: apkVersionIdParam, remark: remarkField }),
  reply: emptyReply,
});

export const deleteApkVersion = defineCall({
  method: 'POST',
  path: '/apkUpgrade/deleteApkUpgrade',
  summary:
    'Delete a version with its auxiliary apps and files; refused while an unfinished install uses it. The card goes with its last version (cardDeleted "1").',
  tag,
  access: apkManagers,
  params: z.object({ apkVersionId: apkVersionIdParam }),
  reply: itemReply(z.object({ cardDeleted: z.enum(['0', '1']) })),
});

export const apkIcon = defineCall({
  method: 'GET',
  path: '/apkUpgrade/icon',
  summary: "A version's or auxiliary app's launcher icon as read from its APK (PNG, at most 192 px)",
  tag,
  access: apkManagers,
  params: z.object({
    kind: z.enum(['version', 'sub'], { error: 'common.invalidParams' }),
    id: positiveId('apk.iconNotFound'),
  }),
  reply: z.unknown(),
  produces: 'image/png',
});

/** Comma-separated positive ids (deviceIds, tagIds); empty or absent is none. */
const optionalIds = (max: number, invalidKey: string) =>
  z
    .string({ error: invalidKey })
    .trim()
    .optional()
    .transform((text) =>
      text ? [...new Set(text.split(',').map((part) => Number(part.trim())))] : ([] as number[]),
    )
    .refine(
      (ids) => ids.length <= max && ids.every((id) => Number.isInteger(id) && id > 0 && id <= 2_147_483_647),
      { error: invalidKey },
    );

export const installApk = defineCall({
  method: 'POST',
  path: '/apkUpgrade/install',
  summary:
    'Install a version on chosen panels (deviceIds) or on the panels of labels (tagIds), comma-separated, or on every enabled panel matching a filter (matching, JSON body; at most 10,000), of the caller\'s company: a rollout task of kind apk with a row per panel (disabled panels skipped); each panel downloads the APK through its signed URL, checks size, SHA-256, package and signer, installs it and reports its apps. allowDowngrade "1" lets a lower versionCode replace the installed one. Follow it with listInstallTaskDevices.',
  tag,
  access: callers.deviceOperators,
  params: z
    .object({
      apkVersionId: apkVersionIdParam,
      deviceIds: optionalIds(10_000, 'device.notFound'),
      tagIds: optionalIds(1000, 'label.notFound'),
      allowDowngrade: z.enum(['0', '1'], { error: 'common.invalidParams' }).default('0'),
      matching: panelMatching.optional(),
    })
    .refine((p) => p.deviceIds.length + p.tagIds.length > 0 || p.matching, { error: 'apk.selectTarget' })
    .refine((p) => targetKinds(p) <= 1, { error: 'apk.devicesOrLabels' }),
  reply: itemReply(
    z.object({ taskId: z.number().int(), deviceCount: z.number().int(), skippedCount: z.number().int() }),
  ),
});

export const apkTaskIdParam = positiveId('apk.taskNotFound');

/** An install task (a rollout of kind apk) as the install list shows it. */
export const apkTask = z.object({
  apkTaskId: z.number().int(),
  apkVersionId: z.number().int(),
  packageName: z.string(),
  versionName: z.string(),
  /** Chosen panels ("devices") or the members of labels ("labels"). */
  target: z.enum(['devices', 'labels']),
  operateMan: z.string(),
  state: z.enum(TASK_STATES),
  createDate: z.number(),
  lastUpdateDate: z.number(),
  total: z.number().int(),
  /** Panels per state. */
  counts: z.record(z.enum(TARGET_STATES), z.number().int()),
  /** "1" while the caller may cancel it. */
  canManage: z.enum(['1', '0']),
});
export type ApkTask = z.infer<typeof apkTask>;

export const listApkTasks = defineCall({
  method: 'GET',
  path: '/apkUpgrade/listInstallTasks',
  summary: "One page of the company's install tasks, newest first; apkVersionId narrows to one version",
  tag,
  access: callers.deviceOperators,
  params: pageParams.extend({ apkVersionId: apkVersionIdParam.optional() }),
  reply: listReply(apkTask),
});

export const getApkTask = defineCall({
  method: 'GET',
  path: '/apkUpgrade/selectInstallTask',
  summary: 'One install task of the company with its counts',
  tag,
  access: callers.deviceOperators,
  params: z.object({ apkTaskId: apkTaskIdParam }),
  reply: itemReply(apkTask),
});

export const apkTaskDevice = z.object({
  deviceId: z.number().int(),
  deviceName: z.string(),
  deviceKey: z.string(),
  isOnline: z.enum(['1', '0']),
  /** The version of the package the panel reports now ('' when it does not have it). */
  versionCurrent: z.string(),
  /** The version the task installs. */
  versionUpdate: z.string(),
  state: z.enum(TARGET_STATES),
  /** Why skipped, failed (the panel's reason) or cancelled ('' otherwise); the console translates ota.reason.<reason>. */
  reason: z.string(),
  /** Download progress 0-100 while downloading (apkCurrent / apkTotal), null otherwise. */
  progress: z.number().int().nullable(),
  updatedAt: z.number(),
});
export type ApkTaskDevice = z.infer<typeof apkTaskDevice>;

export const listApkTaskDevices = defineCall({
  method: 'GET',
  path: '/apkUpgrade/listInstallTaskDevices',
  summary:
    "One page of an install task's panels: state, download %, the panel's failure reason; state filters",
  tag,
  access: callers.deviceOperators,
  params: pageParams.extend({
    apkTaskId: apkTaskIdParam,
    state: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.enum(TARGET_STATES, { error: 'common.invalidParams' }).optional(),
    ),
  }),
  reply: listReply(apkTaskDevice),
});

export const cancelApkTask = defineCall({
  method: 'POST',
  path: '/apkUpgrade/cancelInstallTask',
  summary:
    'Cancel an install task: panels not yet verifying are cancelled (a download in progress stops); those verifying or installing finish',
  tag,
  access: callers.deviceOperators,
  params: z.object({ apkTaskId: apkTaskIdParam }),
  reply: itemReply(z.object({ cancelled: z.number().int() })),
});
