import { PassThrough, type Writable } from 'node:stream';
import { oplog, reportTime, translate, type Language, type reports } from '@panelfleet/contract';
import type { ReportPlan, ReportRow } from './service.js';
import { sharedStyles } from './shared-styles.js';
import { SheetRows } from './sheet-rows.js';
import { streamingSheet } from './streaming-workbook.js';

type Kind = reports.ReportKind;

/** Rows a preview shows at most; the export has them all. */
export const PREVIEW_ROWS = 5000;
/** Bytes waiting in the response before the writer waits for the client. */
const HIGH_WATER = 1024 * 1024;

interface Column {
  key: string;
  width: number;
  numFmt?: string;
  /** The cell of a row: a Date, a number or a string. */
  cell(row: ReportRow, plan: ReportPlan, language: Language): Date | number | string;
  /** The text of the preview. */
  text(row: ReportRow, plan: ReportPlan, language: Language): string;
}

const PERIOD_FORMATS: Record<reportTime.ReportSign, string> = {
  day: 'yyyy-mm-dd',
  recent: 'yyyy-mm-dd',
  week: 'yyyy-mm-dd',
  month: 'yyyy-mm',
  year: 'yyyy',
};

/** A calendar day as Excel stores dates: the day itself, without a zone. */
const dayDate = (day: string) => new Date(`${day}T00:00:00Z`);
/** A period's first day as a date, made once per period (the writer does not change a date). */
const periodDates = new WeakMap<reportTime.Bucket, Date>();
function periodDate(period: reportTime.Bucket): Date {
  let date = periodDates.get(period);
  if (!date) periodDates.set(period, (date = dayDate(period.firstDay)));
  return date;
}
/** An instant as the wall-clock time of the zone, for Excel, which has no zones. */
function wallClock(epochMs: number, zone: string): Date {
  const p = reportTime.zonedParts(epochMs, zone);
  return new Date(Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second));
}
const wallText = (epochMs: number, zone: string) =>
  wallClock(epochMs, zone).toISOString().slice(0, 19).replace('T', ' ');

const duration = (ms: number, language: Language) =>
  reportTime.formatReportDuration(
    ms,
    {
      d: translate(language, 'report.duration.d'),
      h: translate(language, 'report.duration.h'),
      m: translate(language, 'report.duration.m'),
      s: translate(language, 'report.duration.s'),
    },
    language === 'zh-CN' ? '' : ' ',
  );

const typeText = (action: string, language: Language) =>
  oplog.operationTypeText(action, (key, vars) => translate(language, key, vars));

const field = <K extends string>(key: K, width: number): Column => ({
  key,
  width,
  cell: (row) => (row as unknown as Record<string, string>)[key] ?? '',
  text: (row) => String((row as unknown as Record<string, string>)[key] ?? ''),
});

const period: Column = {
  key: 'groupDate',
  width: 24,
  cell: (row) => ('period' in row ? periodDate(row.period) : ''),
  text: (row) => ('groupDate' in row ? row.groupDate : ''),
};

/** Durations: Excel's own duration numbers (days) formatted [h]:mm:ss, so they sum and sort. */
const totalTime: Column = {
  key: 'totalTime',
  width: 16,
  numFmt: '[h]:mm:ss',
  cell: (row) => ('totalTime' in row ? row.totalTime / 86_400_000 : 0),
  text: (row, _plan, language) => ('totalTime' in row ? duration(row.totalTime, language) : ''),
};

const COLUMNS: Record<Kind, Column[]> = {
  errorLog: [
    period,
    field('deviceName', 28),
    field('deviceKey', 22),
    field('appName', 24),
    field('model', 16),
    { ...field('total', 10), numFmt: '0', cell: (row) => ('total' in row ? row.total : 0) },
  ],
  deviceTime: [period, field('deviceName', 28), field('deviceKey', 22), totalTime],
  appTime: [
    period,
    field('deviceName', 28),
    field('deviceKey', 22),
    field('appName', 24),
    field('packageName', 32),
    totalTime,
  ],
  proofOfPlay: [
    period,
    field('programName', 28),
    { ...field('programId', 10), numFmt: '0', cell: (row) => ('programId' in row ? row.programId : 0) },
    field('deviceName', 28),
    field('deviceKey', 22),
    { ...field('plays', 10), numFmt: '0', cell: (row) => ('plays' in row ? row.plays : 0) },
    totalTime,
    { ...field('cutShort', 12), numFmt: '0', cell: (row) => ('cutShort' in row ? row.cutShort : 0) },
  ],
  operationLog: [
    {
      key: 'operatorTime',
      width: 20,
      numFmt: 'yyyy-mm-dd hh:mm:ss',
      cell: (row, plan) => ('operatorTime' in row ? wallClock(row.operatorTime, plan.zone) : ''),
      text: (row, plan) => ('operatorTime' in row ? wallText(row.operatorTime, plan.zone) : ''),
    },
    field('userName', 18),
    {
      key: 'operationType',
      width: 22,
      cell: (row, _plan, language) => ('operationType' in row ? typeText(row.operationType, language) : ''),
      text: (row, _plan, language) => ('operationType' in row ? typeText(row.operationType, language) : ''),
    },
    field('content', 60),
    field('operatorIp', 18),
  ],
};

