/**
 * The one CSV writer of every export (server, web and engine; issue 14 item 22, docs/decisions/one-csv-writer.md).
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
