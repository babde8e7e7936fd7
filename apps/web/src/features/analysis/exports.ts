/**
 * Exports of the analysis page: every table as CSV, every chart as SVG (spec §7 "Chart export: saves an SVG image
 * named by a file-name prop (default 'graph')").
 */
import { toCsv as writeCsv, type CsvCell } from '@insilico/contracts/csv';
import { track } from '../../lib/analytics';

/** One CSV cell as every export writes it (kept here for the page's callers and tests). */
export { csvCell } from '@insilico/contracts/csv';

/** The file name every chart exports under unless its card names another (spec §7). */
export const defaultChartFileName = 'graph';

/** A table to export: column headings and one array of cells per row. */
export interface CsvTable {
  columns: readonly string[];
  rows: readonly (readonly CsvCell[])[];
}

/**
 * The table as CSV text with CRLF line ends (RFC 4180), heading first: the one writer of every export
 * (`@insilico/contracts/csv`: quoting, the formula guard, numbers in full precision, missing values empty).
 */
export function toCsv(table: CsvTable): string {
  return writeCsv([table.columns, ...table.rows]);
}

/** A safe file name ending in `extension`: characters a file system refuses become `-`; empty becomes the default. */
export function exportFileName(name: string, extension: 'csv' | 'svg'): string {
  const base =
    name
      .trim()
      .replace(new RegExp(`\\.${extension}$`, 'i'), '')
      // Characters Windows and Unix refuse in file names, and control characters (code points below 32).
      .replace(/[\\/:*?"<>|]+/g, '-')
      .replace(/\p{Cc}+/gu, '-')
      .replace(/\s+/g, ' ')
      .slice(0, 120) || defaultChartFileName;
  return `${base}.${extension}`;
}

/** The local date of an export, `2026-11-25`, for its file name. */
export function exportDate(now: Date = new Date()): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
}

/**
 * A file name (without extension) that says what the file holds, its parts joined by `-` with their spaces as `-`:
 * cohort, analysis, table and date give `HF50-annulus-summary-2026-11-25` (issue 14: every export was `summary.csv`).
 */
export function describedExportName(parts: readonly (string | null | undefined)[]): string {
  return parts
    .map((part) => (part ?? '').trim().replace(/\s+/g, '-'))
    .filter((part) => part !== '')
    .join('-');
}

/** Saves text as a download in the browser. */
export function downloadText(fileName: string, type: string, text: string): void {
  // A byte-order mark lets spreadsheet programs read the CSV's units (µ, ², °) as UTF-8.
  saveBlob(fileName, new Blob([type.startsWith('text/csv') ? '\uFEFF' : '', text], { type }));
}

/** Saves a blob as a download named `fileName` in the browser. */
export function saveBlob(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled, or the download may be cancelled.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** Downloads a table as `<name>.csv`. */
export function downloadCsv(name: string, table: CsvTable): void {
  downloadText(exportFileName(name, 'csv'), 'text/csv;charset=utf-8', toCsv(table));
  track('analysis exported', { format: 'csv' });
}

/** Downloads an SVG document as `<name>.svg` (name defaults to `graph`). */
export function downloadSvg(svg: string, name: string = defaultChartFileName): void {
  downloadText(exportFileName(name, 'svg'), 'image/svg+xml;charset=utf-8', svg);
  track('analysis exported', { format: 'svg' });
}
