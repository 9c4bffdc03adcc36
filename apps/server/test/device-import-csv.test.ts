import { describe, expect, it } from 'vitest';
import { csvField } from '../src/modules/devices/export-documents.js';
import { csvRecords, NotUtf8 } from '../src/modules/devices/import-csv.js';
import { cellText, isProblem, readHeadings, readLine } from '../src/modules/devices/import-lines.js';

const records = (text: string | Uint8Array) => [
  ...csvRecords(typeof text === 'string' ? new TextEncoder().encode(text) : text),
];

describe('csvRecords', () => {
  it('reads RFC 4180 quoting, CRLF, LF and CR line ends and numbers records by their first line', () => {
    const text = '\uFEFFa,b\r\n"x, y","say ""hi"""\r\n"one\r\ntwo",z\n\nlast,"q"\rend,1';
    expect(records(text)).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['x, y', 'say "hi"'] },
      { line: 3, fields: ['one\r\ntwo', 'z'] },
      { line: 6, fields: ['last', 'q'] },
      { line: 7, fields: ['end', '1'] },
    ]);
  });

  it('marks a stray quote and an unclosed quote on the record’s line', () => {
    expect(records('a,b"c\n"d"e,f\n"open,\nstill')).toEqual([
      { line: 1, fields: ['a', 'b"c'], problem: 'strayQuote' },
      { line: 2, fields: ['de', 'f'], problem: 'strayQuote' },
      { line: 3, fields: ['open,\nstill'], problem: 'unclosedQuote' },
    ]);
  });

  it('reads a file larger than one decoded slice, with a character split between slices', () => {
    const row = `${'é'.repeat(10)},"q,${'中'.repeat(7)}"\r\n`;
    const text = row.repeat(20_000);
    const read = records(text);
    expect(read).toHaveLength(20_000);
    expect(read.at(-1)).toEqual({ line: 20_000, fields: ['é'.repeat(10), `q,${'中'.repeat(7)}`] });
  });

  it('refuses bytes that are not UTF-8', () => {
    expect(() => records(new Uint8Array([0x61, 0x2c, 0xff, 0xfe, 0x0a]))).toThrow(NotUtf8);
  });
});

describe('import lines', () => {
  const places = readHeadings({
    line: 1,
    fields: ['序列号', 'Name', 'labels', 'Online', 'Location', 'Remark'],
  });

  it('knows the export’s headings in either language and the column keys, and ignores the others', () => {
    expect(places).toEqual({ serial: 0, name: 1, labels: 2, location: 4, remark: 5 });
    expect(readHeadings({ line: 1, fields: ['Name', 'Remark'] })).toMatchObject({
      key: 'deviceImport.noSerialColumn',
    });
    expect(readHeadings({ line: 1, fields: ['serial', 'Serial number'] })).toMatchObject({
      key: 'deviceImport.duplicateColumn',
    });
    expect(readHeadings(undefined)).toMatchObject({ key: 'deviceImport.empty' });
  });

  it('reads a line: formula guard undone, labels split, sorted and unique, an empty name left alone', () => {
    if (isProblem(places)) throw new Error('headings');
    expect(
      readLine({ line: 4, fields: ['SN-0001', "'=SUM(A1)", 'b; a;b;', 'x', ' Hall 2 ', "'-2"] }, places),
    ).toEqual({
      line: 4,
      serial: 'SN-0001',
      name: '=SUM(A1)',
      labels: ['a', 'b'],
      location: 'Hall 2',
      remark: '-2',
    });
    expect(readLine({ line: 5, fields: ['SN-0002', '', '', '', '', ''] }, places)).toEqual({
      line: 5,
      serial: 'SN-0002',
      labels: [],
      location: '',
      remark: '',
    });
  });

  it('names the column and the reason of a bad line', () => {
    if (isProblem(places)) throw new Error('headings');
    const bad = (fields: string[]) => readLine({ line: 9, fields }, places);
    expect(bad(['', 'n'])).toMatchObject({ line: 9, column: 'serial', key: 'deviceImport.serialNull' });
    expect(bad(['a b c d'])).toMatchObject({ column: 'serial', key: 'deviceImport.serialInvalid' });
    expect(bad(['SN-1', 'x'.repeat(65)])).toMatchObject({ column: 'name', key: 'deviceImport.nameTooLong' });
    expect(bad(['SN-1', 'n', 'a-b'])).toMatchObject({ column: 'labels', key: 'deviceImport.labelDash' });
    expect(bad(['SN-1', 'n', Array.from({ length: 21 }, (_, i) => `l${i}`).join(';')])).toMatchObject({
      key: 'deviceImport.tooManyLabels',
    });
    expect(bad(['SN-1', 'n', '', '', 'x'.repeat(129)])).toMatchObject({ column: 'location' });
    expect(bad(['SN-1', 'n', '', '', '', 'x'.repeat(201)])).toMatchObject({ column: 'remark' });
    expect(readLine({ line: 9, fields: ['SN-1'], problem: 'strayQuote' }, places)).toMatchObject({
      column: 'file',
      key: 'deviceImport.strayQuote',
    });
  });

  it('reads back exactly what the export’s guard wrote', () => {
    for (const text of ['=1', "'=1", "''+x", "'plain", '-', '@a', 'a=b', "'"])
      expect(
        cellText(
          csvField(text)
            .replace(/^"(.*)"$/s, '$1')
            .replace(/""/g, '"'),
        ),
      ).toBe(text);
  });
});
