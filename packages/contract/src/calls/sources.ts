import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers } from '../access.js';
import { emptyReply, itemReply, listReply } from '../envelope.js';
import { SOURCE_KEY_PATTERN } from '../device/orders.js';
import type { UserType } from '../menus.js';
import { optionalText, pageParams, requiredText } from '../rules.js';

/**
 * Signal sources (spec 2: sourceManage, /source/*). Sources and machine types form the hardware
 * catalog of the deployment: a machine type is the series a panel's firmware reports, its
 * sources are the inputs that firmware switches to, and OTA files name the machine types they
 * fit. Only the platform (type 0) changes the catalog, because a change reaches the panels of
 * every company.
 *
 * Spec 2's signal-source screen offers add, edit and delete to whoever opens it, and the spec's
 * menus open it (a tab of OTA or upgrade management) to types 0, 1, 3 and 4. So each of them may
 * add sources, and change or delete those its own organisation added: a distributor's reach its
 * customers' panels, a company's its own. The device source switch offers them after the inputs
 * of the panel's machine type. The catalog and an organisation above the caller are read-only.
 */

const tag = 'catalogs';

/** User types that may add, change and delete catalog entries (machine types, the catalog's sources, OTA versions). */
export const CATALOG_EDITOR_TYPES: readonly UserType[] = ['0'];
export const mayEditCatalogs = (userType: UserType) => CATALOG_EDITOR_TYPES.includes(userType);

/** User types that may add signal sources (their organisation's own; the platform's are the catalog). */
export const SOURCE_EDITOR_TYPES: readonly UserType[] = ['0', '1', '3', '4'];
export const mayAddSources = (userType: UserType) => SOURCE_EDITOR_TYPES.includes(userType);

/** Who keeps a signal source: the deployment's catalog, the caller's distributor, or a company. */
export const SOURCE_OWNERS = ['catalog', 'distributor', 'company'] as const;
export type SourceOwner = (typeof SOURCE_OWNERS)[number];

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
  owner: z.enum(SOURCE_OWNERS),
  /** The caller's organisation keeps it, so the caller may edit and delete it. */
  editable: z.boolean(),
});
export type SignalSource = z.infer<typeof signalSource>;

export const listSource = defineCall({
  method: 'GET',
  path: '/source/listSource',
  tag,
  access: callers.catalogReaders,
  summary: "One page of signal sources by name: the catalog's and those of the caller's organisations",
  params: pageParams.extend({ name: optionalText(64) }),
  reply: listReply(signalSource),
});

export const addSource = defineCall({
  method: 'POST',
  path: '/source/addSource',
  tag,
  access: callers.sourceEditors,
  summary: "Add a signal source of the caller's organisation (the platform's: the catalog)",
  params: z.object({ name: sourceNameField, sourceKey: sourceKeyField }),
  reply: itemReply(signalSource),
});

export const updateSource = defineCall({
  method: 'POST',
  path: '/source/updateSource',
  tag,
  access: callers.sourceEditors,
  summary: "Change a signal source of the caller's organisation",
  params: z.object({ id: catalogId(), name: sourceNameField, sourceKey: sourceKeyField }),
  reply: emptyReply,
});

export const deleteSource = defineCall({
  method: 'POST',
  path: '/source/deleteSource',
  tag,
  access: callers.sourceEditors,
  summary: "Delete a signal source of the caller's organisation, unless a machine type uses it",
  params: z.object({ id: catalogId() }),
  reply: emptyReply,
});
