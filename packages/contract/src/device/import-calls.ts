import { z } from 'zod';
import { defineCall, type MultipartFile } from '../call.js';
import { callers } from '../access.js';
import { itemReply } from '../envelope.js';

/**
 * The device list's CSV import (docs/device-import.md): panels by serial number — name, labels,
 * location, remark — before or after they enroll. Preview first (what would change, an error per
 * bad line), then apply the same file, all or nothing.
 */
export const DEVICE_IMPORT_PREVIEW_PATH = '/platform/device/import/preview';
export const DEVICE_IMPORT_APPLY_PATH = '/platform/device/import/apply';
/** The largest file taken (bytes): 50,000 lines of long names and labels fit several times over. */
export const DEVICE_IMPORT_MAX_BYTES = 16 * 1024 * 1024;
/** The most data lines in one file. */
export const DEVICE_IMPORT_MAX_LINES = 100_000;
/** A preview lists at most this many changes and this many errors (the counts cover all of them). */
export const DEVICE_IMPORT_LISTED = 500;
/** The columns an import reads; the others of an export (online, state, …) are ignored. */
export const DEVICE_IMPORT_COLUMNS = ['serial', 'name', 'labels', 'location', 'remark'] as const;
export type DeviceImportColumn = (typeof DEVICE_IMPORT_COLUMNS)[number];

const file = z.custom<MultipartFile>(
  (v) => typeof v === 'object' && v !== null && 'bytes' in v && 'fileName' in v,
  { error: 'deviceImport.fileNull' },
);

const fieldChange = z.object({
  field: z.enum(['name', 'labels', 'location', 'remark']),
  from: z.string(),
  to: z.string(),
});

/** One line that would change something: an enrolled panel, or a serial waiting for its panel. */
export const deviceImportChange = z.object({
  line: z.number().int(),
  serial: z.string(),
  /** update: a panel of the company; pending: no panel yet, applied when it enrolls. */
  kind: z.enum(['update', 'pending']),
  fields: z.array(fieldChange),
});
export type DeviceImportChange = z.infer<typeof deviceImportChange>;

/** A bad line: where (line of the file, 1 is the headings; the column's key) and why, in the caller's language. */
export const deviceImportError = z.object({
  line: z.number().int(),
  column: z.string(),
  message: z.string(),
});
export type DeviceImportError = z.infer<typeof deviceImportError>;

export const deviceImportCounts = z.object({
  /** Data lines read. */
  lines: z.number().int(),
  /** Panels of the company whose fields change. */
  updated: z.number().int(),
  /** Serials no panel holds yet (new or changed waiting records). */
  pending: z.number().int(),
  /** Lines that change nothing. */
  unchanged: z.number().int(),
  /** Labels the import creates. */
  labelsCreated: z.number().int(),
  errors: z.number().int(),
});

export type DeviceImportCounts = z.infer<typeof deviceImportCounts>;

export const deviceImportPreview = deviceImportCounts.extend({
  /** The file's SHA-256: apply takes it with the same file. */
  token: z.string(),
  changes: z.array(deviceImportChange),
  errorLines: z.array(deviceImportError),
  newLabels: z.array(z.string()),
});
export type DeviceImportPreview = z.infer<typeof deviceImportPreview>;

export const previewDeviceImport = defineCall({
  method: 'POST',
  path: DEVICE_IMPORT_PREVIEW_PATH,
  summary:
    'What a CSV of panels (multipart `file`, UTF-8, at most 16 MiB) would change: counts, the first 500 changes and errors (line, column, reason). Nothing is written.',
  tag: 'devices',
  access: callers.deviceOperators,
  /** It writes nothing: a read-only token may ask. */
  tokens: 'read',
  multipartFile: 'file',
  params: z.object({ file }),
  reply: itemReply(deviceImportPreview),
});

export const applyDeviceImport = defineCall({
  method: 'POST',
  path: DEVICE_IMPORT_APPLY_PATH,
  summary:
    'Applies a previewed CSV (the same `file` and the preview’s `token`) in one transaction: any bad line, or a file other than the one previewed, changes nothing',
  tag: 'devices',
  access: callers.deviceOperators,
  multipartFile: 'file',
  params: z.object({
    file,
    token: z
      .string({ error: 'deviceImport.tokenNull' })
      .regex(/^[0-9a-f]{64}$/, { error: 'deviceImport.tokenNull' }),
  }),
  reply: itemReply(deviceImportCounts),
});
