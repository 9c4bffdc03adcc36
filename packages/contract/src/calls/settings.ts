import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers } from '../access.js';
import { itemReply, listReply, okBase } from '../envelope.js';
import { pageParams } from '../rules.js';
import {
  isPanelSystem,
  isSeries,
  isSourceType,
  pictureSetting,
  SERIES,
  SOURCE_TYPES,
  sourceTypesOf,
  SYSTEMS,
} from '../device/settings.js';
import { COMMAND_STATUSES } from './notifications.js';
import { isRecordId } from '../ids.js';
import { withPanelSelection } from '../device/selection.js';

// Saved settings (spec 2 sections 2-7 "Setting page"): setting templates per series and source
// (picture) settings per system, series and input, pushed to panels as SETTINGS commands. The
// spec does not show these paths; they are chosen here in its style.

const tag = 'settings';

/** Spec 2 section 7: type '0' lists templates, '1' source settings. */
export const SETTING_TYPES = { template: '0', source: '1' } as const;
export type SettingType = (typeof SETTING_TYPES)[keyof typeof SETTING_TYPES];
const settingType = z.enum(['0', '1'], { error: 'settingTemplate.typeInvalid' });

/** A push waits this long for panels that are off; they get it when they come back (spec: until it expires). */
export const SETTING_PUSH_TTL_MS = 24 * 60 * 60_000;
/** Longest jsonData of a saved setting (a complete template is about 1 KB). */
export const SETTING_JSON_MAX = 20_000;

const positiveId = (key: string) =>
  z.coerce.number({ error: key }).int({ error: key }).positive({ error: key }).max(2_147_483_647, {
    error: key,
  });
const settingId = positiveId('settingTemplate.notFound');
const deviceId = positiveId('device.notFound');

/** Comma-separated positive ids, at least one (message `emptyKey`), at most `max`, repeats dropped. */
const idList = (emptyKey: string, max: number) =>
  z
    .string({ error: emptyKey })
    .trim()
    .transform((text) => [
      ...new Set(
        text
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean),
      ),
    ])
    .refine((items) => items.length >= 1, { error: emptyKey })
    .refine((items) => items.length <= max, { error: 'common.invalidParams' })
    .refine((items) => items.every((item) => /^\d{1,10}$/.test(item) && isRecordId(Number(item))), {
      error: 'common.invalidParams',
    })
    .transform((items) => items.map(Number));

const jsonData = z
  .string({ error: 'settingTemplate.jsonInvalid' })
  .trim()
  .min(2, { error: 'settingTemplate.jsonInvalid' })
  .max(SETTING_JSON_MAX, { error: 'settingTemplate.jsonInvalid' });

/** A saved setting as the lists show it (spec 2 section 3: template row and source setting row). */
export const settingRow = z.object({
  id: z.number().int(),
  type: settingType,
  series: z.enum(SERIES),
  /** Source settings: the system (android, noAndroid); null for templates. */
  platform: z.enum(SYSTEMS).nullable(),
  /** Source settings: the input; null for templates. */
  sourceType: z.enum(SOURCE_TYPES).nullable(),
  /** Template: {platform, platformMsg}; source setting: {platform, sourceType, pictureModeType, imageSettings, displaySettings}. */
  jsonData: z.string(),
  createTime: z.number(),
  updateTime: z.number(),
});
export type SettingRow = z.infer<typeof settingRow>;

export const listSetting = defineCall({
  method: 'GET',
  path: '/deviceSetting/listSetting',
  summary:
    "One page of the company's saved settings of a type ('0' templates, '1' source settings), optionally of one series, oldest first",
  tag,
  access: callers.deviceOperators,
  params: pageParams.extend({
    type: settingType,
    series: z.enum(SERIES, { error: 'settingTemplate.seriesInvalid' }).optional(),
  }),
  reply: listReply(settingRow),
});

/**
 * Add a template (type '0', series) or a source setting (type '1', series, platform = system,
 * sourceType = input of that series: VGA only when not x9_vn, HDMI3 only on x9_vn). The new
 * entry is saved at once with the default settings; one source setting per system, series and input.
 */
export const addSettingParams = z
  .object({
    type: settingType,
    series: z.string({ error: 'settingTemplate.seriesInvalid' }).trim(),
    platform: z.string().trim().optional(),
    sourceType: z.string().trim().optional(),
  })
  .superRefine((v, ctx) => {
    const fail = (message: string) => ctx.addIssue({ code: 'custom', message });
    if (!isSeries(v.series)) return fail('settingTemplate.seriesInvalid');
    if (v.type === SETTING_TYPES.template) return;
    if (!v.platform || !isPanelSystem(v.platform)) return fail('settingTemplate.systemInvalid');
    if (!v.sourceType || !isSourceType(v.sourceType) || !sourceTypesOf(v.series).includes(v.sourceType))
      return fail('settingTemplate.sourceInvalid');
  });

export const addSetting = defineCall({
  method: 'POST',
  path: '/deviceSetting/addSetting',
  summary:
    "Add a template (type '0' with series) or a source setting (type '1' with series, platform = system, sourceType); saved at once with the defaults; replies its id",
  tag,
  access: callers.deviceOperators,
  params: addSettingParams,
  reply: okBase.extend({ id: z.number().int(), dataObject: settingRow }),
});

export const updateSetting = defineCall({
  method: 'POST',
  path: '/deviceSetting/updateSetting',
  summary:
    "Save a setting's jsonData (a string): complete settings of its series, or the complete picture of its input; series, system and input stay",
  tag,
  access: callers.deviceOperators,
  params: z.object({ id: settingId, jsonData }),
  reply: itemReply(settingRow),
});

