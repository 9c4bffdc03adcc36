import type { PassThrough } from 'node:stream';
import { translate, type Language } from '@panelfleet/contract';
import { sharedStyles } from '../reports/shared-styles.js';
import { streamingSheet } from '../reports/streaming-workbook.js';
import { alertLine } from './mail.js';
import type { AlertListRow } from './repository.js';

const TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';
const at = (value: number | string | bigint | null) => (value === null ? '' : new Date(Number(value)));

interface Column {
  key: string;
  width: number;
  time?: true;
  cell(row: AlertListRow, language: Language): Date | number | string;
}

const COLUMNS: Column[] = [
  { key: 'raisedAt', width: 20, time: true, cell: (r) => at(r.raised_at) },
  { key: 'severity', width: 10, cell: (r, l) => translate(l, `alert.mail.severity.${r.severity}`) },
  { key: 'state', width: 12, cell: (r, l) => translate(l, `alert.export.state.${r.state}`) },
  { key: 'rule', width: 24, cell: (r) => r.rule_name },
  { key: 'subject', width: 28, cell: (r) => r.subject_name },
  { key: 'deviceKey', width: 20, cell: (r) => r.device_key ?? '' },
  { key: 'company', width: 24, cell: (r) => r.company_name ?? '' },
  { key: 'detail', width: 60, cell: (r, l) => alertLine(l, r) },
  { key: 'acknowledgedAt', width: 20, time: true, cell: (r) => at(r.acknowledged_at) },
  { key: 'acknowledgedBy', width: 16, cell: (r) => r.acknowledged_by ?? '' },
  { key: 'note', width: 30, cell: (r) => r.note ?? '' },
  { key: 'clearedAt', width: 20, time: true, cell: (r) => at(r.cleared_at) },
  {
    key: 'clearedBy',
    width: 16,
    cell: (r, l) =>
      r.cleared_by ?? (r.cleared_at === null ? '' : translate(l, 'alert.export.clearedAutomatically')),
  },
];

/**
 * The alerts as .xlsx through exceljs's streaming writer (times in UTC), with the reports'
 * shared cell styles; each row is committed as it is read.
 */
export async function writeAlertWorkbook(
  language: Language,
  userName: string,
  now: number,
  chunks: AsyncIterable<AlertListRow[]>,
  out: PassThrough,
): Promise<number> {
  const { workbook, sheet } = streamingSheet(out, userName, now, translate(language, 'alert.export.title'));
  sheet.columns = COLUMNS.map((c) => ({
    header: translate(language, `alert.export.column.${c.key}`),
    key: c.key,
    width: c.width,
    ...(c.time ? { style: { numFmt: TIME_FORMAT } } : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  const styles = sharedStyles(sheet);
  let count = 0;
  for await (const chunk of chunks)
    for (const row of chunk) {
      const added = sheet.addRow(COLUMNS.map((c) => c.cell(row, language)));
      added.eachCell((cell, column) => (cell.style = styles(column, cell.value)));
      added.commit();
      count++;
    }
  sheet.commit();
  await workbook.commit();
  return count;
}
