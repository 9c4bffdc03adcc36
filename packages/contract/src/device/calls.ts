import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers } from '../access.js';
import { emptyReply, itemReply, listReply } from '../envelope.js';
import { pageParams, requiredText, textWidth } from '../rules.js';
import { optionalCalendarDate, utcOffsetParam } from '../dates.js';
import { isRecordId, MAX_RECORD_ID } from '../ids.js';
import { DEVICE_SEND_ORDERS, LABEL_ORDERS, SERVER_ORDER_CALLS, type Order } from './orders.js';
import { groupRow } from './label-filter.js';
import { enrollmentReply, enrollmentRequest, NETWORK_STATES, POWER_STATES } from './payloads.js';

// Paths the spec does not show are chosen here in its style and recorded in this file.

/** Comma-separated positive ids, as the console's forms send lists. */
const idList = (emptyKey: string) =>
  z
    .string({ error: emptyKey })
    .trim()
    .min(1, { error: emptyKey })
    .transform((text) => text.split(',').map((part) => Number(part.trim())))
    .refine((ids) => ids.length <= 10_000 && ids.every(isRecordId), {
      error: 'common.invalidParams',
    });

const serverOrders = Object.entries(SERVER_ORDER_CALLS)
  .map(([order, calls]) => `${order}: ${calls}`)
  .join('; ');
const deviceOrderParam = z.enum(DEVICE_SEND_ORDERS, { error: 'command.orderInvalid' }).meta({
  description: `The orders this call sends. The server composes the others, each sent by its own call: ${serverOrders}.`,
});
const labelOrderParam = z
  .enum(LABEL_ORDERS as [Order, ...Order[]], { error: 'command.labelOrderInvalid' })
  .meta({
    description:
      'The orders a label takes (brightness, volume, power off, restart, mute); power-on has its own call (sendPowerUpByTagIds).',
  });

/**
 * A UUID the console makes once per click of a label command and sends again on a retry: the
 * server answers a repeated key (same company, within a day) with the first result and creates
 * no commands.
 */
export const idempotencyKeyParam = z.uuid({ error: 'command.idempotencyKeyInvalid' }).optional();

export const enroll = defineCall({
  method: 'POST',
  path: '/device/enroll',
  summary:
    'A panel enrolls once with its serial number and its company enrollment secret, and gets its own MQTT credentials',
  tag: 'device protocol',
  access: callers.anyone,
  params: enrollmentRequest,
  reply: itemReply(enrollmentReply),
});

/**
 * A signed, panel-bound, resumable file download (docs/device-protocol.md section 6): the URL
 * comes in an OTA or notification command; the panel presents its own credentials (HTTP
 * Basic) and may resume with Range. HEAD answers the headers alone.
 */
export const downloadFile = defineCall({
  method: 'GET',
  path: '/device/files/:name',
  summary: 'A file a command named, for the panel it was signed for (Range, If-Range, HEAD)',
  tag: 'device protocol',
  access: callers.panel,
  params: z.object({ t: z.string().max(2048).optional() }),
  reply: z.string(),
  produces: 'application/octet-stream',
});

export const enrollmentSecret = z.object({ enrollmentSecret: z.string(), rotatedAt: z.number() });

export const getEnrollmentSecret = defineCall({
  method: 'GET',
  path: '/platform/device/enrollmentSecret',
  summary: "The company's device enrollment secret (customer and customer administrator only)",
  tag: 'devices',
  access: callers.deviceOperators,
  tokens: 'manage',
  params: z.object({}),
  reply: itemReply(enrollmentSecret),
});

export const rotateEnrollmentSecret = defineCall({
  method: 'POST',
  path: '/platform/device/enrollmentSecret/rotate',
  summary: 'Replace the enrollment secret; enrolled panels keep their own credentials',
  tag: 'devices',
  access: callers.deviceOperators,
  tokens: 'manage',
  params: z.object({}),
  reply: itemReply(enrollmentSecret),
});

