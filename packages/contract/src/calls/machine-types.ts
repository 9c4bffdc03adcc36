import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers, users } from '../access.js';
import { emptyReply, itemReply, listReply } from '../envelope.js';
import { optionalText, pageParams, requiredText } from '../rules.js';
import { catalogId, signalSource } from './sources.js';

/**
 * Machine types and their input sources (spec 3 section 2.5; the catalog rules are in
 * sources.ts). The spec shows no paths, so they are chosen here in the style of
 * /platform/machineType/listSource, which the device detail modal's source switch calls.
 * Delete is a POST although the spec says GET: a GET that writes would pass the Origin guard
 * and could be triggered by a link on another site (SameSite=Lax sends the cookie).
 */

const tag = 'catalogs';

/**
 * Enabled ('1') or disabled ('0'). A disabled machine type is not offered where one is chosen
 * (OTA files, when they come); devices that report it still resolve to it.
 */
export const MACHINE_TYPE_STATES = ['1', '0'] as const;
export const MAX_SOURCES_PER_TYPE = 50;

/** The name a panel reports as its machineType (protocol: at most 64 characters). */
export const machineTypeNameField = requiredText('notNull', 64);

/** Comma-separated source ids as the form sends them; empty means none. */
export const inputSourceIdsField = z
  .string()
  .trim()
  .max(2000, { error: 'machineType.sourcesInvalid' })
  .default('')
  .transform((text) => (text === '' ? [] : text.split(',').map((part) => Number(part.trim()))))
  .refine((ids) => ids.every((id) => Number.isInteger(id) && id > 0 && id <= 2_147_483_647), {
    error: 'machineType.sourcesInvalid',
  })
  .transform((ids) => [...new Set(ids)])
  .refine((ids) => ids.length <= MAX_SOURCES_PER_TYPE, { error: 'machineType.tooManySources' });

export const machineTypeSource = z.object({
  /** The link's own id. */
  id: z.number().int(),
  inputSourceId: z.number().int(),
  name: z.string(),
  sourceKey: z.string(),
});

export const machineType = z.object({
  machineTypeId: z.number().int(),
  machineType: z.string(),
  enable: z.enum(MACHINE_TYPE_STATES),
  creationDate: z.number(),
  createMan: z.string(),
  /**
   * Devices (and, once they exist, OTA files) that refer to it. The platform sees every
   * reference and name and state lock while it is not 0; other readers see only the
   * devices within their own reach.
   */
  referenceCount: z.number().int().nonnegative(),
  inputSources: z.array(machineTypeSource),
});
export type MachineType = z.infer<typeof machineType>;

const machineTypeId = z.object({ machineTypeId: catalogId() });
const machineTypeFields = {
  machineType: machineTypeNameField,
  enable: z.enum(MACHINE_TYPE_STATES, { error: 'machineType.enableInvalid' }).default('1'),
  inputSourceIds: inputSourceIdsField,
};

export const listMachineTypes = defineCall({
  method: 'GET',
  path: '/platform/machineType/list',
  tag,
  access: callers.catalogReaders,
  summary: 'One page of machine types with their input sources, optionally by name',
  params: pageParams.extend({ machineType: optionalText(64) }),
  reply: listReply(machineType),
});

export const selectByMachineTypeId = defineCall({
  method: 'GET',
  path: '/platform/machineType/selectByMachineTypeId',
  tag,
  access: callers.catalogReaders,
  summary: 'One machine type with its input sources',
  params: machineTypeId,
  reply: itemReply(machineType),
});

export const listInputSources = defineCall({
  method: 'GET',
  path: '/platform/machineType/listInputSource',
  tag,
  access: callers.catalogReaders,
  summary: 'Every signal source, by name, for choosing the input sources of a machine type',
  params: z.object({}),
  reply: listReply(signalSource),
});

export const insertMachineType = defineCall({
  method: 'POST',
  path: '/platform/machineType/insert',
  tag,
  access: callers.catalogEditors,
  summary: 'Add a machine type with its input sources; the name is unique (platform only)',
  params: z.object(machineTypeFields),
  reply: itemReply(z.object({ machineTypeId: z.number().int() })),
});

export const updateMachineType = defineCall({
  method: 'POST',
  path: '/platform/machineType/update',
  tag,
  access: callers.catalogEditors,
  summary: 'Change a machine type; name and state are locked while it is referenced (platform only)',
  params: machineTypeId.extend(machineTypeFields),
  reply: emptyReply,
});

export const deleteMachineType = defineCall({
  method: 'POST',
  path: '/platform/machineType/delete',
  tag,
  access: callers.catalogEditors,
  summary: 'Delete a machine type that nothing refers to (platform only)',
  params: machineTypeId,
  reply: emptyReply,
});

export const sourceOption = z.object({ name: z.string(), sourceKey: z.string() });

export const sourcesOfMachineType = defineCall({
  method: 'GET',
  path: '/platform/machineType/listSource',
  tag,
  access: users(['0', '1', '2', '3', '4']),
  summary: "The input sources of a machine type, in the catalog's order (the device source switch)",
  params: machineTypeId,
  reply: listReply(sourceOption),
});
