import { z } from 'zod';
import { defineCall } from '../call.js';
import { callers } from '../access.js';
import { itemReply, listReply } from '../envelope.js';
import { optionalText, pageParams } from '../rules.js';
import { isCalendarDate } from '../dates.js';
import { DEVICE_KEY_PATTERN } from '../device/topics.js';
import { operationContent } from '../operation-log.js';
import {
  daysBetween,
  DEFAULT_REPORT_SIGN,
  dayIn,
  formatDay,
  isTimeZone,
  MAX_BUCKETS,
  parseDay,
  REPORT_SIGNS,
  type ReportSign,
  weekAround,
} from '../report-time.js';

/**
 * The reports (spec 3 section 2.7): error log, device run time, app run time, operation log.
 * Aggregated by the server in SQL, grouped by day, week, month or year in the caller's time
 * zone, paged on the server; the same rows as a printable HTML page (preview) and as an .xlsx
 * file (excel). Every report is the caller's company's only: a company account and its
 * administrators (types 2 and 4) read them.
 */

const tag = 'reports';

export const REPORT_KINDS = ['errorLog', 'deviceTime', 'appTime', 'operationLog', 'proofOfPlay'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** The longest range of the operation-log report (it lists rows, it does not group them). */
export const OPERATION_LOG_MAX_DAYS = 366;

/**
 * A day as yyyy-MM-dd, or an instant as epoch milliseconds (turned into its day in the caller's
 * zone by the schema below); empty means none.
 */
const dayOrInstant = z.preprocess(
  (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
  z
    .union([z.string(), z.number()], { error: 'report.dateInvalid' })
    .transform((v) => String(v).trim())
    .refine((v) => isCalendarDate(v) || /^\d{1,15}$/.test(v), { error: 'report.dateInvalid', abort: true })
    .optional(),
);

const timeZoneParam = z
  .string({ error: 'report.timeZoneInvalid' })
  .trim()
  .default('UTC')
  .refine(isTimeZone, { error: 'report.timeZoneInvalid' });

/** yyyy-MM-dd of a dayOrInstant value in a zone. */
export const toDay = (value: string, zone: string) =>
  isCalendarDate(value) ? value : formatDay(dayIn(Number(value), zone));

/** How many buckets of a mode the days from..to touch (before any zone is applied). */
export function bucketCount(from: string, to: string, sign: ReportSign): number {
  const a = parseDay(from);
  const b = parseDay(to);
  switch (sign) {
    case 'year':
      return b.year - a.year + 1;
    case 'month':
      return (b.year - a.year) * 12 + (b.month - a.month) + 1;
    case 'week':
      return (daysBetween(weekAround(a).monday, weekAround(b).monday) - 1) / 7 + 1;
    default:
      return daysBetween(a, b);
  }
}

const isDayOrInstant = (v: string | undefined) =>
  v !== undefined && (isCalendarDate(v) || /^\d{1,15}$/.test(v));

const rangeRules = (v: { startTime?: string; endTime?: string; timeZone: string }) => {
  // Another issue (a malformed date, an unknown zone) was reported already.
  if (
    !isTimeZone(v.timeZone) ||
    !isDayOrInstant(v.startTime) ||
    (v.endTime !== undefined && !isDayOrInstant(v.endTime))
  )
    return { from: undefined, to: undefined };
  const from = v.startTime === undefined ? undefined : toDay(v.startTime, v.timeZone);
  const to = v.endTime === undefined ? from : toDay(v.endTime, v.timeZone);
  return { from, to: from === undefined ? undefined : to };
};

const filterFields = {
  sign: z.enum(REPORT_SIGNS, { error: 'report.signInvalid' }).default(DEFAULT_REPORT_SIGN),
  startTime: dayOrInstant,
  endTime: dayOrInstant,
  deviceName: optionalText(64),
  /** One device by its key (serial number): another company's key is answered as unknown. */
  deviceKey: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === '' ? undefined : v))
    .refine((v) => v === undefined || DEVICE_KEY_PATTERN.test(v), { error: 'device.notFound' }),
  /** The caller's time zone (IANA name, e.g. Asia/Shanghai): days, weeks, months and years are its. */
  timeZone: timeZoneParam,
};

