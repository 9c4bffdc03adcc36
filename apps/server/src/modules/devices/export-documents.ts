import type { PassThrough } from 'node:stream';
import { translate, type Language } from '@panelfleet/contract';
import { paced, writeWithin } from '../reports/documents.js';
import { sharedStyles } from '../reports/shared-styles.js';
import { SheetRows, type SheetValue } from '../reports/sheet-rows.js';
import { streamingSheet } from '../reports/streaming-workbook.js';
import type { ExportedDevice } from './export-service.js';

/** How the import reads a labels cell: names separated by semicolons (docs/device-import.md). */
export const LABEL_SEPARATOR = ';';

interface Column {
  key: string;
  width: number;
  time?: true;
  cell(d: ExportedDevice, language: Language, isOnline: (key: string) => boolean): SheetValue;
}

const COLUMNS: Column[] = [
  { key: 'serial', width: 24, cell: (d) => d.record.device_key },
  { key: 'name', width: 24, cell: (d) => d.record.name },
  { key: 'labels', width: 30, cell: (d) => d.labels.join(LABEL_SEPARATOR) },
  { key: 'location', width: 24, cell: (d) => d.record.location },
  { key: 'remark', width: 30, cell: (d) => d.record.remark },
  {
    key: 'online',
    width: 10,
    cell: (d, l, isOnline) =>
      translate(l, isOnline(d.record.device_key) ? 'deviceCsv.online' : 'deviceCsv.offline'),
  },
  {
    key: 'state',
    width: 10,
    cell: (d, l) => translate(l, d.record.state === 1 ? 'deviceCsv.enabled' : 'deviceCsv.disabled'),
  },
  { key: 'machineType', width: 16, cell: (d) => d.record.machine_type },
  { key: 'model', width: 16, cell: (d) => d.record.model },
  { key: 'otaVersion', width: 20, cell: (d) => d.record.ota_version },
  {
    key: 'lastSeenAt',
    width: 20,
    time: true,
    cell: (d) => (d.record.last_seen_at === null ? '' : new Date(Number(d.record.last_seen_at))),
  },
];

const headings = (language: Language) => COLUMNS.map((c) => translate(language, `deviceCsv.column.${c.key}`));

/**
 * A text as one CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break, quotes
 * doubled. A text a spreadsheet would run as a formula (starting with = + - @, a tab or a carriage
 * return) gets a leading apostrophe, so it opens as the text it is; so does such a text after
 * apostrophes, so that the import (import-lines.ts, cellText) drops exactly one and reads back
 * what was exported.
 */
export function csvField(text: string): string {
  const guarded = /^'*[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

const csvValue = (value: SheetValue) =>
  csvField(value instanceof Date ? value.toISOString().slice(0, 19).replace('T', ' ') : String(value));

/** The devices as CSV: UTF-8 with a byte order mark (so Excel reads Chinese), CRLF line ends. */
export async function writeDeviceCsv(
  language: Language,
  batches: AsyncIterable<ExportedDevice[]>,
  isOnline: (key: string) => boolean,
  out: PassThrough,
): Promise<number> {
  out.write(`\uFEFF${headings(language).map(csvField).join(',')}\r\n`);
  let count = 0;
  for await (const batch of batches) {
    let text = '';
    for (const d of batch)
      text += `${COLUMNS.map((c) => csvValue(c.cell(d, language, isOnline))).join(',')}\r\n`;
    count += batch.length;
    out.write(text);
    await writeWithin(out);
  }
  out.end();
  return count;
}

/**
 * The devices as .xlsx through exceljs's streaming writer and the reports' row writer: texts are
 * inline strings, never formulas, so no guard is needed; last seen is a date (UTC).
 */
export async function writeDeviceWorkbook(
  language: Language,
  userName: string,
  now: number,
  batches: AsyncIterable<ExportedDevice[]>,
  isOnline: (key: string) => boolean,
  out: PassThrough,
): Promise<number> {
  const { workbook, sheet } = streamingSheet(out, userName, now, translate(language, 'deviceCsv.sheet'));
  const titles = headings(language);
  sheet.columns = COLUMNS.map((c, i) => ({
    header: titles[i],
    key: c.key,
    width: c.width,
    ...(c.time ? { style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } } : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  const rows = new SheetRows(workbook, sheet, sharedStyles(sheet), COLUMNS.length, 2);
  let count = 0;
  for await (const batch of batches) {
    rows.write(batch.map((d) => rows.row(COLUMNS.map((c) => c.cell(d, language, isOnline)))).join(''));
    count += batch.length;
    await paced(sheet, out);
  }
  sheet.commit();
  await workbook.commit();
  return count;
}
