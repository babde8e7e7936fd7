import { csvRow } from '@insilico/contracts/csv';
import { readColumn, type ColumnInfo } from './output';

/**
 * Exporters from the binary columnar frames of `output.ts` (one object at one timestep) to formats other tools
 * read: VTP (ParaView's XML PolyData) and CSV. Values are written as stored, i.e. in the units the manifest names
 * (positions in mm). Pure: strings in, strings out.
 */

const AXES = ['X', 'Y', 'Z'] as const;

/** Column values per particle: component k of particle i is `values[k * count + i]`. */
function columnsOf(
  frame: Uint8Array,
  columns: readonly ColumnInfo[],
): { column: ColumnInfo; values: ArrayLike<number> }[] {
  return columns.map((column) => ({ column, values: readColumn(frame, column) }));
}

/** Particle count of a frame (from its `particle_id` column); throws when the layout has none. */
function particleCount(columns: readonly ColumnInfo[]): number {
  const ids = columns.find((c) => c.name === 'particle_id');
  if (!ids) throw new Error('frame layout has no particle_id column');
  return ids.byteLength / 4;
}

/** Display name of a column with its unit, e.g. `Velocity (m/s)`; the bare label when unitless. */
function titled(column: ColumnInfo): string {
  return column.unit === '' ? column.label : `${column.label} (${column.unit})`;
}

/** Shortest number that reads back as the same float32 (ids stay integers). */
function rounded(v: number, type: ColumnInfo['type']): number {
  return type === 'int32' ? v : Number(Math.fround(v).toPrecision(9));
}

/** `rounded` as text. */
function number(v: number, type: ColumnInfo['type']): string {
  return String(rounded(v, type));
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * ParaView VTP (XML PolyData, ASCII) of one frame: the `position` column as the points (3 components, z = 0 in
 * 2D), one vertex cell per particle, every other column as point data (vectors padded to 3 components), named
 * with label and unit. `time` (s), if given, is stored as the TimeValue field.
 */
export function frameToVtp(frame: Uint8Array, columns: readonly ColumnInfo[], time?: number): string {
  const n = particleCount(columns);
  const data = columnsOf(frame, columns);
  const position = data.find((d) => d.column.name === 'position');
  if (!position) throw new Error('frame layout has no position column');
  const vector = (values: ArrayLike<number>, components: number, type: ColumnInfo['type']): string => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < 3; k++) out.push(k < components ? number(values[k * n + i]!, type) : '0');
    }
    return out.join(' ');
  };
  const scalar = (values: ArrayLike<number>, type: ColumnInfo['type']): string =>
    Array.from({ length: n }, (_, i) => number(values[i]!, type)).join(' ');
  const arrays = data
    .filter((d) => d.column.name !== 'position')
    .map(({ column, values }) => {
      const vtkType = column.type === 'int32' ? 'Int32' : 'Float32';
      const components = column.components > 1 ? 3 : 1;
      const text = components === 3 ? vector(values, column.components, column.type) : scalar(values, column.type);
      return `        <DataArray type="${vtkType}" Name="${escapeXml(titled(column))}" NumberOfComponents="${components}" format="ascii">${text}</DataArray>`;
    });
  const indices = Array.from({ length: n }, (_, i) => String(i)).join(' ');
  const offsets = Array.from({ length: n }, (_, i) => String(i + 1)).join(' ');
  const fieldData =
    time === undefined
      ? ''
      : `    <FieldData>\n      <DataArray type="Float64" Name="TimeValue" NumberOfTuples="1" format="ascii">${time}</DataArray>\n    </FieldData>\n`;
  return [
    '<?xml version="1.0"?>',
    '<VTKFile type="PolyData" version="1.0" byte_order="LittleEndian" header_type="UInt64">',
    '  <PolyData>',
    fieldData +
      `    <Piece NumberOfPoints="${n}" NumberOfVerts="${n}" NumberOfLines="0" NumberOfStrips="0" NumberOfPolys="0">`,
    '      <Points>',
    `        <DataArray type="Float32" Name="${escapeXml(titled(position.column))}" NumberOfComponents="3" format="ascii">${vector(position.values, position.column.components, 'float32')}</DataArray>`,
    '      </Points>',
    '      <Verts>',
    `        <DataArray type="Int64" Name="connectivity" format="ascii">${indices}</DataArray>`,
    `        <DataArray type="Int64" Name="offsets" format="ascii">${offsets}</DataArray>`,
    '      </Verts>',
    '      <PointData>',
    ...arrays,
    '      </PointData>',
    '    </Piece>',
    '  </PolyData>',
    '</VTKFile>',
    '',
  ].join('\n');
}

/**
 * CSV (RFC 4180, comma-separated, header row) of one frame: one row per particle, one column per scalar and per
 * vector component, headed by label, axis and unit (e.g. `Velocity X (m/s)`).
 */
export function frameToCsv(frame: Uint8Array, columns: readonly ColumnInfo[]): string {
  const n = particleCount(columns);
  const data = columnsOf(frame, columns);
  const header: string[] = [];
  for (const { column } of data) {
    for (let k = 0; k < column.components; k++) {
      const axis = column.components > 1 ? ` ${AXES[k]}` : '';
      header.push(column.unit === '' ? `${column.label}${axis}` : `${column.label}${axis} (${column.unit})`);
    }
  }
  // NaN stays `NaN` (a diverged particle must show), not the writer's empty cell.
  const options = { number: String };
  const rows = [csvRow(header, options)];
  for (let i = 0; i < n; i++) {
    const row: number[] = [];
    for (const { column, values } of data) {
      for (let k = 0; k < column.components; k++) row.push(rounded(values[k * n + i]!, column.type));
    }
    rows.push(csvRow(row, options));
  }
  return rows.join('\r\n') + '\r\n';
}
