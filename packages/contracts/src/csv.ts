/**
 * The one CSV writer of every export (server, web and engine; issue 14 item 22, docs/decisions/one-csv-writer.md),
 * and the one reader of what users or the engine hand back (`readCsv`).
 * RFC 4180 fields; text that a spreadsheet would run as a formula is defused; numbers stay numbers. Pure, no
 * imports: `@insilico/contracts/csv` is the only part of contracts that packages/sph reaches.
 */

/** What a cell may hold: text, a number, a yes/no, or nothing (an empty cell). */
export type CsvCell = string | number | boolean | null | undefined;

export interface CsvOptions {
  /** How a number is written. Default: JavaScript's shortest round-trip form, non-finite values as an empty cell. */
  number?: (value: number) => string;
  /** Line end after every row (`toCsv`). Default CRLF, as RFC 4180 says. */
  lineEnd?: '\r\n' | '\n';
}

/** Numbers in full precision with a dot as decimal mark; NaN and ±Infinity are missing values. */
export function defaultCsvNumber(value: number): string {
  return Number.isFinite(value) ? String(value) : '';
}

/**
 * Text a spreadsheet treats as a formula (or as the start of one after a tab or carriage return). Such a cell gets
 * a leading `'` (OWASP CSV injection). Only text: numbers, negative ones included, never reach this test.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
/** RFC 4180: a field holding a comma, a double quote or a line break is quoted, its quotes doubled. */
const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV field. */
export function csvCell(value: CsvCell, number: (value: number) => string = defaultCsvNumber): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return number(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV record without its line end (for writers that append rows one at a time). */
export function csvRow(cells: readonly CsvCell[], options: CsvOptions = {}): string {
  const number = options.number ?? defaultCsvNumber;
  const fields = new Array<string>(cells.length);
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    // Numbers first: the engine's frames are millions of them.
    fields[i] = typeof cell === 'number' ? number(cell) : csvCell(cell, number);
  }
  return fields.join(',');
}

/** Rows (heading first, if any) as CSV text, every row ended by the line end (CRLF unless told). */
export function toCsv(rows: readonly (readonly CsvCell[])[], options: CsvOptions = {}): string {
  const lineEnd = options.lineEnd ?? '\r\n';
  let text = '';
  for (const row of rows) text += csvRow(row, options) + lineEnd;
  return text;
}

/** A CSV text that cannot be read: a quoted field never ends. */
export class CsvSyntaxError extends Error {}

/**
 * The records of a CSV text (RFC 4180): quoted fields with doubled quotes and line breaks inside, CRLF or LF line
 * ends, a leading byte-order mark. The separator is a comma, or a semicolon where the first line has semicolons and
 * no comma (spreadsheets with a decimal comma write those). Blank lines are dropped. Throws `CsvSyntaxError`.
 */
export function readCsv(text: string): string[][] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const firstLine = body.slice(0, body.search(/\r?\n|$/));
  const separator = !firstLine.includes(',') && firstLine.includes(';') ? ';' : ',';
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === separator) {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i++;
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else field += c;
  }
  if (quoted) throw new CsvSyntaxError('a quoted field never ends');
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records.filter((r) => r.length > 1 || (r[0] ?? '').trim() !== '');
}

/** A table of numbers under one header line (the engine's `monitors.csv`). */
export interface NumericCsv {
  headers: string[];
  /** One array per header: NaN where a cell is empty or not a number (`Number('')` would read 0). */
  columns: number[][];
}

/** Reads a CSV of numbers under one header line (`readCsv`'s rules). */
export function readNumericCsv(text: string): NumericCsv {
  const [headers, ...rows] = readCsv(text);
  if (!headers) return { headers: [], columns: [] };
  const columns = headers.map((_, k) =>
    rows.map((cells) => {
      const cell = cells[k];
      return cell === undefined || cell.trim() === '' ? Number.NaN : Number(cell);
    }),
  );
  return { headers, columns };
}
