import type ExcelJS from 'exceljs';

/** A cell of an exported row: a date, a number or a text (the report's columns make nothing else). */
export type SheetValue = Date | number | string;

/** exceljs's value types (its `Enums.ValueType`) of the values a row holds. */
const NUMBER = 2;
const STRING = 3;
const DATE = 4;

/** What the writer uses of exceljs's streaming sheet and its workbook's style registry. */
interface SheetInternals {
  stream: { write(xml: string): unknown };
}
interface WorkbookInternals {
  styles: { addStyleModel(style: Partial<ExcelJS.Style>, cellType: number): number };
}

/** Does exceljs change this character when it writes text: one of the five entities or a dropped control character? */
const changed = (code: number) =>
  code === 34 ||
  code === 38 ||
  code === 39 ||
  code === 60 ||
  code === 62 ||
  code === 127 ||
  (code <= 31 && (code <= 8 || (code >= 11 && code !== 13)));

/** Text as exceljs writes it into XML (its `utils.xmlEncode`): the five entities, control characters dropped. */
export function xmlText(text: string): string {
  let i = 0;
  while (i < text.length && !changed(text.charCodeAt(i))) i++;
  if (i === text.length) return text;
  let result = '';
  let last = 0;
  for (; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!changed(code)) continue;
    if (last !== i) result += text.substring(last, i);
    last = i + 1;
    if (code === 34) result += '&quot;';
    else if (code === 38) result += '&amp;';
    else if (code === 39) result += '&apos;';
    else if (code === 60) result += '&lt;';
    else if (code === 62) result += '&gt;';
  }
  return last !== i ? result + text.substring(last, i) : result;
}

/** Excel's serial number of a date (exceljs's `utils.dateToExcel`, 1900 system). */
const excelDate = (date: Date) => 25569 + date.getTime() / (24 * 3600 * 1000);

const columnLetters = (count: number) =>
  Array.from({ length: count }, (_, i) => {
    let name = '';
    for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26))
      name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
    return name;
  });

/**
 * Rows of a streaming exceljs sheet written as exceljs would write them, without its row and
 * cell objects: `<row r spans x14ac:dyDescent>` with `<c r s t><v>` cells, style numbers from
 * the workbook's own registry (asked once per column and kind of value, in the order exceljs
 * would ask), texts inline (`t="str"`, no shared strings), dates as serial numbers. exceljs builds
 * a row object, a cell object per value, a model of each and an XML stream per row; that was most
 * of an export's CPU (docs/benchmarks.md, "Report export"). The sheet XML is the same byte for
 * byte (`sheet-rows.test.ts`). Rows go after the header, which exceljs commits itself.
 */
export class SheetRows {
  /** The ` s="n"` of each column and value type (index column * 8 + type). */
  private readonly styleIds: Array<string | undefined> = [];
  private readonly letters: string[];
  private number: number;

  constructor(
    private readonly workbook: ExcelJS.stream.xlsx.WorkbookWriter,
    private readonly sheet: ExcelJS.Worksheet,
    private readonly styleOf: (column: number, value: SheetValue) => Partial<ExcelJS.Style>,
    columns: number,
    /** The number of the first row written here (after the committed header). */
    first: number,
  ) {
    this.letters = columnLetters(columns);
    this.number = first;
  }

  /** The ` s="n"` of a cell (empty for the default style), registered on first use as exceljs does. */
  private style(column: number, type: number, value: SheetValue): string {
    const key = column * 8 + type;
    let attribute = this.styleIds[key];
    if (attribute === undefined) {
      const id = (this.workbook as unknown as WorkbookInternals).styles.addStyleModel(
        this.styleOf(column, value),
        type,
      );
      attribute = id ? ` s="${id}"` : '';
      this.styleIds[key] = attribute;
    }
    return attribute;
  }

  /** The XML of the next row. */
  row(values: SheetValue[]): string {
    const r = this.number++;
    let xml = `<row r="${r}" spans="1:${values.length}" x14ac:dyDescent="0.25">`;
    for (let i = 0; i < values.length; i++) {
      const value = values[i]!;
      const ref = `${this.letters[i]}${r}`;
      if (typeof value === 'string')
        xml += `<c r="${ref}"${this.style(i + 1, STRING, value)} t="str"><v>${xmlText(value)}</v></c>`;
      else if (typeof value === 'number')
        xml += `<c r="${ref}"${this.style(i + 1, NUMBER, value)}><v>${xmlText(String(value))}</v></c>`;
      else xml += `<c r="${ref}"${this.style(i + 1, DATE, value)}><v>${excelDate(value)}</v></c>`;
    }
    return `${xml}</row>`;
  }

  /** Hands rows' XML to the sheet's stream (exceljs does not wait for its stream either). */
  write(xml: string) {
    if (xml) void (this.sheet as unknown as SheetInternals).stream.write(xml);
  }
}
