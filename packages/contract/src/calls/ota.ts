import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers } from '../access.js';
import { emptyReply, itemReply, listReply, okBase } from '../envelope.js';
import { optionalText, pageParams, requiredText } from '../rules.js';
import { DESCRIPTION_LANGUAGES, OTA_LOG_STATUSES, TARGET_STATES } from '../rollouts.js';
import {
  idCsv,
  otaFileIdParam,
  otaDescriptionIdParam,
  otaPublishers,
  otaReaders,
  otaVersionIdParam,
  positiveId,
  versionField,
} from './ota-base.js';

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

export {
  otaPublishers,
  otaReaders,
  otaOperators,
  otaFileIdParam,
  otaTaskIdParam,
  otaDescriptionIdParam,
  otaVersionIdParam,
  versionField,
} from './ota-base.js';
export * from './ota-tasks.js';

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