/** The checks of spec 3 section 5 on the server: week needs a date; end not before start; span within the mode's limit. */
function checkRange(
  value: { sign: ReportSign; startTime?: string; endTime?: string; timeZone: string },
  ctx: z.RefinementCtx,
) {
  if (value.startTime === undefined && value.endTime !== undefined)
    return ctx.addIssue({ code: 'custom', message: 'report.chooseDate', path: ['startTime'] });
  if (value.startTime === undefined) {
    if (value.sign === 'week')
      ctx.addIssue({ code: 'custom', message: 'report.chooseDate', path: ['startTime'] });
    return;
  }
  const { from, to } = rangeRules(value);
  if (from === undefined || to === undefined) return;
  if (to < from) return ctx.addIssue({ code: 'custom', message: 'report.endBeforeStart', path: ['endTime'] });
  if (bucketCount(from, to, value.sign) > MAX_BUCKETS[value.sign])
    ctx.addIssue({ code: 'custom', message: 'report.rangeTooLong', path: ['endTime'] });
}

export const reportFilter = z.object(filterFields).superRefine(checkRange);
export type ReportFilter = z.output<typeof reportFilter>;

function checkOperationRange(
  value: { startTime?: string; endTime?: string; timeZone: string },
  ctx: z.RefinementCtx,
) {
  if (value.startTime === undefined && value.endTime !== undefined)
    return ctx.addIssue({ code: 'custom', message: 'report.chooseDate', path: ['startTime'] });
  const { from, to } = rangeRules(value);
  if (from === undefined || to === undefined) return;
  if (to < from) return ctx.addIssue({ code: 'custom', message: 'report.endBeforeStart', path: ['endTime'] });
  if (daysBetween(parseDay(from), parseDay(to)) > OPERATION_LOG_MAX_DAYS)
    ctx.addIssue({ code: 'custom', message: 'report.rangeTooLong', path: ['endTime'] });
}

const operationFields = { startTime: dayOrInstant, endTime: dayOrInstant, timeZone: timeZoneParam };
export const operationReportFilter = z.object(operationFields).superRefine(checkOperationRange);
export type OperationReportFilter = z.output<typeof operationReportFilter>;

const reportPageParams = pageParams.extend(filterFields).superRefine(checkRange);
const operationPageParams = pageParams.extend(operationFields).superRefine(checkOperationRange);

export const errorLogRow = z.object({
  deviceName: z.string(),
  deviceKey: z.string(),
  appName: z.string(),
  model: z.string(),
  /** Logs uploaded in the period. */
  total: z.number().int(),
  /** The period, labelled by the mode: 2026-11-23, 2026-11-23 ~ 2026-11-29, 2026-11 or 2026. */
  groupDate: z.string(),
});
export const deviceTimeRow = z.object({
  deviceName: z.string(),
  deviceKey: z.string(),
  /** Screen-on time in the period, ms. */
  totalTime: z.number().int(),
  groupDate: z.string(),
});
export const appTimeRow = z.object({
  deviceName: z.string(),
  deviceKey: z.string(),
  appName: z.string(),
  packageName: z.string(),
  /** Foreground time in the period, ms. */
  totalTime: z.number().int(),
  groupDate: z.string(),
});
export const operationLogRow = z.object({
  userName: z.string(),
  /** A code of `oplog.OPERATION_ACTIONS`; the preview and export put it into words. */
  operationType: z.string(),
  /** In the caller's language; `detail` is the same content structured (null for rows older than it). */
  content: z.string(),
  detail: operationContent.nullable(),
  operatorIp: z.string(),
  /** Epoch ms. */
  operatorTime: z.number(),
});
/** Proof of play (issue 27, protocol 5.10): the plays of a program on a panel that started in the period. */
export const proofOfPlayRow = z.object({
  programId: z.number().int(),
  /** The program's name ('' when it was deleted). */
  programName: z.string(),
  deviceName: z.string(),
  deviceKey: z.string(),
  /** Plays that started in the period. */
  plays: z.number().int(),
  /** Their time on screen, start to stop, ms. */
  totalTime: z.number().int(),
  /** How many of them stopped before their play time was over (stopped, replaced, power off, error). */
  cutShort: z.number().int(),
  groupDate: z.string(),
});
export type ProofOfPlayRow = z.infer<typeof proofOfPlayRow>;
export type ErrorLogRow = z.infer<typeof errorLogRow>;
export type DeviceTimeRow = z.infer<typeof deviceTimeRow>;
export type AppTimeRow = z.infer<typeof appTimeRow>;
export type OperationLogRow = z.infer<typeof operationLogRow>;

