import type { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';

/**
 * How every .xlsx export starts: a workbook written straight to `out` (rows are committed as they
 * come, shared styles, no shared-strings table) and one sheet with a frozen header row. Excel
 * allows sheet names of 31 characters.
 */
export function streamingSheet(out: PassThrough, userName: string, now: number, title: string) {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = userName;
  workbook.created = new Date(now);
  const sheet = workbook.addWorksheet(title.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  return { workbook, sheet };
}