export const deviceRow = z.object({
  deviceId: z.number().int(),
  deviceName: z.string(),
  deviceKey: z.string(),
  remark: z.string(),
  /** Where the panel is (room, floor, address), given by an operator or an import; '' when not given. */
  location: z.string(),
  state: z.union([z.literal(0), z.literal(1)]),
  tag: z.string(),
  isOnline: z.enum(['1', '0']),
  model: z.string(),
  machineType: z.string(),
  otaVersion: z.string(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  localIp: z.string(),
  publicIp: z.string(),
  ramTotal: z.number().nullable(),
  ramUsed: z.number().nullable(),
  apkCurrent: z.number().nullable(),
  apkTotal: z.number().nullable(),
  otaCurrent: z.number().nullable(),
  otaTotal: z.number().nullable(),
  netWorkIntensity: z.number().nullable(),
  netWorkState: z.enum(NETWORK_STATES).nullable(),
  cpuTemperature: z.number().nullable(),
  brightness: z.number().nullable(),
  volume: z.number().nullable(),
  mute: z.boolean().nullable(),
  source: z.string().nullable(),
  power: z.enum(POWER_STATES).nullable(),
  lastSeenAt: z.number().nullable(),
});
export type DeviceRow = z.infer<typeof deviceRow>;

/** Longest device name and remark (spec 2 section 5: the remark's limit is ours to choose). */
export const DEVICE_NAME_MAX_WIDTH = 64;
export const DEVICE_REMARK_MAX = 200;
/** The longest location (width units; a Chinese character counts 2). */
export const DEVICE_LOCATION_MAX_WIDTH = 128;
export const LABEL_NAME_MAX_WIDTH = 32;
/** Labels travel joined by a dash (spec 2 section 3), so a label name cannot contain one. */
export const TAG_SEPARATOR = '-';
export const MAX_TAGS_PER_DEVICE = 20;

/**
 * A search of three characters or more lists at most this many matches: the first ones enrolled,
 * ordered by name. When more match, the reply says `totalCapped` and the console asks for a
 * longer search (docs/ARCHITECTURE.md, "Device list paging").
 */
export const DEVICE_SEARCH_CAP = 500;

export const listDevices = defineCall({
  method: 'GET',
  path: '/platform/device/list',
  summary:
    "One page of the company's devices by name; deviceName: 1-2 characters match the name's start, more any part of name or serial " +
    `(at most ${DEVICE_SEARCH_CAP}, totalCapped beyond). start: page (1-based); cursor: the previous page's`,
  tag: 'devices',
  access: callers.deviceOperators,
  params: pageParams.extend({
    deviceName: z.string().trim().max(64).optional(),
    cursor: z.string().max(2048).optional(),
  }),
  reply: listReply(deviceRow).extend({
    cursor: z.string().optional(),
    /** More devices match the search than it lists: totalRecords is DEVICE_SEARCH_CAP. */
    totalCapped: z.literal(true).optional(),
  }),
});

/** One label name: required, at most 32 width units, no dash. */
export const labelName = (emptyKey: string) =>
  requiredText(emptyKey, LABEL_NAME_MAX_WIDTH, 'group.nameTooLong').refine(
    (name) => !name.includes(TAG_SEPARATOR),
    { error: 'group.nameDash' },
  );

/** The device's labels as the edit form sends them: names joined by a dash, at least one. */
export const tagNames = z
  .string({ error: 'deviceManage.tagNull' })
  .transform((text) => [
    ...new Set(
      text
        .split(TAG_SEPARATOR)
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  ])
  .refine((names) => names.length > 0, { error: 'deviceManage.tagNull' })
  .refine((names) => names.length <= MAX_TAGS_PER_DEVICE, { error: 'deviceManage.tagTooMany' })
  .refine((names) => names.every((name) => textWidth(name) <= LABEL_NAME_MAX_WIDTH), {
    error: 'group.nameTooLong',
  });

export const updateDevice = defineCall({
  method: 'POST',
  path: '/platform/device/update',
  summary:
    'Edit a device: name, labels (replacing its labels; unknown names become new labels), remark, location and state; the serial number cannot change',
  tag: 'devices',
  access: callers.deviceOperators,
  params: z.object({
    deviceId: z.coerce
      .number({ error: 'device.notFound' })
      .int()
      .positive({ error: 'device.notFound' })
      .max(MAX_RECORD_ID, { error: 'device.notFound' }),
    deviceName: requiredText('deviceManage.nameNull', DEVICE_NAME_MAX_WIDTH, 'deviceManage.nameTooLong'),
    deviceKey: z.string({ error: 'deviceManage.serialReadOnly' }).trim(),
    tag: tagNames,
    remark: z
      .string()
      .trim()
      .max(DEVICE_REMARK_MAX, { error: 'deviceManage.remarkTooLong' })
      .optional()
      .transform((v) => v ?? ''),
    state: z.enum(['0', '1'], { error: 'deviceManage.stateInvalid' }).transform((v) => (v === '1' ? 1 : 0)),
    /** Absent: the location stays as it is (callers that predate it). */
    location: z
      .string()
      .trim()
      .refine((v) => textWidth(v) <= DEVICE_LOCATION_MAX_WIDTH, { error: 'deviceManage.locationTooLong' })
      .optional(),
  }),
  reply: emptyReply,
});

export const listIsOnlineByDeviceKey = defineCall({
  method: 'POST',
  path: '/platform/device/listIsOnlineByDeviceKey',
  summary: 'Online state of the listed devices, read from gateway memory',
  tag: 'devices',
  access: callers.deviceOperators,
  tokens: 'read',
  params: z.object({ deviceKeyList: z.string().trim().max(100_000) }),
  reply: listReply(z.object({ deviceKey: z.string(), isOnline: z.enum(['1', '0']) })),
});

export const group = z.object({ groupId: z.number().int(), groupName: z.string() });

export const listGroups = defineCall({
  method: 'GET',
  path: '/platform/group/list',
  summary: "The company's labels",
  tag: 'labels',
  access: callers.deviceOperators,
  params: z.object({}),
  reply: listReply(groupRow),
});

export const insertGroup = defineCall({
  method: 'POST',
  path: '/platform/group/insert',
  summary: 'Create a label',
  tag: 'labels',
  access: callers.deviceOperators,
  params: z.object({ groupName: labelName('group.nameNull') }),
  reply: itemReply(group),
});

export const saveGroupsAndDevices = defineCall({
  method: 'POST',
  path: '/platform/group/saveGroupsAndDevices',
  summary: 'Give the listed devices exactly the listed labels (edit tags of selected devices)',
  tag: 'labels',
  access: callers.deviceOperators,
  params: z.object({
    deviceIds: idList('deviceManage.selectEditDeviceTag'),
    groupIds: idList('deviceManage.tagNull'),
  }),
  reply: emptyReply,
});

/** A device as the label page and label pickers list it. */
export const labelDeviceRow = z.object({
  deviceId: z.number().int(),
  deviceName: z.string(),
  deviceKey: z.string(),
  machineType: z.string(),
  state: z.union([z.literal(0), z.literal(1)]),
  tag: z.string(),
  isOnline: z.enum(['1', '0']),
});
export type LabelDeviceRow = z.infer<typeof labelDeviceRow>;

/** Broadcast pickers read every device of the labels at once (spec 2 section 9: 100000). */
export const LABEL_DEVICES_MAX_SIZE = 100_000;

export const selectByTag = defineCall({
  method: 'POST',
  path: '/platform/device/selectByTag',
  summary:
    'One page of the devices in any of the listed labels (tags: label ids), ordered by name; with machineTypeId only those of that machine type, ' +
    'with otaFileId only those the OTA file fits (its machine types and from-versions), as the force-upgrade dialog lists them',
  tag: 'labels',
  access: callers.deviceOperators,
  tokens: 'read',
  params: z.object({
    tags: idList('label.chooseDevice'),
    machineTypeId: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.coerce
        .number({ error: 'machineType.notFound' })
        .int({ error: 'machineType.notFound' })
        .positive({ error: 'machineType.notFound' })
        .max(2_147_483_647, { error: 'machineType.notFound' })
        .optional(),
    ),
    otaFileId: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.coerce
        .number({ error: 'ota.fileNotFound' })
        .int({ error: 'ota.fileNotFound' })
        .positive({ error: 'ota.fileNotFound' })
        .max(2_147_483_647, { error: 'ota.fileNotFound' })
        .optional(),
    ),
    start: z.coerce.number().int().min(0).max(10_000_000).default(0),
    size: z.coerce.number().int().min(1).max(LABEL_DEVICES_MAX_SIZE).default(5),
  }),
  reply: listReply(labelDeviceRow),
});

