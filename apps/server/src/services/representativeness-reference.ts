import { representativenessLimits } from '@insilico/contracts';
import { CsvSyntaxError, readCsv } from '@insilico/contracts/csv';
import { ServiceError } from './errors';

/** A parameter the reference may name: its key and label (the CSV header may use either). */
export interface NamedParameter {
  key: string;
  label: string;
}

/** The reference patients' values per parameter key, and the CSV columns that named no parameter. */
export interface ReferenceTable {
  patients: number;
  columns: Map<string, Float64Array>;
  ignoredColumns: string[];
}

/** Column names that identify a person: a reference must be de-identified before it is sent. */
const IDENTIFYING =
  /^(?:(?:first|last|family|given|full|patient)[ _-]?name|name|surname|birth[ _-]?date|date[ _-]?of[ _-]?birth|dob|mrn|medical[ _-]?record[ _-]?number|ssn|social[ _-]?security[ _-]?number|address|street|phone|telephone|e-?mail|insurance[ _-]?number)$/i;

const invalid = (message: string) => new ServiceError(400, 'invalid_reference', message);

/** A header cell without its unit in brackets, lower case: `Aortic annulus diameter (mm)` → `aortic annulus diameter`. */
function headerName(cell: string): string {
  return cell
    .replace(/\s*[([][^)\]]*[)\]]\s*$/, '')
    .trim()
    .toLowerCase();
}

/**
 * Reads a reference CSV of real patients (issue 23): a header naming parameters by key or label (a unit in
 * brackets is ignored; other columns are ignored and listed), one row per patient, numbers with a dot or a decimal
 * comma, empty cells missing. Refused with a message naming the place: identifying columns, a cell that is not a
 * number, more than {@link representativenessLimits.referencePatients} patients, no parameter column.
 */
export function readReferenceCsv(text: string, parameters: readonly NamedParameter[]): ReferenceTable {
  let records: string[][];
  try {
    records = readCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw invalid('The reference file has a quoted field that never ends.');
    throw error;
  }
  const header = records[0];
  if (!header) throw invalid('The reference file has no header row.');
  const identifying = header.filter((cell) => IDENTIFYING.test(cell.trim()));
  if (identifying.length > 0)
    throw invalid(
      `The reference must be de-identified: remove the column${identifying.length > 1 ? 's' : ''} ${identifying.map((c) => `"${c.trim()}"`).join(', ')}.`,
    );
  const byName = new Map<string, string>();
  for (const p of parameters) {
    byName.set(p.key.toLowerCase(), p.key);
    byName.set(p.label.toLowerCase(), p.key);
  }
  const keys = header.map((cell) => byName.get(headerName(cell)) ?? byName.get(cell.trim().toLowerCase()) ?? null);
  const seen = new Set<string>();
  keys.forEach((key, j) => {
    if (key === null) return;
    if (seen.has(key)) throw invalid(`Two columns name the parameter ${key}; keep one ("${header[j]!.trim()}").`);
    seen.add(key);
  });
  if (seen.size === 0)
    throw invalid(
      'No column of the reference file names a parameter of the cohort. Name each column by a parameter’s key or label, e.g. aorticAnnulusDiameter_mm.',
    );
  const rows = records.slice(1);
  if (rows.length > representativenessLimits.referencePatients)
    throw invalid(
      `The reference has ${rows.length} patients; at most ${representativenessLimits.referencePatients} can be compared.`,
    );
  const columns = new Map<string, Float64Array>();
  keys.forEach((key, j) => {
    if (key === null) return;
    const values = new Float64Array(rows.length);
    rows.forEach((row, i) => {
      const cell = (row[j] ?? '').trim();
      if (cell === '' || /^(?:na|n\/a|nan)$/i.test(cell)) {
        values[i] = Number.NaN;
        return;
      }
      const value = Number(cell.replace(/^([+-]?\d+),(\d+)$/, '$1.$2'));
      if (!Number.isFinite(value))
        throw invalid(`Row ${i + 2}, column "${header[j]!.trim()}": "${cell.slice(0, 40)}" is not a number.`);
      values[i] = value;
    });
    columns.set(key, values);
  });
  const ignoredColumns = header.filter((_, j) => keys[j] === null).map((c) => c.trim());
  return { patients: rows.length, columns, ignoredColumns };
}
