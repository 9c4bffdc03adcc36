import { z } from 'zod';
import { defineCall } from '../call.js';
import { users } from '../access.js';
import type { UserType } from '../menus.js';
import { emptyReply, itemReply, listReply } from '../envelope.js';
import { optionalText, pageParams, requiredText } from '../rules.js';
import { DESCRIPTION_LANGUAGES } from '../rollouts.js';

/**
 * Error tips (spec 3 section 2.9) and reminders (section 2.10): two catalogues of the
 * deployment, not of a company.
 *
 * - An error tip is the text shown for an error code a panel reports: the `detail` of a failed
 *   acknowledgement (download, checksum, unsupported, expired, ...). The feedback log shows it
 *   beside a failed command, in the operator's language (zh-CN or en-US). The platform (type 0)
 *   keeps the catalogue.
 * - A reminder belongs to a machine type and an OTA version and holds one message per language
 *   (36 codes): the panel shows it before installing that OTA. The OTA order carries the
 *   message in the panel's language (docs/device-protocol.md, OTA `reminder`). Whoever opens the
 *   OTA screens reads them (types 0, 1, 3); the platform and the OTA staff (types 0 and 1, also
 *   on the special deployment) change them.
 */

const tag = 'tips and reminders';

export const TIP_LANGUAGES = ['zh-CN', 'en-US'] as const;
export const TIP_CODE_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;

export const errorTip = z.object({
  id: z.number().int(),
  tipsCode: z.string(),
  message: z.string(),
  language: z.enum(TIP_LANGUAGES),
  updateMan: z.string(),
  updateDate: z.number(),
});
export type ErrorTip = z.infer<typeof errorTip>;

const catalogId = (key: string) =>
  z.coerce
    .number({ error: key })
    .int({ error: key })
    .min(1, { error: key })
    .max(2_147_483_647, { error: key });

/** Spec 3 section 5: all three are required (请把内容填写完全 on add, 请填写完全！ on edit). */
const tipFields = (emptyKey: string) => ({
  tipsCode: requiredText(emptyKey, 64).refine((v) => TIP_CODE_PATTERN.test(v), {
    error: 'errorTips.codeInvalid',
  }),
  message: requiredText(emptyKey, 1000),
  language: z.enum(TIP_LANGUAGES, { error: emptyKey }),
});

const tipsEditors = users(['0']);

export const listTips = defineCall({
  method: 'GET',
  path: '/errorTips/listTips',
  tag,
  access: tipsEditors,
  summary: 'One page of error tips by code, optionally by any part of the code',
  params: pageParams.extend({ tipsCode: optionalText(64) }),
  reply: listReply(errorTip),
});

export const addTips = defineCall({
  method: 'POST',
  path: '/errorTips/addTips',
  tag,
  access: tipsEditors,
  summary: 'Add an error tip; a code has one tip per language',
  params: z.object(tipFields('errorTips.fillAll')),
  reply: itemReply(z.object({ id: z.number().int() })),
});

export const updateTips = defineCall({
  method: 'POST',
  path: '/errorTips/updateTips',
  tag,
  access: tipsEditors,
  summary: 'Change an error tip',
  params: z.object({ id: catalogId('errorTips.notFound'), ...tipFields('errorTips.fillAllEdit') }),
  reply: emptyReply,
});

export const deleteTips = defineCall({
  method: 'POST',
  path: '/errorTips/deleteTips',
  tag,
  access: tipsEditors,
  summary: 'Delete an error tip',
  params: z.object({ id: catalogId('errorTips.notFound') }),
  reply: emptyReply,
});

/** Spec 3 section 9: reminders are written in the 36 languages of OTA descriptions. */
export const REMINDER_LANGUAGES = DESCRIPTION_LANGUAGES;
export type ReminderLanguage = (typeof REMINDER_LANGUAGES)[number];

export const warning = z.object({
  warningId: z.number().int(),
  machineType: z.string(),
  otaVersion: z.string(),
  remark: z.string(),
  createMan: z.string(),
  creationDate: z.number(),
  /** Languages that have a message. */
  languages: z.array(z.string()),
});
export type Warning = z.infer<typeof warning>;

export const warningMessage = z.object({
  warningMessageId: z.number().int(),
  warningId: z.number().int(),
  message: z.string(),
  language: z.string(),
  creationDate: z.number(),
});
export type WarningMessage = z.infer<typeof warningMessage>;

/** Who changes reminders: the platform and the OTA staff (also on the special deployment). */
export const REMINDER_EDITOR_TYPES: readonly UserType[] = ['0', '1'];
const reminderReaders = users(['0', '1', '3'], { deployment: 'any' });
const reminderEditors = users(REMINDER_EDITOR_TYPES, { deployment: 'any' });

const warningFields = {
  machineType: requiredText('warning.machineTypeRequired', 64),
  otaVersion: requiredText('warning.otaVersionRequired', 64),
  /** Spec 3 section 9: 200 width units (2 for wide characters). */
  remark: optionalText(200).transform((v) => v ?? ''),
};
const warningId = catalogId('warning.notFound');
const warningMessageId = catalogId('warning.messageNotFound');
const messageFields = {
  message: requiredText('warning.messageRequired', 2000),
  language: z.enum(REMINDER_LANGUAGES, { error: 'warning.languageInvalid' }),
};

export const listWarning = defineCall({
  method: 'GET',
  path: '/warning/listWarning',
  tag,
  access: reminderReaders,
  summary: 'One page of reminders, optionally by any part of the machine type',
  params: pageParams.extend({ machineType: optionalText(64) }),
  reply: listReply(warning),
});

export const addWarning = defineCall({
  method: 'POST',
  path: '/warning/addWarning',
  tag,
  access: reminderEditors,
  summary: 'Add a reminder for a machine type and OTA version (one per pair)',
  params: z.object(warningFields),
  reply: itemReply(z.object({ warningId: z.number().int() })),
});

export const updateWarning = defineCall({
  method: 'POST',
  path: '/warning/updateWarning',
  tag,
  access: reminderEditors,
  summary: 'Change a reminder',
  params: z.object({ warningId, ...warningFields }),
  reply: emptyReply,
});

export const deleteWarning = defineCall({
  method: 'POST',
  path: '/warning/deleteWarning',
  tag,
  access: reminderEditors,
  summary: 'Delete a reminder with its messages',
  params: z.object({ warningId }),
  reply: emptyReply,
});

export const listWarningMessage = defineCall({
  method: 'GET',
  path: '/warningMessage/listWarningMessage',
  tag,
  access: reminderReaders,
  summary: "One page of a reminder's messages, one per language",
  params: pageParams.extend({ warningId }),
  reply: listReply(warningMessage),
});

export const addWarningMessage = defineCall({
  method: 'POST',
  path: '/warningMessage/addWarningMessage',
  tag,
  access: reminderEditors,
  summary: 'Add the message of one language to a reminder (one per language)',
  params: z.object({ warningId, ...messageFields }),
  reply: itemReply(z.object({ warningMessageId: z.number().int() })),
});

export const updateWarningMessage = defineCall({
  method: 'POST',
  path: '/warningMessage/updateWarningMessage',
  tag,
  access: reminderEditors,
  summary: "Change a message's text; its language is locked (a different language is refused)",
  params: z.object({ warningMessageId, ...messageFields }),
  reply: emptyReply,
});

export const deleteWarningMessage = defineCall({
  method: 'POST',
  path: '/warningMessage/deleteWarningMessage',
  tag,
  access: reminderEditors,
  summary: 'Delete a message',
  params: z.object({ warningMessageId }),
  reply: emptyReply,
});
