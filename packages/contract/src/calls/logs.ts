import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers, users } from '../access.js';
import { emptyReply, itemReply, listReply, okBase } from '../envelope.js';
import { abnormalLog as abnormalLogPayload, MAX_LOG_UPLOAD_BYTES } from '../device/payloads.js';
import { optionalText, pageParams } from '../rules.js';
import { operationContent } from '../operation-log.js';
import { optionalCalendarDate, utcOffsetParam } from '../dates.js';

/**
 * The operation log and the abnormal log (spec 3 section 2.8). The spec shows no paths; they
 * are chosen in the style of its report calls.
 *
 * Who sees what:
 * - operation log: the company account (type 2) and a customer manager (type 3) read their own
 *   organisation's rows (every write by one of its users or API clients);
 * - abnormal log: a distributor's staff (type 1, not on the special deployment) read and process
 *   the logs of the customers registered under its organisation, a customer manager (type 3)
 *   those of its own company. Nobody else: a company's own administrators see them counted in
 *   the error-log report.
 */

const tag = 'logs';

export const operationLogRecord = z.object({
  id: z.number().int(),
  /** The content in the caller's language (rows written before the log kept it structured: their stored English text). */
  content: z.string(),
  /** The content, structured, for a console that puts it into words in another language; null for older rows. */
  detail: operationContent.nullable(),
  userName: z.string(),
  /** The kind of write, a code of `oplog.OPERATION_ACTIONS` (its words: `oplog.type.<code>` of the catalog). */
  operationType: z.string(),
  operatorIp: z.string(),
  /** Epoch ms. */
  operatorTime: z.number(),
});
export type OperationLogRecord = z.infer<typeof operationLogRecord>;

export const listOperationLog = defineCall({
  method: 'POST',
  path: '/platform/operationLog/list',
  tag,
  // The platform and distributors read their own organisation's actions (issue 25 item 10).
  access: users(['0', '1', '2', '3']),
  tokens: 'read',
  summary:
    "One page of the organisation's operation log, newest first, optionally by any part of the content",
  params: pageParams.extend({ content: optionalText(200) }),
  reply: listReply(operationLogRecord),
});

/** Abnormal-log state: "1" processed, "0" not yet. */
export const ABNORMAL_LOG_STATES = ['0', '1'] as const;
/** Characters of log text per page of the view dialog; the whole text is a download. */
export const LOG_PAGE_CHARS = 32_768;

export const abnormalLogRecord = z.object({
  id: z.number().int(),
  fileName: z.string(),
  deviceKey: z.string(),
  deviceName: z.string(),
  /** Epoch ms the server received it. */
  uploadDate: z.number(),
  /** Epoch ms the panel says it happened. */
  occurredAt: z.number(),
  model: z.string(),
  appName: z.string(),
  status: z.enum(ABNORMAL_LOG_STATES),
  /** Characters of the log text. */
  textLength: z.number().int(),
  processedBy: z.string(),
});
export type AbnormalLogRecord = z.infer<typeof abnormalLogRecord>;

const logReaders = users(['1', '3']);
const logId = z.coerce
  .number({ error: 'abnormalLog.notFound' })
  .int({ error: 'abnormalLog.notFound' })
  .min(1, { error: 'abnormalLog.notFound' })
  .max(2_147_483_647, { error: 'abnormalLog.notFound' });

export const listAbnormalLog = defineCall({
  method: 'GET',
  path: '/deviceErrorLog/list',
  tag,
  access: logReaders,
  summary: 'One page of abnormal logs, newest first, by device key, upload day, model and app name',
  params: pageParams.extend({
    deviceKey: optionalText(64),
    uploadDate: optionalCalendarDate(),
    /** Minutes east of UTC of the console on that day, so uploadDate is the operator's day. */
    utcOffset: utcOffsetParam.optional(),
    model: optionalText(64),
    appName: optionalText(128),
  }),
  reply: listReply(abnormalLogRecord),
});

export const viewErrorLog = defineCall({
  method: 'POST',
  path: '/deviceErrorLog/viewErrorLog',
  tag,
  access: logReaders,
  summary: `One page (${LOG_PAGE_CHARS} characters) of a log's text in listObject; the whole text is a download`,
  params: z.object({
    id: logId,
    page: z.coerce.number({ error: 'abnormalLog.pageInvalid' }).int().min(1).max(1_000_000).default(1),
  }),
  reply: okBase.extend({
    listObject: z.string(),
    dataObject: z.object({
      page: z.number().int(),
      pages: z.number().int(),
      textLength: z.number().int(),
      fileName: z.string(),
    }),
  }),
});

export const downloadErrorLog = defineCall({
  method: 'GET',
  path: '/deviceErrorLog/download',
  tag,
  access: logReaders,
  summary: "A log's whole text as a file",
  params: z.object({ id: logId }),
  reply: z.custom<AsyncIterable<Uint8Array>>(
    (value) => typeof value === 'object' && value !== null && Symbol.asyncIterator in value,
  ),
  produces: 'text/plain',
});

export const updateErrorLogStatus = defineCall({
  method: 'POST',
  path: '/deviceErrorLog/updateStatus',
  tag,
  access: logReaders,
  summary: 'Mark a log processed ("1"); a processed log stays processed',
  params: z.object({
    id: logId,
    status: z.literal('1', { error: 'abnormalLog.statusInvalid' }),
  }),
  reply: emptyReply,
});

/**
 * A panel uploads an abnormal log whose MQTT payload would pass 256 KiB (protocol 5.4): the
 * same JSON as the `log` message, as the body (at most 16 MiB of text), with the panel's own
 * credentials (HTTP Basic). The same id sent again is stored once.
 */
export const MAX_LOG_UPLOAD_BODY_BYTES = 2 * MAX_LOG_UPLOAD_BYTES + 64 * 1024;

export const uploadAbnormalLog = defineCall({
  method: 'POST',
  path: '/device/abnormalLog',
  tag: 'device',
  access: callers.panel,
  summary: 'A panel uploads an abnormal log too large for one MQTT message (JSON, text up to 16 MiB)',
  params: abnormalLogPayload,
  reply: itemReply(z.object({ id: z.string(), stored: z.boolean() })),
});
