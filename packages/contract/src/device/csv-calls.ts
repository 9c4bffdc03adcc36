import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers } from '../access.js';

/** The device list's export, as a file in the format asked for (device-csv docs: docs/device-import.md). */
export const DEVICE_EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export const DEVICE_EXPORT_PATH = '/platform/device/export';

/**
 * The devices the list shows for the same filter, all of them (not one page), as CSV (UTF-8 with
 * a byte order mark) or .xlsx, streamed as they are read; headings in `lang` or the caller's
 * language. A search of three characters or more lists what the list lists (its first
 * DEVICE_SEARCH_CAP matches).
 */
export const exportDevices = defineCall({
  method: 'GET',
  path: DEVICE_EXPORT_PATH,
  summary: "The company's devices matching the list's filter as a CSV or .xlsx file, streamed",
  tag: 'devices',
  access: callers.deviceOperators,
  params: z.object({
    deviceName: z.string().trim().max(64).optional(),
    format: z.enum(DEVICE_EXPORT_FORMATS, { error: 'deviceCsv.formatInvalid' }),
    /** A download link does not carry the console's Accept-Language. */
    lang: z.enum(['zh-CN', 'en-US']).optional(),
  }),
  reply: z.custom<AsyncIterable<Uint8Array>>(
    (value) => typeof value === 'object' && value !== null && Symbol.asyncIterator in value,
  ),
  produces: 'text/csv',
});
