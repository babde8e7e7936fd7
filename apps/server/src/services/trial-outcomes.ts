import { trialOutcomeDefinitions, type SimulationKindName } from '@insilico/contracts';
import { readNumericCsv, type NumericCsv } from '@insilico/contracts/csv';

/** The largest value of each frame scalar (frame-timeline stats) over the saved timesteps of the kind's object. */
export type FrameMaxima = Record<string, number | null>;

export interface OutcomeInput {
  kind: SimulationKindName;
  /** The stored monitors.csv (null when the run stored none). */
  monitorsCsv: string | null;
  /** Maxima over every stored frame of the kind's object (fluid: blood, solid: the device, particle: particles). */
  frameMaxima: FrameMaxima;
  /** The run's blood density, kg/m³ (the effective orifice area's ρ). */
  bloodDensity_kg_m3: number | null;
  /** Solid: the paravalvular gap area at the annulus (mm², `trial-gap.task.ts`), or null with why. */
  paravalvularGap?: { value: number | null; note: string };
}

export interface Outcomes {
  values: Record<string, number | null>;
  /** Why a value is null, per outcome key. */
  notes: Record<string, string>;
}

/** Gorlin's constant of ISO 5840 (EOA cm², flow mL/s, pressure mmHg, density g/cm³). */
const GORLIN = 51.6;

/** A column of the monitors table by its header (null when the run's monitors have none). */
export function monitorColumn(table: NumericCsv, name: string): number[] | null {
  const index = table.headers.indexOf(name);
  return index < 0 ? null : table.columns[index]!;
}

const finite = (values: readonly number[]) => values.filter(Number.isFinite);
const maxOf = (values: readonly number[]) => (values.length ? Math.max(...values) : null);
const meanOf = (values: readonly number[]) =>
  values.length ? values.reduce((s, v) => s + v, 0) / values.length : null;

/**
 * The scalar outcomes of one finished run (docs/decisions/trials.md, "Outcomes"): read from the monitors the case
 * building asks for (planes just upstream and downstream of the device, wall shear stress, capture, residence time)
 * and from the maxima of the stored frames. Nothing is estimated: a value the outputs cannot give is null with a note.
 */
