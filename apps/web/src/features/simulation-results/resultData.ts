import { csvRow, type NumericCsv } from '@insilico/contracts/csv';
import { frameColumnsAt, type SimulationResults, type SimulationTimeline } from '@insilico/contracts';
import { outputLabel, outputLabelWithUnit } from '@insilico/sph/outputLabels';
import type { BodyType } from './types';

/**
 * The results page's data logic (issue 16 item 5), pure: URLs from the API's templates, frame columns read from the
 * binary answer, the outputs a person can colour or bin, monitors.csv read into series, the predefined plots per
 * kind, and the per-particle CSV. Tested in resultData.test.ts.
 */

export type ResultManifest = SimulationResults['manifest'];
export type ResultObject = ResultManifest['objects'][number];
export type ObjectKind = ResultObject['kind'];

/** Fills `{object}`, `{timestep}` and `{format}` of a URL template of the results answer. */
export function fillTemplate(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? encodeURIComponent(String(values[key])) : whole,
  );
}

/** The card's body types by object kind (spec §3 "Analysis card inputs"). */
export function bodyTypeOf(kind: ObjectKind): BodyType {
  // The wall of a flow run is a rigid body: its surface particles (with their wall shear stress) are Solid.
  return kind === 'fluid' ? 'Fluid' : kind === 'solid' || kind === 'wall' ? 'Solid' : 'Particle';
}

/** The number of particles of an object at a timestep (with inlets and outlets it changes in time). */
export function countAt(manifest: ResultManifest, object: ResultObject, timestep: number): number {
  return manifest.timesteps[timestep]?.particleCounts?.[object.name] ?? object.particleCount;
}

/**
 * Outputs a person colours the particles by or bins: every column but the id and the position (a vector is shown as
 * its magnitude).
 */
export function valueOutputs(object: ResultObject): string[] {
  return object.columns.filter((c) => c.name !== 'particle_id' && c.name !== 'position').map((c) => c.name);
}

export type ColumnValues = Float32Array | Int32Array;

/**
 * Splits the answer of `…/frames/:object/:timestep?columns=a,b` (the asked columns back to back, little-endian, in
 * the asked order) into one array per column (component-major, as stored).
 */
export function splitColumns(
  bytes: ArrayBuffer,
  object: ResultObject,
  count: number,
  names: readonly string[],
): Record<string, ColumnValues> {
  const layout = frameColumnsAt(object.columns, count);
  const out: Record<string, ColumnValues> = {};
  let offset = 0;
  for (const name of names) {
    const column = layout.find((c) => c.name === name);
    if (!column) throw new Error(`The object ${object.name} has no output ${name}.`);
    if (offset + column.byteLength > bytes.byteLength) throw new Error('The frame answer is shorter than its columns.');
    const length = column.byteLength / 4;
    out[name] =
      column.type === 'int32' ? new Int32Array(bytes, offset, length) : new Float32Array(bytes, offset, length);
    offset += column.byteLength;
  }
  return out;
}

export { scalarValues } from '@insilico/contracts/binning';

/** Interleaves a component-major position column (all x, all y, all z) into xyz triples for a vertex buffer. */
export function interleavePositions(position: ColumnValues, count: number): Float32Array {
  const out = new Float32Array(count * 3);
  for (let i = 0; i < count; i++) {
    out[3 * i] = position[i]!;
    out[3 * i + 1] = position[count + i]!;
    out[3 * i + 2] = position[2 * count + i]!;
  }
  return out;
}

/**
 * The colour bar's range of an output over the whole run (every stored timestep of every object that has it), from
 * the results' `ranges`; null when the result has none (stored before they were kept) or no object has the output.
 */
export function runRange(
  ranges: Readonly<Record<string, Readonly<Record<string, { min: number; max: number }>>>> | null,
  output: string,
): { min: number; max: number } | null {
  if (!ranges) return null;
  const found = Object.values(ranges).flatMap((byOutput) => (byOutput[output] ? [byOutput[output]] : []));
  if (found.length === 0) return null;
  return finiteRange(found.flatMap((r) => [r.min, r.max]));
}

/** The finite range of values (0..1 when none is finite, a width of 1 when all are equal), for the colour bar. */
export function finiteRange(values: ArrayLike<number>): { min: number; max: number } {
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (min > max) return { min: 0, max: 1 };
  return min === max ? { min: min - 0.5, max: max + 0.5 } : { min, max };
}

/** monitors.csv read back (`readNumericCsv`): its headers and its numeric columns (NaN where a value is missing). */
export type Monitors = NumericCsv;

/** A predefined plot of the results page: one or more lines over the saved timesteps. */
export interface PredefinedPlot {
  key: string;
  title: string;
  yLabel: string;
  lines: { name: string; data: (number | null)[] }[];
  /** Why the plot has no data (the engine does not compute it yet), shown instead of the chart. */
  unavailable?: string;
}

const finiteOrNull = (v: number | null | undefined): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : null;

/** The monitors columns whose header contains `what` and ends in `(unit)`. */
function monitorLines(monitors: Monitors, what: string, unit: string): PredefinedPlot['lines'] {
  return monitors.headers.flatMap((header, k) =>
    header.includes(what) && header.endsWith(`(${unit})`)
      ? [
          {
            name: header.replace(/\s*\([^)]*\)$/, '').replace(what, outputLabel(what)),
            data: monitors.columns[k]!.map(finiteOrNull),
          },
        ]
      : [],
  );
}

/**
 * The wall shear stress distribution of a flow run: the wall object (its surface particles) and its output, or null
 * for a result without one (a run stored before the wall was saved).
 */
