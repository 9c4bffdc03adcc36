import { device, LANGUAGES, textWidth, translate } from '@panelfleet/contract';
import type { CsvRecord } from './import-csv.js';
import { LABEL_SEPARATOR } from './export-documents.js';

type Column = device.DeviceImportColumn;

/** What one good line of an import says about a serial: a field left out changes nothing. */
export interface ImportLine {
  line: number;
  serial: string;
  name?: string;
  /** Exactly the labels the panel carries afterwards (sorted, no repeats). */
  labels?: string[];
  location?: string;
  remark?: string;
}

/** A bad line: a message key of the contract's catalogs and what fills it. */
export interface LineProblem {
  line: number;
  column: Column | 'file';
  key: string;
  vars?: Record<string, string | number>;
}

/** The headings a column is known by: its key, and its export heading in each language. */
const HEADINGS = new Map<string, Column>(
  device.DEVICE_IMPORT_COLUMNS.flatMap((column) => [
    [column.toLowerCase(), column] as const,
    ...LANGUAGES.map((l) => [translate(l, `deviceCsv.column.${column}`).toLowerCase(), column] as const),
  ]),
);

/** Which field of a record each column is (the export's other columns are left out). */
export type ColumnPlaces = Partial<Record<Column, number>>;

/** The columns of the heading record, or the problem with it. */
export function readHeadings(record: CsvRecord | undefined): ColumnPlaces | LineProblem {
  if (!record) return { line: 1, column: 'file', key: 'deviceImport.empty' };
  const places: ColumnPlaces = {};
  for (const [index, heading] of record.fields.entries()) {
    const column = HEADINGS.get(heading.trim().toLowerCase());
    if (!column) continue;
    if (places[column] !== undefined)
      return {
        line: record.line,
        column,
        key: 'deviceImport.duplicateColumn',
        vars: { column: heading.trim() },
      };
    places[column] = index;
  }
  if (places.serial === undefined)
    return { line: record.line, column: 'serial', key: 'deviceImport.noSerialColumn' };
  return places;
}

const GUARDED = /^'+[=+\-@\t\r]/;

/**
 * A cell as the text it stands for: the export's formula guard undone (one leading apostrophe
 * before = + - @, a tab or a carriage return — or before more apostrophes and one of those, which
 * the export guards the same way), then trimmed as the edit form trims.
 */
export function cellText(raw: string): string {
  return (GUARDED.test(raw) ? raw.slice(1) : raw).trim();
}

/** The label names of a labels cell: separated by semicolons, trimmed, no repeats, sorted. */
const labelNames = (text: string) =>
  [
    ...new Set(
      text
        .split(LABEL_SEPARATOR)
        .map((n) => n.trim())
        .filter(Boolean),
    ),
  ].sort();

function labelProblem(names: string[]): Omit<LineProblem, 'line' | 'column'> | undefined {
  if (names.length > device.MAX_TAGS_PER_DEVICE)
    return { key: 'deviceImport.tooManyLabels', vars: { max: device.MAX_TAGS_PER_DEVICE } };
  for (const label of names) {
    if (textWidth(label) > device.LABEL_NAME_MAX_WIDTH)
      return { key: 'deviceImport.labelTooLong', vars: { label, max: device.LABEL_NAME_MAX_WIDTH } };
    if (label.includes(device.TAG_SEPARATOR)) return { key: 'deviceImport.labelDash', vars: { label } };
  }
  return undefined;
}

/** One data record as an import line, or its first problem. */
export function readLine(record: CsvRecord, places: ColumnPlaces): ImportLine | LineProblem {
  const { line } = record;
  if (record.problem) return { line, column: 'file', key: `deviceImport.${record.problem}` };
  const cell = (column: Column) => {
    const at = places[column];
    return at === undefined ? undefined : cellText(record.fields[at] ?? '');
  };
  const serial = cell('serial')!;
  if (!serial) return { line, column: 'serial', key: 'deviceImport.serialNull' };
  if (!device.DEVICE_KEY_PATTERN.test(serial))
    return { line, column: 'serial', key: 'deviceImport.serialInvalid' };
  const out: ImportLine = { line, serial };
  const name = cell('name');
  if (name) {
    if (textWidth(name) > device.DEVICE_NAME_MAX_WIDTH)
      return {
        line,
        column: 'name',
        key: 'deviceImport.nameTooLong',
        vars: { max: device.DEVICE_NAME_MAX_WIDTH },
      };
    out.name = name;
  }
  const labels = cell('labels');
  if (labels !== undefined) {
    out.labels = labelNames(labels);
    const problem = labelProblem(out.labels);
    if (problem) return { line, column: 'labels', ...problem };
  }
  const location = cell('location');
  if (location !== undefined) {
    if (textWidth(location) > device.DEVICE_LOCATION_MAX_WIDTH)
      return {
        line,
        column: 'location',
        key: 'deviceImport.locationTooLong',
        vars: { max: device.DEVICE_LOCATION_MAX_WIDTH },
      };
    out.location = location;
  }
  const remark = cell('remark');
  if (remark !== undefined) {
    if (remark.length > device.DEVICE_REMARK_MAX)
      return {
        line,
        column: 'remark',
        key: 'deviceImport.remarkTooLong',
        vars: { max: device.DEVICE_REMARK_MAX },
      };
    out.remark = remark;
  }
  return out;
}

export const isProblem = (value: ImportLine | LineProblem | ColumnPlaces): value is LineProblem =>
  'key' in value && typeof (value as LineProblem).key === 'string';
