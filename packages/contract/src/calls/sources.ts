import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers } from '../access.js';
import { emptyReply, itemReply, listReply } from '../envelope.js';
import { SOURCE_KEY_PATTERN } from '../device/orders.js';
import type { UserType } from '../menus.js';
import { optionalText, pageParams, requiredText } from '../rules.js';

/**
 * Signal sources (spec 2: sourceManage, /source/*). Sources and machine types form one
 * hardware catalog of the whole deployment: a machine type is the series a panel's firmware
 * reports, its sources are the inputs that firmware switches to, and OTA files name the
 * machine types they fit. Everyone who has the view reads the catalog; only the platform
 * (type 0) changes it, because a change reaches the panels of every company.
 */

const tag = 'catalogs';

/** User types that may add, change and delete catalog entries. */
export const CATALOG_EDITOR_TYPES: readonly UserType[] = ['0'];
export const mayEditCatalogs = (userType: UserType) => CATALOG_EDITOR_TYPES.includes(userType);

export const catalogId = (emptyKey = 'common.invalidId') =>
  z.coerce
    .number({ error: emptyKey })
    .int({ error: 'common.invalidId' })
    .positive({ error: 'common.invalidId' })
    .max(2_147_483_647, { error: 'common.invalidId' });

/** The key a panel switches to (order 04), so it obeys the device protocol's pattern. */
export const sourceKeyField = requiredText('notNull', 32).refine((v) => SOURCE_KEY_PATTERN.test(v), {
  error: 'source.keyRule',
});
export const sourceNameField = requiredText('notNull', 32);

export const signalSource = z.object({
  id: z.number().int(),
  name: z.string(),
  sourceKey: z.string(),
  insertTime: z.number(),
});
export type SignalSource = z.infer<typeof signalSource>;

export const listSource = defineCall({
  method: 'GET',
  path: '/source/listSource',
  tag,
  access: callers.catalogReaders,
  summary: 'One page of signal sources (start is the 1-based page), optionally by name',
  params: pageParams.extend({ name: optionalText(64) }),
  reply: listReply(signalSource),
});

export const addSource = defineCall({
  method: 'POST',
  path: '/source/addSource',
  tag,
  access: callers.catalogEditors,
  summary: 'Add a signal source; the key is unique (platform only)',
  params: z.object({ name: sourceNameField, sourceKey: sourceKeyField }),
  reply: itemReply(signalSource),
});

export const updateSource = defineCall({
  method: 'POST',
  path: '/source/updateSource',
  tag,
  access: callers.catalogEditors,
  summary: 'Rename a signal source or change its key (platform only)',
  params: z.object({ id: catalogId(), name: sourceNameField, sourceKey: sourceKeyField }),
  reply: emptyReply,
});

export const deleteSource = defineCall({
  method: 'POST',
  path: '/source/deleteSource',
  tag,
  access: callers.catalogEditors,
  summary: 'Delete a signal source; refused while a machine type uses it (platform only)',
  params: z.object({ id: catalogId() }),
  reply: emptyReply,
});