export interface DocumentContext {
  kind: Kind;
  plan: ReportPlan;
  language: Language;
  filter: { deviceName?: string; deviceKey?: string };
  userName: string;
  now: number;
}

/** The report's title with its filters: "App run time report · By day · 2026-11-17 to 2026-11-23 · ...". */
export function documentTitle(ctx: DocumentContext): string {
  const t = (key: string, vars: Record<string, string> = {}) =>
    translate(ctx.language, `report.${key}`, vars);
  const parts = [t(`title.${ctx.kind}`)];
  if (ctx.kind !== 'operationLog') parts.push(t(`sign.${ctx.plan.sign}`));
  const first = ctx.plan.periods[0]!;
  const last = ctx.plan.periods[ctx.plan.periods.length - 1]!;
  const lastDay = reportTime.formatDay(reportTime.dayIn(last.end - 1, ctx.plan.zone));
  parts.push(t('filter.range', { from: first.firstDay, to: lastDay }));
  if (ctx.filter.deviceName) parts.push(t('filter.device', { name: ctx.filter.deviceName }));
  if (ctx.filter.deviceKey) parts.push(t('filter.deviceKey', { key: ctx.filter.deviceKey }));
  parts.push(t('filter.zone', { zone: ctx.plan.zone }));
  return parts.join(' · ');
}

export function fileName(ctx: DocumentContext): string {
  const last = ctx.plan.periods[ctx.plan.periods.length - 1]!;
  const lastDay = reportTime.formatDay(reportTime.dayIn(last.end - 1, ctx.plan.zone));
  return `${ctx.kind}-${ctx.plan.periods[0]!.firstDay}-${lastDay}.xlsx`;
}

/** The client went away (the response closed before the document was complete). */
export class ClientGone extends Error {
  constructor() {
    super('the client closed the connection');
    this.name = 'ClientGone';
  }
}

/** Waits while a megabyte is unread by the client; stops the writer when the client has gone. */
export async function writeWithin(out: Writable) {
  if (!out.destroyed && out.writableLength > HIGH_WATER)
    await new Promise<void>((resolve) => {
      const done = () => {
        out.off('drain', done);
        out.off('close', done);
        resolve();
      };
      out.once('drain', done);
      out.once('close', done);
    });
  if (out.destroyed) throw new ClientGone();
}

/** Rows between two looks at the compressor's backlog. */
const PACE_ROWS = 500;

/**
 * XML of the sheet that the zip compressor has not taken yet. exceljs writes each committed row
 * to the compressor without waiting for it (its StreamBuf ignores the destination's write()
 * result), and compression runs on the thread pool: left alone, a fast producer piles up the
 * whole sheet in memory. Read from exceljs's sheet stream (its pipes, or its own buffers before
 * the zip takes the entry); 0 if that shape ever changes.
 */
type Pipe = NodeJS.EventEmitter & { writableLength?: number; _writableState?: { length?: number } };

function sheetPipes(sheet: unknown): { pipes: Pipe[]; buffered: number } {
  const stream = (sheet as { stream?: { pipes?: Pipe[]; buffers?: Array<{ length?: number }> } }).stream;
  const buffered = (stream?.buffers ?? []).reduce((sum, buffer) => sum + (buffer.length ?? 0), 0);
  return { pipes: stream?.pipes ?? [], buffered };
}

function compressorBacklog(sheet: unknown): number {
  const { pipes, buffered } = sheetPipes(sheet);
  // The pipe is readable-stream's PassThrough (no writableLength getter in its version).
  return (
    buffered + pipes.reduce((sum, pipe) => sum + (pipe.writableLength ?? pipe._writableState?.length ?? 0), 0)
  );
}

/** Bytes of sheet XML the compressor may hold before the writer waits for it. */
const COMPRESSOR_HIGH_WATER = 2 * 1024 * 1024;

/** Waits until the compressor has taken all but 2 MiB of the sheet (and the client all but 1 MiB). */
export async function paced(sheet: unknown, out: Writable) {
  while (!out.destroyed && compressorBacklog(sheet) > COMPRESSOR_HIGH_WATER) {
    const pipe = sheetPipes(sheet).pipes[0];
    // Its 'drain' (the buffer ran empty) wakes the writer; a short timer covers a drain missed.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, 20);
      function done() {
        clearTimeout(timer);
        pipe?.off('drain', done);
        resolve();
      }
      pipe?.once('drain', done);
    });
  }
  await writeWithin(out);
}

