import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers } from '../access.js';
import { emptyReply, itemReply, listReply } from '../envelope.js';
import { optionalCalendarDate, utcOffsetParam } from '../dates.js';
import { optionalText, pageParams, requiredText } from '../rules.js';

/**
 * Private deployments: a PanelFleet server started with PLATFORM_URL must be activated with a
 * type-1 (server) license, then reports itself to the platform, which lists it (spec 1 sections 2, 7, 8).
 */

const tag = 'servers';

/** hhtErrorCode of checkLicense and of sign-in on a private deployment. */
export const LICENSE_CODES = { firstActivation: '3004', reactivation: '3005' } as const;

export const checkLicense = defineCall({
  method: 'POST',
  path: '/serverLicense/checkLicense',
  tag,
  access: callers.anyone,
  summary:
    'This deployment’s activation: success, or fail with hhtErrorCode 3004 (first activation) or 3005 (re-activation)',
  params: z.object({}),
  reply: emptyReply,
});

const licenseParam = z.object({ license: requiredText('Active.nullLicense', 64) });

export const registerLicense = defineCall({
  method: 'POST',
  path: '/serverLicense/registerLicense',
  tag,
  access: callers.anyone,
  summary: 'First activation of this private deployment with a server license',
  params: licenseParam,
  reply: emptyReply,
});

export const activationServer = defineCall({
  method: 'POST',
  path: '/serverLicense/activationServer',
  tag,
  access: callers.anyone,
  summary: 'Re-activation of this private deployment after its license expired',
  params: licenseParam,
  reply: emptyReply,
});

export const serverRow = z.object({
  id: z.number().int(),
  companyName: z.string(),
  isOnline: z.union([z.literal(0), z.literal(1)]),
  mac: z.string(),
  os: z.string(),
  state: z.union([z.literal(0), z.literal(1)]),
  beginDate: z.number(),
  endDate: z.number(),
  createDate: z.number(),
});
export type ServerRow = z.infer<typeof serverRow>;

export const listServer = defineCall({
  method: 'GET',
  path: '/server/listServer',
  tag,
  access: callers.platform,
  summary:
    'Private deployments known to the platform, paged; filters company, creation day (yyyy-MM-dd in the caller’s zone, utcOffset minutes east of UTC) and online',
  params: pageParams.extend({
    companyName: optionalText(64),
    createDate: optionalCalendarDate(),
    utcOffset: utcOffsetParam.optional(),
    isOnline: z
      .enum(['0', '1'])
      .optional()
      .or(z.literal('').transform(() => undefined)),
  }),
  reply: listReply(serverRow),
});

export const syncData = defineCall({
  method: 'POST',
  path: '/server/syncData',
  tag,
  access: callers.platform,
  summary: 'Recompute every deployment’s state (available or expired) from its license validity now',
  params: z.object({}),
  reply: itemReply(z.object({ expired: z.number().int(), available: z.number().int() })),
});

// ---------- between a private deployment and the platform ----------

const identity = { serverId: z.string().uuid(), mac: z.string().max(64), os: z.string().max(128) };

export const enrollServer = defineCall({
  method: 'POST',
  path: '/server/enroll',
  tag,
  access: callers.anyone,
  summary: 'Called by a private deployment: activate (first) or re-activate (renew) with a server license',
  params: z.object({
    ...identity,
    license: requiredText('Active.nullLicense', 64),
    mode: z.enum(['first', 'renew']),
  }),
  reply: itemReply(
    z.object({ secret: z.string(), companyName: z.string(), validBegin: z.number(), validEnd: z.number() }),
  ),
});

export const reportServer = defineCall({
  method: 'POST',
  path: '/server/report',
  tag,
  access: callers.anyone,
  summary: 'Called by a private deployment on a timer: it is alive, with its mac and os',
  params: z.object({ ...identity, secret: z.string().min(16).max(128) }),
  reply: itemReply(z.object({ validEnd: z.number() })),
});