export const deleteSetting = defineCall({
  method: 'POST',
  path: '/deviceSetting/deleteSetting',
  summary: 'Delete a saved setting (pushes already made stay in the feedback log)',
  tag,
  access: callers.deviceOperators,
  params: z.object({ id: settingId }),
  reply: okBase,
});

/** What a push answers: its id (for its per-panel results) and the number of commands it made. */
export const pushReply = z.object({ pushId: z.number().int(), count: z.number().int() });

/** The chosen panels (deviceIds), or every panel matching the device list's filter (matching, JSON body). */
const sendParams = withPanelSelection(
  { id: settingId },
  idList('setting.chooseDevice', 10_000),
  'setting.chooseDevice',
);

export const sendSetting = defineCall({
  method: 'POST',
  path: '/sendData/sendSetting',
  summary:
    'Push a template to the chosen panels (all of its series; otherwise refused with their names before anything is sent). Panels that are off get it when they come back, for 24 hours',
  tag,
  access: callers.deviceOperators,
  params: sendParams,
  reply: itemReply(pushReply),
});

export const sendSourceSetting = defineCall({
  method: 'POST',
  path: '/sendData/sendSourceSetting',
  summary:
    'Push a source setting to the chosen panels (all of its series, and of its system where a panel reported one); as sendSetting',
  tag,
  access: callers.deviceOperators,
  params: sendParams,
  reply: itemReply(pushReply),
});

export const sendSettingsToDevice = defineCall({
  method: 'POST',
  path: '/sendData/sendSettingsToDevice',
  summary:
    "The device detail's push selection: push the chosen templates and source settings (ids) to one panel, one command each, templates first",
  tag,
  access: callers.deviceOperators,
  params: z.object({ deviceId, ids: idList('deviceManage.selectSettingToPush', 50) }),
  reply: itemReply(pushReply),
});

/** Where one panel is with one pushed setting. */
export const PUSH_RESULTS = [
  'offline',
  'sending',
  'applied',
  'offlineApplied',
  'refused',
  'expired',
  'cancelled',
] as const;
export type PushResult = (typeof PUSH_RESULTS)[number];

export const pushTarget = z.object({
  deviceId: z.number().int(),
  deviceName: z.string(),
  deviceKey: z.string(),
  /** The saved setting pushed; null for a picture sent from the device detail. */
  settingId: z.number().int().nullable(),
  /** What was pushed: a series (template) or an input (source setting, picture). */
  what: z.string(),
  status: z.enum(COMMAND_STATUSES),
  /**
   * offline: the panel was off and has not taken it yet; sending: on its way; applied; offlineApplied:
   * the panel was off at the push and applied it when it came back; refused: the panel said no
   * (detail says why); expired: the panel did not come back in time; cancelled: the operator stopped
   * the push before the panel came back.
   */
  result: z.enum(PUSH_RESULTS),
  detail: z.string(),
  updateTime: z.number(),
});
export type PushTarget = z.infer<typeof pushTarget>;

export const pushCounts = z.object(
  Object.fromEntries(PUSH_RESULTS.map((r) => [r, z.number().int()])) as Record<PushResult, z.ZodNumber>,
);

export const selectSettingPush = defineCall({
  method: 'GET',
  path: '/sendData/selectSettingPush',
  summary: 'The per-panel results of one push, a page at a time, with the count of each result',
  tag,
  access: callers.deviceOperators,
  params: pageParams.extend({ pushId: positiveId('settingTemplate.pushNotFound') }),
  reply: listReply(pushTarget).extend({ counts: pushCounts, expiresAt: z.number() }),
});

/** A cancelled command's detail (status failed): the operator stopped the push before it left the server. */
export const PUSH_CANCELLED_DETAIL = 'cancelled';

export const cancelSettingPush = defineCall({
  method: 'POST',
  path: '/sendData/cancelSettingPush',
  summary:
    'Stop a push for the panels that have not taken it yet (off since the push): their commands end as cancelled; what was sent stays',
  tag,
  access: callers.deviceOperators,
  params: z.object({ pushId: positiveId('settingTemplate.pushNotFound') }),
  reply: itemReply(z.object({ cancelled: z.number().int() })),
});

/** The picture settings one panel reported for one input. */
export const devicePicture = z.object({
  sourceType: z.enum(SOURCE_TYPES),
  picture: pictureSetting,
  reportedAt: z.number(),
});
export type DevicePicture = z.infer<typeof devicePicture>;

export const listDeviceSourceSetting = defineCall({
  method: 'GET',
  path: '/deviceSetting/listDeviceSourceSetting',
  summary:
    "The picture settings a panel reported, per input, with its system and series (the device detail's source setting dialog)",
  tag,
  access: callers.deviceOperators,
  params: z.object({ deviceId }),
  reply: listReply(devicePicture).extend({
    series: z.enum(SERIES).nullable(),
    system: z.enum(SYSTEMS).nullable(),
  }),
});

export const updateDeviceSourceSetting = defineCall({
  method: 'POST',
  path: '/deviceSetting/updateDeviceSourceSetting',
  summary:
    "The device detail's source setting dialog: send one input's complete picture (jsonData: pictureModeType, imageSettings, displaySettings) to this panel",
  tag,
  access: callers.deviceOperators,
  params: z.object({
    deviceId,
    sourceType: z.enum(SOURCE_TYPES, { error: 'settingTemplate.sourceInvalid' }),
    jsonData,
  }),
  reply: itemReply(pushReply),
});
