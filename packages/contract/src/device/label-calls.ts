import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers } from '../access.js';
import { itemReply } from '../envelope.js';
import { MAX_RECORD_ID } from '../ids.js';
import { labelName } from './calls.js';
import { groupRow, labelFilter } from './label-filter.js';

export const saveDynamicGroup = defineCall({
  method: 'POST',
  path: '/platform/group/saveDynamic',
  summary:
    'Create a dynamic label (no groupId) or change its name and filter; its panels are those the filter matches',
  tag: 'labels',
  access: callers.deviceOperators,
  params: z.object({
    groupId: z
      .number({ error: 'label.notFound' })
      .int({ error: 'label.notFound' })
      .min(1, { error: 'label.notFound' })
      .max(MAX_RECORD_ID, { error: 'label.notFound' })
      .optional(),
    groupName: labelName('group.nameNull'),
    filter: labelFilter,
  }),
  reply: itemReply(groupRow),
});

export const countGroupFilter = defineCall({
  method: 'POST',
  path: '/platform/group/countFilter',
  summary: "How many of the company's panels a dynamic label's filter matches now",
  tag: 'labels',
  access: callers.deviceOperators,
  tokens: 'read',
  params: z.object({ filter: labelFilter }),
  reply: itemReply(z.object({ count: z.number().int() })),
});
