/** One record of a CSV file: the line it starts on (1 is the first line) and its fields. */
export interface CsvRecord {
  line: number;
  fields: string[];
  /** What is wrong with its quoting (the fields are still read as well as they can be). */
  problem?: 'unclosedQuote' | 'strayQuote';
}

/** Text decoded at a time: the file's bytes are turned into text a slice at a time, never whole. */
const SLICE = 64 * 1024;

/** The bytes are not UTF-8. */
export class NotUtf8 extends Error {
  constructor() {
    super('not UTF-8');
    this.name = 'NotUtf8';
  }
}

/** The file's text, a slice at a time; a leading byte order mark is dropped. */
function* textSlices(bytes: Uint8Array): Generator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  try {
    for (let at = 0; at < bytes.length; at += SLICE)
      yield decoder.decode(bytes.subarray(at, at + SLICE), { stream: at + SLICE < bytes.length });
  } catch (error) {
    if (error instanceof TypeError) throw new NotUtf8();
    throw error;
  }
}

/**
 * The records of a CSV file (RFC 4180), read as it is decoded: comma separated, a field in double
 * quotes may hold commas, line breaks and doubled quotes; lines end with CRLF, LF or CR. A quote
 * inside an unquoted field, or text after a closing quote, marks the record `strayQuote` (and is
 * kept as text); a quote never closed marks the last record `unclosedQuote`. Blank lines are
 * skipped. Throws NotUtf8 for bytes that are not UTF-8.
 */
export function* csvRecords(bytes: Uint8Array): Generator<CsvRecord> {
  let line = 1;
  let start = 1;
  let fields: string[] = [];
  let field = '';
  /** 0 outside quotes, 1 inside, 2 just after a quote inside (a doubled quote or the end). */
  let quote = 0;
  let fieldStarted = false;
  let stray = false;
  let afterCr = false;
  /** The character before, across slices (a CRLF inside quotes is one line break). */
  let previous = '';
  const endField = () => {
    fields.push(field);
    field = '';
    fieldStarted = false;
    quote = 0;
  };
  const endRecord = (): CsvRecord | undefined => {
    endField();
    const record: CsvRecord | undefined =
      fields.length === 1 && fields[0] === '' && !stray
        ? undefined
        : { line: start, fields, ...(stray ? { problem: 'strayQuote' as const } : {}) };
    fields = [];
    stray = false;
    return record;
  };
  for (const text of textSlices(bytes)) {
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      const before = previous;
      previous = ch;
      if (afterCr) {
        afterCr = false;
        if (ch === '\n') continue;
      }
      if (quote === 1) {
        if (ch === '"') quote = 2;
        else {
          if (ch === '\r' || (ch === '\n' && before !== '\r')) line++;
          field += ch;
        }
        continue;
      }
      if (quote === 2) {
        if (ch === '"') {
          field += '"';
          quote = 1;
          continue;
        }
        quote = 0;
        if (ch !== ',' && ch !== '\n' && ch !== '\r') stray = true;
      }
      if (ch === ',') endField();
      else if (ch === '\n' || ch === '\r') {
        afterCr = ch === '\r';
        const record = endRecord();
        line++;
        start = line;
        if (record) yield record;
      } else if (ch === '"' && !fieldStarted) {
        quote = 1;
        fieldStarted = true;
      } else {
        if (ch === '"') stray = true;
        field += ch;
        fieldStarted = true;
      }
    }
  }
  if (quote === 1) {
    fields.push(field);
    yield { line: start, fields, problem: 'unclosedQuote' };
    return;
  }
  const last = endRecord();
  if (last) yield last;
}
