import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers } from '../access.js';
import { emptyReply, itemReply, listReply } from '../envelope.js';
import { optionalText, pageParams, phone, requiredText } from '../rules.js';
import { MAX_RECORD_ID } from '../ids.js';
import { binary, id, millis, tag } from './accounts-fields.js';

// The platform's account calls: salespeople and licenses (spec 1); see accounts.ts.

// ---------- salespeople ----------

export const salesperson = z.object({
  id: z.number().int(),
  work_number: z.string(),
  name: z.string(),
  companyName: z.string(),
  phone: z.string(),
  jobState: binary,
});

const salespersonFields = {
  name: requiredText('saleMan.contentNull', 32),
  companyName: requiredText('saleMan.contentNull', 64),
  phone: phone('saleMan.contentNull'),
  jobState: binary.default(1),
};

export const saleManList = defineCall({
  method: 'GET',
  path: '/platform/saleMan/list',
  tag,
  access: callers.platform,
  summary: 'Salespeople, paged, optionally by name',
  params: pageParams.extend({ name: optionalText(32) }),
  reply: listReply(salesperson),
});

export const saleManAdd = defineCall({
  method: 'POST',
  path: '/platform/saleMan/add',
  tag,
  access: callers.platform,
  summary: 'Add a salesperson',
  params: z.object({
    ...salespersonFields,
    work_number: requiredText('saleMan.contentNull', 32).refine((v) => /^[A-Za-z0-9]+$/.test(v), {
      error: 'saleMan.errorWorkNumber',
    }),
  }),
  reply: emptyReply,
});

export const saleManUpdate = defineCall({
  method: 'POST',
  path: '/platform/saleMan/update',
  tag,
  access: callers.platform,
  summary: 'Change a salesperson (the work number stays)',
  params: z.object({ id, ...salespersonFields }),
  reply: emptyReply,
});

export const saleManDelete = defineCall({
  method: 'POST',
  path: '/platform/saleMan/delete',
  tag,
  access: callers.platform,
  summary: 'Delete a salesperson no license refers to',
  params: z.object({ id }),
  reply: emptyReply,
});

// ---------- licenses ----------

export const license = z.object({
  id: z.number().int(),
  license: z.string(),
  companyName: z.string(),
  saleName: z.number().int(),
  saleManName: z.string(),
  state: z.number().int(),
  validBeginTime: z.number(),
  validEndTime: z.number(),
  type: binary,
});

const licenseFields = {
  companyName: requiredText('notNull', 64),
  saleName: z.coerce
    .number({ error: 'notNull' })
    .int()
    .positive({ error: 'notNull' })
    .max(MAX_RECORD_ID, { error: 'common.invalidId' }),
  state: z.coerce.number().int().min(1).max(2),
  validBeginTime: millis,
  validEndTime: millis,
  type: binary,
};
const validWindow = (v: { validBeginTime: number; validEndTime: number }) =>
  v.validBeginTime < v.validEndTime;

export const licenseList = defineCall({
  method: 'GET',
  path: '/platform/license/list',
  tag,
  access: callers.platform,
  summary: 'Licenses, paged, optionally by company name',
  params: pageParams.extend({ companyName: optionalText(64) }),
  reply: listReply(license),
});

export const licenseAdd = defineCall({
  method: 'POST',
  path: '/platform/license/add',
  tag,
  access: callers.platform,
  summary: 'Create a license; its key is generated',
  params: z.object(licenseFields).refine(validWindow, { error: 'user.validWindow', path: ['validEndTime'] }),
  reply: itemReply(z.object({ license: z.string() })),
});

export const licenseUpdate = defineCall({
  method: 'POST',
  path: '/platform/license/update',
  tag,
  access: callers.platform,
  summary: 'Change a license; a used license keeps state 0',
  params: z
    .object({ id, ...licenseFields })
    .refine(validWindow, { error: 'user.validWindow', path: ['validEndTime'] }),
  reply: emptyReply,
});

export const licenseDelete = defineCall({
  method: 'POST',
  path: '/platform/license/delete',
  tag,
  access: callers.platform,
  summary: 'Delete an unused license',
  params: z.object({ id }),
  reply: emptyReply,
});

export type Salesperson = z.infer<typeof salesperson>;
export type License = z.infer<typeof license>;