/** The paths the console appends the filters to (spec: preview and excel of the list reply). */
export const PREVIEW_PATH = '/report/preview';
export const EXCEL_PATH = '/report/excel';

const reportReply = <T extends z.ZodType>(row: T) =>
  listReply(row).extend({
    /** Open with the same filters and `report` to see the rows as a printable page. */
    preview: z.string(),
    /** Open with the same filters and `report` to download them as an .xlsx file. */
    excel: z.string(),
  });

export const ureportErrorLog = defineCall({
  method: 'POST',
  path: '/deviceErrorLog/ureportErrorLog',
  tag,
  access: callers.deviceOperators,
  tokens: 'read',
  summary: 'Abnormal logs uploaded per device, app and model, counted per period',
  params: reportPageParams,
  reply: reportReply(errorLogRow),
});

export const ureportRptDeviceTime = defineCall({
  method: 'POST',
  path: '/rptDeviceTime/ureportRptDeviceTime',
  tag,
  access: callers.deviceOperators,
  tokens: 'read',
  summary: 'Screen-on time per device and period',
  params: reportPageParams,
  reply: reportReply(deviceTimeRow),
});

export const ureportRptAppTime = defineCall({
  method: 'POST',
  path: '/rptAppTime/ureportRptAppTime',
  tag,
  access: callers.deviceOperators,
  tokens: 'read',
  summary: 'Foreground time per device, app and period',
  params: reportPageParams,
  reply: reportReply(appTimeRow),
});

export const ureportOperationLog = defineCall({
  method: 'POST',
  path: '/platform/operationLog/ureportOperationLog',
  tag,
  access: callers.deviceOperators,
  tokens: 'read',
  summary: "The company's operation log within a range of days, oldest first",
  params: operationPageParams,
  reply: reportReply(operationLogRow),
});

export const ureportProofOfPlay = defineCall({
  method: 'POST',
  path: '/report/proofOfPlay',
  tag,
  access: callers.deviceOperators,
  summary: 'Proof of play: plays and time on screen per program, panel and period',
  params: reportPageParams,
  reply: reportReply(proofOfPlayRow),
});

const documentParams = z
  .object({
    report: z.enum(REPORT_KINDS, { error: 'report.kindInvalid' }),
    ...filterFields,
    /** The language of headings and cells (a new window does not carry the console's Accept-Language). */
    lang: z.enum(['zh-CN', 'en-US']).optional(),
  })
  .superRefine((value, ctx) =>
    value.report === 'operationLog' ? checkOperationRange(value, ctx) : checkRange(value, ctx),
  );
export type DocumentParams = z.output<typeof documentParams>;

/** The server streams the document; the console opens its address in a new window or as a download. */
const streamed = z.custom<AsyncIterable<Uint8Array>>(
  (value) => typeof value === 'object' && value !== null && Symbol.asyncIterator in value,
);

export const reportPreview = defineCall({
  method: 'GET',
  path: PREVIEW_PATH,
  tag,
  access: callers.deviceOperators,
  summary: 'A report as a printable HTML page: the same rows, the filters in its title',
  params: documentParams,
  reply: streamed,
  produces: 'text/html',
});

export const reportExcel = defineCall({
  method: 'GET',
  path: EXCEL_PATH,
  tag,
  access: callers.deviceOperators,
  summary: 'A report as an .xlsx file, streamed row by row (typed cells, frozen header)',
  params: documentParams,
  reply: streamed,
  produces: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
});

/**
 * The days a report's data span: the first and last day (in the caller's zone) with a row of it
 * in the company (abnormal logs uploaded, screen time, app use, operation-log rows); null when it
 * has none. The console offers this range, so a report shows what the panels sent.
 */
export const reportDataRange = defineCall({
  method: 'GET',
  path: '/report/dataRange',
  tag,
  access: callers.deviceOperators,
  summary: "The first and last day with data of a report, in the caller's time zone",
  params: z.object({
    report: z.enum(REPORT_KINDS, { error: 'report.kindInvalid' }),
    timeZone: timeZoneParam,
  }),
  reply: itemReply(z.object({ firstDay: z.string().nullable(), lastDay: z.string().nullable() })),
});
