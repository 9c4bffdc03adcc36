import { z } from 'zod';
import { defineCall } from '../call.js';
import { emptyReply, itemReply, listReply } from '../envelope.js';
import { optionalText, pageParams, requiredText, truncateToWidth } from '../rules.js';
import { DEVICE_KEY_PATTERN } from '../device/topics.js';
import { isIpv4OrCidr, parseLocalDateTime, timeZoneOffset } from '../rollouts.js';
import { otaPublishers } from './ota.js';

/**
 * Upgrade policies (spec 3 section 2.2, `/otaRule/*`): an IP whitelist (IPv4 addresses or CIDR
 * blocks, matched against the public address a panel reports), time-zone windows (a panel whose
 * reported UTC offset is a listed zone starts at that zone's local start time) and a serial-number
 * list. At least one filter stays on. A file names one policy; it applies when the task's
 * panels are dispatched: a panel outside it is skipped with the reason, one whose window has not
 * opened waits. A policy belongs to the organisation that made it.
 */

const tag = 'ota policies';

export const RULE_REMARK_MAX = 200;
/** The spec's lists of time zones and addresses read up to 10000 rows at once. */
export const RULE_LIST_MAX_SIZE = 10_000;
/** Serial numbers added per call (a pasted or uploaded list). */
export const RULE_SERIALS_PER_CALL = 20_000;

const id = (key: string) =>
  z.coerce
    .number({ error: key })
    .int({ error: key })
    .positive({ error: key })
    .max(2_147_483_647, { error: key });
export const otaRuleIdParam = id('otaRule.notFound');

/** 200 width units, cut at the limit as the console's input does (spec 3 section 5). */
const remark = z
  .string()
  .optional()
  .transform((v) => truncateToWidth((v ?? '').trim(), RULE_REMARK_MAX));
const flag = (key: string) => z.enum(['0', '1'], { error: key }).transform((v) => Number(v) as 0 | 1);

const listPage = pageParams.extend({
  size: z.coerce.number().int().min(1).max(RULE_LIST_MAX_SIZE).default(5),
});

export const otaRule = z.object({
  otaRuleId: z.number().int(),
  name: z.string(),
  remark: z.string(),
  creationDate: z.number(),
  enableIp: z.union([z.literal(0), z.literal(1)]),
  enableTimezone: z.union([z.literal(0), z.literal(1)]),
  enableSn: z.union([z.literal(0), z.literal(1)]),
  ipCount: z.number().int(),
  timeZoneCount: z.number().int(),
  snCount: z.number().int(),
  /** Files that name it. */
  fileCount: z.number().int(),
});

const ruleFields = z
  .object({
    name: requiredText('otaRule.nameNull', 64),
    remark,
    enableIp: flag('otaRule.flagInvalid'),
    enableSn: flag('otaRule.flagInvalid'),
    enableTimezone: flag('otaRule.flagInvalid'),
  })
  .refine((r) => r.enableIp + r.enableSn + r.enableTimezone > 0, {
    error: 'otaRule.allOff',
    path: ['enableIp'],
  });

export const listOtaRules = defineCall({
  method: 'GET',
  path: '/otaRule/listOtaRule',
  summary: "One page of the caller's organisation's policies, optionally by name (any part)",
  tag,
  access: otaPublishers,
  params: pageParams.extend({ name: optionalText(64) }),
  reply: listReply(otaRule),
});

export const insertOtaRule = defineCall({
  method: 'POST',
  path: '/otaRule/insert',
  summary: 'Add a policy; at least one of the IP, time-zone and serial-number filters is on',
  tag,
  access: otaPublishers,
  params: ruleFields,
  reply: itemReply(z.object({ otaRuleId: z.number().int() })),
});

export const updateOtaRule = defineCall({
  method: 'POST',
  path: '/otaRule/update',
  summary: 'Change a policy (applies to dispatches from now on)',
  tag,
  access: otaPublishers,
  params: z.intersection(z.object({ otaRuleId: otaRuleIdParam }), ruleFields),
  reply: emptyReply,
});

export const deleteOtaRule = defineCall({
  method: 'POST',
  path: '/otaRule/delete',
  summary: 'Delete a policy with its lists; refused while a file names it',
  tag,
  access: otaPublishers,
  params: z.object({ otaRuleId: otaRuleIdParam }),
  reply: emptyReply,
});

// ---- time zones ----

export const otaRuleZone = z.object({
  otaRuleListId: z.number().int(),
  otaRuleId: z.number().int(),
  /** "GMT+08:00", one of the zones of spec 3 section 9. */
  timeZone: z.string(),
  /** Local date and time in that zone, "yyyy-MM-dd HH:mm:ss". */
  startTime: z.string(),
  /** The same instant in epoch ms. */
  startAt: z.number(),
  remark: z.string(),
});

const zoneFields = z
  .object({
    timeZone: z
      .string({ error: 'otaRule.timeZoneNull' })
      .trim()
      .min(1, { error: 'otaRule.timeZoneNull' })
      .refine((v) => timeZoneOffset(v) !== undefined, { error: 'otaRule.timeZoneInvalid' }),
    startTime: z.string({ error: 'otaRule.timeNull' }).trim().min(1, { error: 'otaRule.timeNull' }),
    remark,
  })
  .refine((z) => parseLocalDateTime(z.startTime, timeZoneOffset(z.timeZone) ?? 0) !== undefined, {
    error: 'otaRule.timeInvalid',
    path: ['startTime'],
  });

