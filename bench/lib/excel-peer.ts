/**
 * The export's peer: exceljs's streaming WorkbookWriter writing the app run-time report's rows
 * (same columns, formats and widths as the export) into a stream that drops the bytes, as its
 * documentation uses it or with the cells' styles shared per column as the export does
 * (`shared-styles.ts`): the strong peer. Also the plain SQL that reads those rows.
 */
import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { sharedStyles } from '../../apps/server/src/modules/reports/shared-styles.js';

const DAY = 86_400_000;

/** The report's rows by plain SQL: day number since $1, device name and key, app, package, run time. */
export const RAW_ROWS = `SELECT CAST((u.started_at - $1) / 86400000 AS INTEGER) AS d, d.name, d.device_key, max(u.app_name) AS app_name, u.package_name, sum(u.duration_ms) AS total
  FROM app_usage u JOIN devices d ON d.id = u.device_id WHERE u.org_id = $3 AND u.started_at >= $1 AND u.started_at < $2
  GROUP BY 1, u.device_id, d.name, d.device_key, u.package_name ORDER BY 1, d.name, u.package_name`;

/** `RAW_ROWS` for better-sqlite3, whose named parameters are @from, @to and @org. */
export const RAW_ROWS_SQLITE = RAW_ROWS.replace(
  /\$(\d)/g,
  (_, n: string) => `@${['', 'from', 'to', 'org'][Number(n)]}`,
);

/**
 * exceljs's streaming writer with the same columns, formats and rows, into a stream that drops the
 * bytes: as its documentation uses it, or with the cells' styles shared per column as the export
 * does (`shared-styles.ts`).
 */
export async function writeDirectly(
  rows: unknown[][],
  shareStyles: boolean,
  /** The time of day number 0 of the rows. */
  epoch: number,
): Promise<number> {
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      done();
    },
  });
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: sink,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet('Device app run time report', {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = [
    { header: 'Period', key: 'groupDate', width: 24, style: { numFmt: 'yyyy-mm-dd' } },
    { header: 'Device name', key: 'deviceName', width: 28 },
    { header: 'Device key', key: 'deviceKey', width: 22 },
    { header: 'App name', key: 'appName', width: 24 },
    { header: 'Package name', key: 'packageName', width: 32 },
    { header: 'Run time', key: 'totalTime', width: 16, style: { numFmt: '[h]:mm:ss' } },
  ];
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  const styles = sharedStyles(sheet);
  for (const [d, name, key, appName, pkg, total] of rows) {
    const row = sheet.addRow([
      new Date(epoch + Number(d) * DAY),
      name,
      key,
      appName,
      pkg,
      Number(total) / DAY,
    ]);
    if (shareStyles) row.eachCell((cell, column) => (cell.style = styles(column, cell.value)));
    row.commit();
  }
  sheet.commit();
  await workbook.commit();
  return bytes;
}