export const sendCommandByDeviceId = defineCall({
  method: 'POST',
  path: '/sendData/sendCommandByDeviceId',
  summary: 'Send one order to one device; the command lives until it succeeds, fails or expires',
  tag: 'commands',
  access: callers.deviceOperators,
  params: z.object({
    deviceId: z.coerce.number().int().positive().max(MAX_RECORD_ID, { error: 'device.notFound' }),
    order: deviceOrderParam,
    value: z.string().max(20_000).optional(),
  }),
  reply: itemReply(z.object({ commandId: z.string() })),
});

export const sendPowerUpByDeviceId = defineCall({
  method: 'POST',
  path: '/sendData/sendPowerUpByDeviceId',
  summary: 'Power on a device that is off, through a Wake-on-LAN relay on its network',
  tag: 'commands',
  access: callers.deviceOperators,
  params: z.object({
    deviceId: z.coerce.number().int().positive().max(MAX_RECORD_ID, { error: 'device.notFound' }),
  }),
  reply: itemReply(z.object({ commandId: z.string() })),
});

export const sendCommandByTagIds = defineCall({
  method: 'POST',
  path: '/sendData/sendCommandByTagIds',
  summary:
    'Send one order to every device of the listed labels (fanned out through the broker); a repeated idempotencyKey answers the first result',
  tag: 'commands',
  access: callers.deviceOperators,
  params: z.object({
    tagIds: idList('label.chooseDevice'),
    order: labelOrderParam,
    value: z.string().max(20_000).optional(),
    idempotencyKey: idempotencyKeyParam,
  }),
  reply: itemReply(z.object({ count: z.number().int() })),
});