export const listOtaRuleZones = defineCall({
  method: 'GET',
  path: '/otaRule/listOtaRuleList',
  summary: "A policy's time-zone windows (up to 10000 a page)",
  tag,
  access: otaPublishers,
  params: listPage.extend({ otaRuleId: otaRuleIdParam }),
  reply: listReply(otaRuleZone),
});

export const addOtaRuleZone = defineCall({
  method: 'POST',
  path: '/otaRule/addOtaRuleList',
  summary: 'Add a time-zone window (one per zone)',
  tag,
  access: otaPublishers,
  params: z.intersection(z.object({ otaRuleId: otaRuleIdParam }), zoneFields),
  reply: itemReply(z.object({ otaRuleListId: z.number().int() })),
});

export const updateOtaRuleZone = defineCall({
  method: 'POST',
  path: '/otaRule/updateOtaRuleList',
  summary: 'Change a time-zone window',
  tag,
  access: otaPublishers,
  params: z.intersection(
    z.object({ otaRuleId: otaRuleIdParam, otaRuleListId: id('otaRule.zoneNotFound') }),
    zoneFields,
  ),
  reply: emptyReply,
});

export const deleteOtaRuleZone = defineCall({
  method: 'POST',
  path: '/otaRule/deleteOtaRuleList',
  summary: 'Delete a time-zone window',
  tag,
  access: otaPublishers,
  params: z.object({ otaRuleListId: id('otaRule.zoneNotFound') }),
  reply: emptyReply,
});

// ---- IP whitelist ----

export const otaRuleIp = z.object({
  otaRuleWhiteId: z.number().int(),
  otaRuleId: z.number().int(),
  ip: z.string(),
});

export const listOtaRuleIps = defineCall({
  method: 'GET',
  path: '/otaRule/listOtaRuleWhite',
  summary: "A policy's IP whitelist (up to 10000 a page)",
  tag,
  access: otaPublishers,
  params: listPage.extend({ otaRuleId: otaRuleIdParam }),
  reply: listReply(otaRuleIp),
});

export const addOtaRuleIp = defineCall({
  method: 'POST',
  path: '/otaRule/addOtaRuleWhite',
  summary: 'Add an IPv4 address or CIDR block (10.0.0.0/8) to the whitelist',
  tag,
  access: otaPublishers,
  params: z.object({
    otaRuleId: otaRuleIdParam,
    ip: z
      .string({ error: 'otaRule.ipNull' })
      .trim()
      .min(1, { error: 'otaRule.ipNull' })
      .refine(isIpv4OrCidr, { error: 'otaRule.ipInvalid' }),
  }),
  reply: itemReply(z.object({ otaRuleWhiteId: z.number().int() })),
});

export const deleteOtaRuleIp = defineCall({
  method: 'POST',
  path: '/otaRule/deleteOtaRuleWhite',
  summary: 'Remove an address from the whitelist',
  tag,
  access: otaPublishers,
  params: z.object({ otaRuleWhiteId: id('otaRule.ipNotFound') }),
  reply: emptyReply,
});

// ---- serial-number list (the spec's button had no action) ----

export const otaRuleSn = z.object({
  otaRuleSnId: z.number().int(),
  otaRuleId: z.number().int(),
  deviceKey: z.string(),
});

export const listOtaRuleSns = defineCall({
  method: 'GET',
  path: '/otaRule/listOtaRuleSn',
  summary: "A policy's serial numbers (up to 10000 a page), optionally those starting with deviceKey",
  tag,
  access: otaPublishers,
  params: listPage.extend({ otaRuleId: otaRuleIdParam, deviceKey: optionalText(64) }),
  reply: listReply(otaRuleSn),
});

export const addOtaRuleSns = defineCall({
  method: 'POST',
  path: '/otaRule/addOtaRuleSn',
  summary:
    'Add serial numbers: a pasted or uploaded list (text; separated by new lines, commas, semicolons or spaces; up to 20000 a call); ones already listed are kept once',
  tag,
  access: otaPublishers,
  params: z.object({
    otaRuleId: otaRuleIdParam,
    deviceKeys: z
      .string({ error: 'otaRule.snNull' })
      .max(1_500_000, { error: 'otaRule.snTooMany' })
      .transform((text) => [...new Set(text.split(/[\s,;]+/).filter(Boolean))])
      .refine((keys) => keys.length > 0, { error: 'otaRule.snNull' })
      .refine((keys) => keys.length <= RULE_SERIALS_PER_CALL, { error: 'otaRule.snTooMany' })
      .refine((keys) => keys.every((k) => DEVICE_KEY_PATTERN.test(k)), { error: 'otaRule.snInvalid' }),
  }),
  reply: itemReply(z.object({ added: z.number().int(), total: z.number().int() })),
});

export const deleteOtaRuleSn = defineCall({
  method: 'POST',
  path: '/otaRule/deleteOtaRuleSn',
  summary: 'Remove one serial number from a policy',
  tag,
  access: otaPublishers,
  params: z.object({ otaRuleSnId: id('otaRule.snNotFound') }),
  reply: emptyReply,
});

export const clearOtaRuleSns = defineCall({
  method: 'POST',
  path: '/otaRule/clearOtaRuleSn',
  summary: 'Remove every serial number of a policy',
  tag,
  access: otaPublishers,
  params: z.object({ otaRuleId: otaRuleIdParam }),
  reply: itemReply(z.object({ removed: z.number().int() })),
});