export function computeOutcomes(input: OutcomeInput): Outcomes {
  const values: Record<string, number | null> = {};
  const notes: Record<string, string> = {};
  for (const definition of trialOutcomeDefinitions[input.kind]) values[definition.key] = null;
  const table = input.monitorsCsv ? readNumericCsv(input.monitorsCsv) : null;
  const set = (key: string, value: number | null, note: string) => {
    values[key] = value !== null && Number.isFinite(value) ? value : null;
    if (values[key] === null) notes[key] = note;
  };
  const noMonitors = 'The run stored no monitor values.';
  const fromMonitor = (name: string) => (table ? monitorColumn(table, name) : null);

  if (input.kind === 'fluid') {
    const drop = fromMonitor('upstream-downstream pressure_drop (mmHg)');
    const flow = fromMonitor('upstream flow_rate (L/min)');
    const wss = fromMonitor('max wall_shear_stress (Pa)');
    set('pressure_drop', drop ? maxOf(finite(drop)) : null, noMonitors);
    set('peak_velocity', input.frameMaxima.velocity ?? null, 'The run stored no blood frames.');
    set('max_wall_shear_stress', wss ? maxOf(finite(wss)) : null, noMonitors);
    const eoa = effectiveOrificeArea(flow, drop, input.bloodDensity_kg_m3);
    set('effective_orifice_area', eoa.value, eoa.note);
  } else if (input.kind === 'solid') {
    const frames = 'The run stored no device frames.';
    set('peak_von_mises_stress', input.frameMaxima.von_mises_stress ?? null, frames);
    set('peak_von_mises_strain', input.frameMaxima.von_mises_strain ?? null, frames);
    set('max_displacement', input.frameMaxima.displacement ?? null, frames);
    // The expansion's figures per saved timestep (packages/sph monitors: device diameter and ovality per plane, read
    // where the planes have moved with the device, peak contact pressure, line load, axial displacement); the last
    // row is the device's final state.
    const contact = fromMonitor('max contact_pressure (mmHg)');
    set('peak_contact_pressure', contact ? maxOf(finite(contact)) : null, noMonitors);
    // The contact force per length of the contact line (docs/decisions/solid-contact-pressure.md); absent from runs
    // made before it was monitored.
    const lineLoad = fromMonitor('mean line_load (N/mm)');
    set('peak_line_load', lineLoad ? maxOf(finite(lineLoad)) : null, noMonitors);
    const planes = table ? table.headers.filter((h) => /^plane_\d+ device_diameter \(mm\)$/.test(h)) : [];
    const lastOf = (name: string) => finite(fromMonitor(name) ?? []).at(-1) ?? null;
    const diameters = planes.map(lastOf).filter((d): d is number => d !== null);
    set('final_device_diameter', meanOf(diameters), noMonitors);
    const ovalities = planes
      .map((h) => lastOf(h.replace('device_diameter (mm)', 'ovality')))
      .filter((o): o is number => o !== null);
    const ovality = maxOf(ovalities);
    set('final_ovality', ovality === null ? null : 100 * ovality, noMonitors);
    set('device_migration', lastOf('device axial_displacement (mm)'), noMonitors);
    // The implanted state: the stress after the crimp and the expansion (the peak includes the crimp).
    set('final_von_mises_stress', lastOf('max von_mises_stress (MPa)'), noMonitors);
    set(
      'paravalvular_gap_area',
      input.paravalvularGap?.value ?? null,
      input.paravalvularGap?.note || 'The run stored no device frames.',
    );
  } else {
    const captured = fromMonitor('particles capture_percentage (%)');
    const age = fromMonitor('downstream residence_time (s)');
    set('captured_fraction', captured ? (finite(captured).at(-1) ?? null) : null, noMonitors);
    set(
      'mean_residence_time',
      age ? meanOf(finite(age)) : null,
      age ? 'No blood that entered through the inlet crossed the downstream plane during the run.' : noMonitors,
    );
  }
  return { values, notes };
}

/**
 * ISO 5840's Gorlin formula over the forward-flow timesteps (upstream flow > 0): EOA = q_RMS / (51.6 √(Δp̄ / ρ)),
 * q in mL/s, Δp̄ the mean pressure drop in mmHg, ρ in g/cm³. Saved timesteps are evenly spaced, so means over them
 * are the period's time means.
 */
export function effectiveOrificeArea(
  flow_L_min: readonly number[] | null,
  drop_mmHg: readonly number[] | null,
  density_kg_m3: number | null,
): { value: number | null; note: string } {
  if (!flow_L_min || !drop_mmHg) return { value: null, note: 'The run stored no monitor values.' };
  if (!density_kg_m3 || !(density_kg_m3 > 0)) return { value: null, note: 'The run has no blood density.' };
  const forward: { q: number; dp: number }[] = [];
  flow_L_min.forEach((q, i) => {
    const dp = drop_mmHg[i];
    if (Number.isFinite(q) && q > 0 && dp !== undefined && Number.isFinite(dp))
      forward.push({ q: (q * 1000) / 60, dp });
  });
  if (forward.length === 0)
    return { value: null, note: 'No forward flow crossed the upstream plane at a saved timestep.' };
  const qRms = Math.sqrt(forward.reduce((s, f) => s + f.q * f.q, 0) / forward.length);
  const dpMean = forward.reduce((s, f) => s + f.dp, 0) / forward.length;
  if (!(dpMean > 0))
    return {
      value: null,
      note: 'The mean pressure drop over forward flow was not positive, so Gorlin’s formula has no value.',
    };
  return { value: qRms / (GORLIN * Math.sqrt(dpMean / (density_kg_m3 / 1000))), note: '' };
}