export const sendPowerUpByTagIds = defineCall({
  method: 'POST',
  path: '/sendData/sendPowerUpByTagIds',
  summary: 'Power on every device of the listed labels',
  tag: 'commands',
  access: callers.deviceOperators,
  params: z.object({ tagIds: idList('label.chooseDevice'), idempotencyKey: idempotencyKeyParam }),
  reply: itemReply(z.object({ count: z.number().int() })),
});

export const FEEDBACK_STATUSES = ['sent', 'fail', 'success'] as const;

export const feedbackRecord = z.object({
  uuid: z.string(),
  deviceName: z.string(),
  userName: z.string(),
  status: z.enum(FEEDBACK_STATUSES),
  type: z.string(),
  createDate: z.number(),
  /** The error code of a failed command (the panel's detail, or expired): empty otherwise. */
  detail: z.string(),
  /** The error tip for that code in the caller's language (errorMsg catalogue), empty when none. */
  tip: z.string(),
});

export const listFeedback = defineCall({
  method: 'GET',
  path: '/platform/feedback/listFeedbackInfo',
  summary: 'Command feedback derived from command state (sent, fail, success), newest first',
  tag: 'commands',
  access: callers.deviceOperators,
  params: pageParams.extend({
    deviceName: z.string().trim().max(64).optional(),
    createDate: optionalCalendarDate(),
    /** Minutes east of UTC of the console on that day, so createDate is the operator's day. */
    utcOffset: utcOffsetParam.optional(),
  }),
  reply: listReply(feedbackRecord),
});
