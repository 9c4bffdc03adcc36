import { z } from 'zod';
import { defineCall } from '../call.js';
import { emptyReply, itemReply, listReply } from '../envelope.js';
import { pageParams, requiredText } from '../rules.js';
import { ORDER_CODES } from './orders.js';
import { enrollmentReply, enrollmentRequest, NETWORK_STATES, POWER_STATES } from './payloads.js';

// Paths the spec does not show are chosen here in its style and recorded in this file.

/** Comma-separated positive ids, as the console's forms send lists. */
const idList = (emptyKey: string) =>
  z
    .string({ error: emptyKey })
    .trim()
    .min(1, { error: emptyKey })
    .transform((text) => text.split(',').map((part) => Number(part.trim())))
    .refine((ids) => ids.length <= 10_000 && ids.every((id) => Number.isInteger(id) && id > 0), { error: 'common.invalidParams' });

const orderParam = z.enum(ORDER_CODES, { error: 'command.orderInvalid' });

export const enroll = defineCall({
  method: 'POST',
  path: '/device/enroll',
  summary: 'A panel enrolls once with its serial number and its company enrollment secret, and gets its own MQTT credentials',
  tag: 'device protocol',
  access: 'public',
  params: enrollmentRequest,
  reply: itemReply(enrollmentReply),
});

export const enrollmentSecret = z.object({ enrollmentSecret: z.string(), rotatedAt: z.number() });

export const getEnrollmentSecret = defineCall({
  method: 'GET',
  path: '/platform/device/enrollmentSecret',
  summary: "The company's device enrollment secret (customer and customer administrator only)",
  tag: 'devices',
  access: 'session',
  params: z.object({}),
  reply: itemReply(enrollmentSecret),
});

export const rotateEnrollmentSecret = defineCall({
  method: 'POST',
  path: '/platform/device/enrollmentSecret/rotate',
  summary: 'Replace the enrollment secret; enrolled panels keep their own credentials',
  tag: 'devices',
  access: 'session',
  params: z.object({}),
  reply: itemReply(enrollmentSecret),
});

export const deviceRow = z.object({
  deviceId: z.number().int(),
  deviceName: z.string(),
  deviceKey: z.string(),
  remark: z.string(),
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

export const listDevices = defineCall({
  method: 'GET',
  path: '/platform/device/list',
  summary: "One page of the company's devices (start is the page number, 1-based), optionally by name",
  tag: 'devices',
  access: 'session',
  params: pageParams.extend({ deviceName: z.string().trim().max(64).optional() }),
  reply: listReply(deviceRow),
});

export const listIsOnlineByDeviceKey = defineCall({
  method: 'POST',
  path: '/platform/device/listIsOnlineByDeviceKey',
  summary: 'Online state of the listed devices, read from gateway memory',
  tag: 'devices',
  access: 'session',
  params: z.object({ deviceKeyList: z.string().trim().max(100_000) }),
  reply: listReply(z.object({ deviceKey: z.string(), isOnline: z.enum(['1', '0']) })),
});

export const group = z.object({ groupId: z.number().int(), groupName: z.string() });

export const listGroups = defineCall({
  method: 'GET',
  path: '/platform/group/list',
  summary: "The company's labels",
  tag: 'labels',
  access: 'session',
  params: z.object({}),
  reply: listReply(group),
});

export const insertGroup = defineCall({
  method: 'POST',
  path: '/platform/group/insert',
  summary: 'Create a label',
  tag: 'labels',
  access: 'session',
  params: z.object({ groupName: requiredText('group.nameNull', 32) }),
  reply: itemReply(group),
});

export const saveGroupsAndDevices = defineCall({
  method: 'POST',
  path: '/platform/group/saveGroupsAndDevices',
  summary: 'Put the listed devices into the listed labels',
  tag: 'labels',
  access: 'session',
  params: z.object({ deviceIds: idList('deviceManage.selectEditDeviceTag'), groupIds: idList('upgrade.noLabel') }),
  reply: emptyReply,
});

export const sendCommandByDeviceId = defineCall({
  method: 'POST',
  path: '/sendData/sendCommandByDeviceId',
  summary: 'Send one order to one device; the command lives until it succeeds, fails or expires',
  tag: 'commands',
  access: 'session',
  params: z.object({ deviceId: z.coerce.number().int().positive(), order: orderParam, value: z.string().max(20_000).optional() }),
  reply: itemReply(z.object({ commandId: z.string() })),
});

export const sendPowerUpByDeviceId = defineCall({
  method: 'POST',
  path: '/sendData/sendPowerUpByDeviceId',
  summary: 'Power on a device that is off, through a Wake-on-LAN relay on its network',
  tag: 'commands',
  access: 'session',
  params: z.object({ deviceId: z.coerce.number().int().positive() }),
  reply: itemReply(z.object({ commandId: z.string() })),
});

export const sendCommandByTagIds = defineCall({
  method: 'POST',
  path: '/sendData/sendCommandByTagIds',
  summary: 'Send one order to every device of the listed labels (fanned out through the broker)',
  tag: 'commands',
  access: 'session',
  params: z.object({ tagIds: idList('label.chooseDevice'), order: orderParam, value: z.string().max(20_000).optional() }),
  reply: itemReply(z.object({ count: z.number().int() })),
});

export const sendPowerUpByTagIds = defineCall({
  method: 'POST',
  path: '/sendData/sendPowerUpByTagIds',
  summary: 'Power on every device of the listed labels',
  tag: 'commands',
  access: 'session',
  params: z.object({ tagIds: idList('label.chooseDevice') }),
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
});

export const listFeedback = defineCall({
  method: 'GET',
  path: '/platform/feedback/listFeedbackInfo',
  summary: 'Command feedback derived from command state (sent, fail, success), newest first',
  tag: 'commands',
  access: 'session',
  params: pageParams.extend({
    deviceName: z.string().trim().max(64).optional(),
    createDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional(),
  }),
  reply: listReply(feedbackRecord),
});

