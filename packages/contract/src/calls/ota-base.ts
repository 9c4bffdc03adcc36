import { z } from 'zod';
import { callers, users } from '../access.js';
import { VERSION_PATTERN } from '../rollouts.js';

// What the OTA calls share: who may call, id parameters, catalog id lists, versions.

/** Who opens the OTA screens (otaPromote: 0, 1, 1-special, 3; upgradeManage: 4). */
export const otaPublishers = users(['0', '1', '3', '4'], { deployment: 'any' });
/** Who reads tasks and the OTA log within their reach. */
export const otaReaders = users(['0', '1', '2', '3', '4'], { deployment: 'any' });
/** Who creates and steers tasks: the operators of the company's panels. */
export const otaOperators = callers.deviceOperators;

export const positiveId = (key: string) =>
  z.coerce
    .number({ error: key })
    .int({ error: key })
    .positive({ error: key })
    .max(2_147_483_647, { error: key });

export const otaFileIdParam = positiveId('ota.fileNotFound');
export const otaTaskIdParam = positiveId('ota.taskNotFound');
export const otaDescriptionIdParam = positiveId('ota.descriptionNotFound');
export const otaVersionIdParam = positiveId('otaVersion.notFound');

/** Comma-separated catalog ids as forms send them ("" is none). */
export const idCsv = (key: string, required: boolean) =>
  z
    .string()
    .trim()
    .max(2000, { error: key })
    .default('')
    .transform((text) => (text === '' ? [] : text.split(',').map((part) => Number(part.trim()))))
    .refine((ids) => ids.every((id) => Number.isInteger(id) && id > 0 && id <= 2_147_483_647), { error: key })
    .transform((ids) => [...new Set(ids)])
    .refine((ids) => !required || ids.length > 0, { error: key })
    .refine((ids) => ids.length <= 100, { error: key });

export const versionField = (emptyKey: string) =>
  z
    .string({ error: emptyKey })
    .trim()
    .min(1, { error: emptyKey })
    .refine((v) => VERSION_PATTERN.test(v), { error: 'ota.versionInvalid' });