/** Asks for the next chunk before the current one is written: a database on another core reads while this one writes. */
async function* oneAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let next = iterator.next();
  try {
    for (;;) {
      const current = await next;
      if (current.done) return;
      next = iterator.next();
      yield current.value;
    }
  } finally {
    await iterator.return?.();
  }
}

/**
 * The report as .xlsx through exceljs's streaming WorkbookWriter: a header row, typed cells
 * (periods and times as dates, durations as [h]:mm:ss numbers, counts as numbers), column
 * widths and a frozen header; each row is committed as it is read, and the writer waits while
 * the compressor or the client has a megabyte unread, so memory stays flat whatever the size.
 * The next period is read while the current one is written.
 */
export async function writeWorkbook(
  ctx: DocumentContext,
  chunks: AsyncIterable<ReportRow[]>,
  out: PassThrough,
): Promise<number> {
  const columns = COLUMNS[ctx.kind];
  const { workbook, sheet } = streamingSheet(
    out,
    ctx.userName,
    ctx.now,
    translate(ctx.language, `report.title.${ctx.kind}`),
  );
  sheet.columns = columns.map((c) => ({
    header: translate(ctx.language, `report.column.${c.key}`),
    key: c.key,
    width: c.width,
    ...(c.numFmt || c.key === 'groupDate'
      ? { style: { numFmt: c.key === 'groupDate' ? PERIOD_FORMATS[ctx.plan.sign] : c.numFmt } }
      : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  const rows = new SheetRows(workbook, sheet, sharedStyles(sheet), columns.length, 2);
  let count = 0;
  for await (const chunk of oneAhead(chunks)) {
    let xml: string[] = [];
    for (const row of chunk) {
      xml.push(rows.row(columns.map((c) => c.cell(row, ctx.plan, ctx.language))));
      if (++count % PACE_ROWS === 0) {
        rows.write(xml.join(''));
        xml = [];
        await paced(sheet, out);
      }
    }
    rows.write(xml.join(''));
    await paced(sheet, out);
  }
  sheet.commit();
  await workbook.commit();
  return count;
}

const escape = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The same rows as a printable page (at most PREVIEW_ROWS; a note says when there are more). */
export async function writePreview(
  ctx: DocumentContext,
  chunks: AsyncIterable<ReportRow[]>,
  out: PassThrough,
): Promise<void> {
  const columns = COLUMNS[ctx.kind];
  const title = documentTitle(ctx);
  out.write(`<!doctype html><html lang="${ctx.language}"><head><meta charset="utf-8"><title>${escape(title)}</title>
<style>
body{font-family:system-ui,"Microsoft YaHei","WenQuanYi Micro Hei",sans-serif;margin:24px;color:#222}
h1{font-size:18px;margin:0 0 4px}p{color:#666;font-size:12px;margin:0 0 12px}
table{border-collapse:collapse;width:100%;font-size:12px}th,td{border:1px solid #ccc;padding:4px 6px;text-align:left}
th{background:#f3f3f3}td.n{text-align:right;white-space:nowrap}tr{page-break-inside:avoid}
thead{display:table-header-group}@media print{body{margin:0}p.note{display:none}}
</style></head><body><h1>${escape(title)}</h1>`);
  out.write(
    `<p>${escape(translate(ctx.language, 'report.generated', { time: wallText(ctx.now, ctx.plan.zone), user: ctx.userName }))}</p>`,
  );
  out.write(
    `<table><thead><tr>${columns.map((c) => `<th>${escape(translate(ctx.language, `report.column.${c.key}`))}</th>`).join('')}</tr></thead><tbody>`,
  );
  let shown = 0;
  let cut = false;
  for await (const chunk of chunks) {
    let html = '';
    for (const row of chunk) {
      if (shown >= PREVIEW_ROWS) {
        cut = true;
        break;
      }
      shown++;
      html += `<tr>${columns
        .map((c) => `<td${c.numFmt ? ' class="n"' : ''}>${escape(c.text(row, ctx.plan, ctx.language))}</td>`)
        .join('')}</tr>`;
    }
    if (html) out.write(html);
    if (cut) break;
    await writeWithin(out);
  }
  if (!shown)
    out.write(
      `<tr><td colspan="${columns.length}">${escape(translate(ctx.language, 'report.noRows'))}</td></tr>`,
    );
  out.write('</tbody></table>');
  out.write(`<p>${escape(translate(ctx.language, 'report.rows', { count: shown }))}</p>`);
  if (cut)
    out.write(`<p class="note">${escape(translate(ctx.language, 'report.previewCut', { shown }))}</p>`);
  out.end('</body></html>');
}
