import { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { sharedStyles } from './shared-styles.js';
import { SheetRows, xmlText, type SheetValue } from './sheet-rows.js';

const COLUMNS = [
  { header: 'Period', key: 'p', width: 24, style: { numFmt: 'yyyy-mm-dd' } },
  { header: 'Name', key: 'n', width: 28 },
  { header: 'Count', key: 'c', width: 10, style: { numFmt: '0' } },
  { header: 'Plain number', key: 'x', width: 10 },
  { header: 'Run time', key: 't', width: 16, style: { numFmt: '[h]:mm:ss' } },
];

const ROWS: SheetValue[][] = [
  [new Date('2026-11-17T00:00:00Z'), 'Panel 1', 3, 0.5, 1234567 / 86_400_000],
  ['', '', 0, -2, 0],
  [new Date('2026-02-28T13:45:07Z'), 'a&b<c>"d\'e', 1e21, 1 / 3, 86_400_000 / 86_400_000],
  [new Date(0), 'tab\there\r\nline\u0001\u0008\u000b\u001f\u007fend', 42, 7, 1e-7],
  [new Date('2026-11-18T00:00:00Z'), '中文 名称 😀', 12, 12.75, 0.25],
  ['', 'only text', 'text in a number column', '', 'text'],
];

/** The workbook's files (name to text), written with exceljs's rows or with SheetRows. */
async function workbook(direct: boolean): Promise<Map<string, string>> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk);
      done();
    },
  });
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: sink,
    useStyles: true,
    useSharedStrings: false,
  });
  book.creator = 'test';
  book.created = new Date('2026-11-27T00:00:00Z');
  // Fixed, or the two workbooks differ when a second passes between them.
  book.modified = book.created;
  const sheet = book.addWorksheet('Report', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = COLUMNS;
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  const styles = sharedStyles(sheet);
  if (direct) {
    const rows = new SheetRows(book, sheet, styles, COLUMNS.length, 2);
    rows.write(
      ROWS.slice(0, 2)
        .map((row) => rows.row(row))
        .join(''),
    );
    rows.write(
      ROWS.slice(2)
        .map((row) => rows.row(row))
        .join(''),
    );
  } else
    for (const values of ROWS) {
      const row = sheet.addRow(values);
      row.eachCell((cell, column) => (cell.style = styles(column, cell.value)));
      row.commit();
    }
  sheet.commit();
  await book.commit();
  return unzip(Buffer.concat(chunks));
}

function unzip(bytes: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const files = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (failed, stream) => {
          if (failed) return reject(failed);
          const parts: Buffer[] = [];
          stream.on('data', (part: Buffer) => parts.push(part));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(parts).toString('utf8'));
            zip.readEntry();
          });
        }),
      );
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('SheetRows', () => {
  it('writes the same workbook as exceljs rows with shared styles, byte for byte', async () => {
    const [expected, actual] = [await workbook(false), await workbook(true)];
    expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [name, text] of expected) expect({ name, text: actual.get(name) }).toEqual({ name, text });
    // The rows are there (the comparison above would pass on two empty sheets too).
    const sheet = actual.get('xl/worksheets/sheet1.xml')!;
    expect(sheet.match(/<row /g)).toHaveLength(ROWS.length + 1);
    expect(sheet).toContain('a&amp;b&lt;c&gt;&quot;d&apos;e');
  });

  it('escapes text as exceljs does', () => {
    expect(xmlText('plain')).toBe('plain');
    expect(xmlText('<&>"\'')).toBe('&lt;&amp;&gt;&quot;&apos;');
    expect(xmlText('a\u0000b\tc\nd\re\u001ff\u007f')).toBe('ab\tc\nd\ref');
  });
});