export function wallShearStressOf(manifest: ResultManifest): { objects: string[]; output: string } | null {
  const wall = manifest.objects.find((o) => o.kind === 'wall' && o.columns.some((c) => c.name === 'wall_shear_stress'));
  return wall ? { objects: [wall.name], output: 'wall_shear_stress' } : null;
}

/** A solid run stored before the solid kind expanded the device into the anatomy has no contact monitors. */
export const noExpansionMonitors =
  'This run stored no contact or diameter values: it was run before the solid kind expanded the device into the anatomy.';

export const noLineLoad = 'This run stored no line load: it was run before the line load was recorded.';

function expansionPlot(
  key: string,
  title: string,
  yLabel: string,
  lines: PredefinedPlot['lines'],
  missing = noExpansionMonitors,
): PredefinedPlot {
  return lines.length > 0 ? { key, title, yLabel, lines } : { key, title, yLabel, lines, unavailable: missing };
}

/**
 * The predefined plots of a kind (issue 16 item 5): fluid — flow rate and pressure drop across the device over time,
 * wall shear stress; solid — maximum von Mises stress, contact force, peak contact pressure, line load and device diameter
 * over time (the expansion's monitors); particle —
 * captured fraction over time (capture locations are drawn in the scene and listed by the page).
 */
export function predefinedPlots(
  kind: 'fluid' | 'solid' | 'particle',
  monitors: Monitors | null,
  solidTimeline: SimulationTimeline | null,
): PredefinedPlot[] {
  const m = monitors ?? { headers: [], columns: [] };
  if (kind === 'fluid')
    return [
      {
        key: 'flow',
        title: 'Flow rate over time',
        yLabel: 'Flow rate (L/min)',
        lines: monitorLines(m, 'flow_rate', 'L/min'),
      },
      {
        key: 'drop',
        title: 'Pressure drop across the device over time',
        yLabel: 'Pressure drop (mmHg)',
        lines: monitorLines(m, 'pressure_drop', 'mmHg'),
      },
      {
        key: 'wss',
        title: 'Wall shear stress over time (mean and maximum over the wall)',
        yLabel: 'Wall shear stress (Pa)',
        lines: monitorLines(m, 'wall_shear_stress', 'Pa'),
      },
    ];
  if (kind === 'particle')
    return [
      {
        key: 'captured',
        title: 'Captured fraction over time',
        yLabel: 'Captured fraction (%)',
        lines: monitorLines(m, 'capture_percentage', '%'),
      },
    ];
  const stress = solidTimeline?.stats.von_mises_stress;
  return [
    {
      key: 'stress',
      title: 'Maximum von Mises stress over time',
      yLabel: outputLabelWithUnit('von_mises_stress'),
      lines: stress ? [{ name: `${solidTimeline.object} maximum`, data: stress.max.map(finiteOrNull) }] : [],
    },
    expansionPlot(
      'contact',
      'Contact force over time',
      outputLabelWithUnit('force'),
      monitorLines(m, 'contact_force', 'N'),
    ),
    expansionPlot(
      'pressure',
      'Peak contact pressure on the anatomy over time',
      'Contact pressure (mmHg)',
      monitorLines(m, 'contact_pressure', 'mmHg'),
    ),
    expansionPlot(
      'line-load',
      'Mean line load on the anatomy over time (force per length of contact)',
      'Line load (N/mm)',
      monitorLines(m, 'line_load', 'N/mm'),
      // A run of the expansion from before the line load was recorded has the other monitors.
      m.headers.some((h) => h.includes('contact_force')) ? noLineLoad : noExpansionMonitors,
    ),
    expansionPlot(
      'diameter',
      'Device diameter over time (per measuring plane)',
      'Diameter (mm)',
      monitorLines(m, 'device_diameter', 'mm'),
    ),
  ];
}

/**
 * One particle over time as CSV: the timestep (from 1, as the slider), the time and every output with its unit in
 * the header (spec §9 labels), one row per saved timestep; empty cells where the particle is not in the frame.
 */
export function particleCsv(timeline: SimulationTimeline, particle: number): string {
  const entry = timeline.particles.find((p) => p.particle === particle);
  if (!entry) throw new Error(`The timeline has no particle ${particle}.`);
  const headers = [
    'Timestep',
    'Time (s)',
    ...timeline.outputs.map((o) => (o.unit ? `${o.label} (${o.unit})` : o.label)),
  ];
  const rows = timeline.times.map((time, t) => [
    t + 1,
    time,
    ...timeline.outputs.map((o) => entry.values[o.name]?.[t] ?? ''),
  ]);
  return [headers, ...rows].map((row) => csvRow(row)).join('\n') + '\n';
}

/** The particle's download name. */
export function particleCsvName(simulationName: string, object: string, particleName: string): string {
  const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-|-$/g, '') || 'x';
  return `${safe(simulationName)}-${safe(object)}-${safe(particleName)}.csv`;
}

/** The captured particles of a frame (`captured` is 1 once a wall or the device caught it) and where they are. */
export function capturedParticles(
  columns: Record<string, ColumnValues>,
  count: number,
): { particle: number; position: [number, number, number] }[] {
  const ids = columns.particle_id;
  const position = columns.position;
  const captured = columns.captured;
  if (!ids || !position || !captured) return [];
  const rows: { particle: number; position: [number, number, number] }[] = [];
  for (let i = 0; i < count; i++)
    if (captured[i] === 1)
      rows.push({ particle: ids[i]!, position: [position[i]!, position[count + i]!, position[2 * count + i]!] });
  return rows;
}
