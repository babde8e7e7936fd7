import { StatsInputError } from './errors';

/**
 * Patients × parameters, stored column-major: parameter `j` of patient `i` is `data[j * rows + i]`.
 * Each column is contiguous, which is what per-parameter statistics and correlations read.
 */
export interface PopulationMatrix {
  /** Number of patients. */
  readonly rows: number;
  /** Number of parameters. */
  readonly cols: number;
  /** Column-major values, length rows × cols, in each parameter's own unit. */
  readonly data: Float64Array;
}

/**
 * Builds a column-major {@link PopulationMatrix} from one Float64Array per parameter (all of one length).
 * Every value must be finite: the multivariate methods use complete cases only.
 */
export function matrixFromColumns(columns: readonly Float64Array[]): PopulationMatrix {
  const cols = columns.length;
  const rows = cols === 0 ? 0 : (columns[0]?.length ?? 0);
  const data = new Float64Array(rows * cols);
  for (let j = 0; j < cols; j++) {
    const c = columns[j];
    if (!c || c.length !== rows) throw new StatsInputError('All parameters must have one value per patient.');
    data.set(c, j * rows);
  }
  assertFinite(data);
  return { rows, cols, data };
}

/** Builds a column-major {@link PopulationMatrix} from row-major patient records (`rows[i][j]` = parameter j of patient i). */
export function matrixFromRows(records: readonly (readonly number[])[]): PopulationMatrix {
  const rows = records.length;
  const cols = rows === 0 ? 0 : (records[0]?.length ?? 0);
  const data = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    const r = records[i];
    if (!r || r.length !== cols) throw new StatsInputError('Every patient must have a value for every parameter.');
    for (let j = 0; j < cols; j++) data[j * rows + i] = r[j] ?? Number.NaN;
  }
  assertFinite(data);
  return { rows, cols, data };
}

/** A view (no copy) of parameter `j` of the matrix. */
export function column(matrix: PopulationMatrix, j: number): Float64Array {
  if (!(j >= 0 && j < matrix.cols)) throw new StatsInputError(`No parameter at index ${j}.`);
  return matrix.data.subarray(j * matrix.rows, (j + 1) * matrix.rows);
}

/** A new matrix without the patients whose row index is in `excluded` (the analysis' excluded set). */
export function withoutRows(matrix: PopulationMatrix, excluded: ReadonlySet<number>): PopulationMatrix {
  const keep: number[] = [];
  for (let i = 0; i < matrix.rows; i++) if (!excluded.has(i)) keep.push(i);
  const rows = keep.length;
  const data = new Float64Array(rows * matrix.cols);
  for (let j = 0; j < matrix.cols; j++) {
    const src = j * matrix.rows;
    const dst = j * rows;
    for (let k = 0; k < rows; k++) data[dst + k] = matrix.data[src + (keep[k] ?? 0)] ?? Number.NaN;
  }
  return { rows, cols: matrix.cols, data };
}

function assertFinite(data: Float64Array): void {
  for (let k = 0; k < data.length; k++) {
    if (!Number.isFinite(data[k] ?? Number.NaN))
      throw new StatsInputError('Every value of the population matrix must be a finite number.');
  }
}
