import { describe, expect, it } from 'vitest';
import { computeOutcomes, effectiveOrificeArea } from './trial-outcomes';

const header =
  'time (s),upstream flow_rate (L/min),upstream pressure (Pa),upstream pressure (mmHg),downstream flow_rate (L/min),' +
  'downstream pressure (Pa),downstream pressure (mmHg),upstream-downstream pressure_drop (Pa),' +
  'upstream-downstream pressure_drop (mmHg),mean wall_shear_stress (Pa),max wall_shear_stress (Pa)';

describe('trial outcomes', () => {
  it('Gorlin’s EOA by hand: q 300 mL/s (18 L/min) at 10 mmHg, ρ 1.06 g/cm³ → 300 / (51.6 √(10/1.06)) cm²', () => {
    const eoa = effectiveOrificeArea([18, 18, -2], [10, 10, 3], 1060);
    expect(eoa.value).toBeCloseTo(300 / (51.6 * Math.sqrt(10 / 1.06)), 10);
    // RMS flow and mean drop over the forward-flow rows only: q 6 and 12 L/min (100, 200 mL/s), drops 4 and 8 mmHg.
    const rms = Math.sqrt((100 ** 2 + 200 ** 2) / 2);
    expect(effectiveOrificeArea([6, 0, 12], [4, 99, 8], 1000).value).toBeCloseTo(rms / (51.6 * Math.sqrt(6 / 1)), 10);
  });

  it('has no EOA without forward flow or with a mean drop that is not positive, and says why', () => {
    expect(effectiveOrificeArea([0, -1], [3, 3], 1060)).toEqual({
      value: null,
      note: 'No forward flow crossed the upstream plane at a saved timestep.',
    });
    expect(effectiveOrificeArea([5, 5], [-1, 0.5], 1060).value).toBeNull();
  });

  it('fluid: peak drop and wall shear stress from the monitors, peak velocity from the frames (NaN rows skipped)', () => {
    const csv = [
      header,
      '0,0,0,0,0,0,0,0,0,0,0',
      '0.001,6,800,6,5.9,0,0,800,6.0,1.2,4.5',
      '0.002,12,NaN,NaN,11,0,0,NaN,NaN,NaN,NaN',
      '0.003,12,1600,12,11.8,0,0,1600,12.0,2.5,9.25',
    ].join('\n');
    const { values, notes } = computeOutcomes({
      kind: 'fluid',
      monitorsCsv: csv,
      frameMaxima: { velocity: 1.75, pressure: 1700 },
      bloodDensity_kg_m3: 1060,
    });
    expect(values.pressure_drop).toBe(12);
    expect(values.max_wall_shear_stress).toBe(9.25);
    expect(values.peak_velocity).toBe(1.75);
    const rms = Math.sqrt((100 ** 2 + 200 ** 2) / 2);
    expect(values.effective_orifice_area).toBeCloseTo(rms / (51.6 * Math.sqrt(9 / 1.06)), 10);
    expect(notes).toEqual({});
  });

  it('solid and particle outcomes; a missing output is null with its reason, never a number', () => {
    const solid = computeOutcomes({
      kind: 'solid',
      monitorsCsv: null,
      frameMaxima: { von_mises_stress: 212.5, displacement: 0.31 },
      bloodDensity_kg_m3: null,
    });
    expect(solid.values).toEqual({
      peak_von_mises_stress: 212.5,
      final_von_mises_stress: null,
      peak_von_mises_strain: null,
      max_displacement: 0.31,
      peak_contact_pressure: null,
      peak_line_load: null,
      final_device_diameter: null,
      final_ovality: null,
      device_migration: null,
      paravalvular_gap_area: null,
    });
    expect(solid.notes.paravalvular_gap_area).toBe('The run stored no device frames.');
    expect(solid.notes.peak_von_mises_strain).toBe('The run stored no device frames.');
    expect(solid.notes.peak_contact_pressure).toBe('The run stored no monitor values.');
    const particle = computeOutcomes({
      kind: 'particle',
      monitorsCsv:
        'time (s),particles capture_percentage (%),downstream residence_time (s)\n0,0,NaN\n0.1,12.5,0.02\n0.2,37.5,0.04\n',
      frameMaxima: {},
      bloodDensity_kg_m3: 1060,
    });
    expect(particle.values.captured_fraction).toBe(37.5);
    expect(particle.values.mean_residence_time).toBeCloseTo(0.03, 12);
  });

  it('solid expansion: peak contact pressure and line load, the last row’s mean diameter, largest ovality, migration and stress', () => {
    const csv = [
      'time (s),plane_1 device_diameter (mm),plane_1 ovality,plane_2 device_diameter (mm),plane_2 ovality,' +
        'max von_mises_stress (MPa),max contact_pressure (Pa),max contact_pressure (mmHg),total contact_force (N),' +
        'mean line_load (N/mm),device axial_displacement (mm)',
      '0,20,0.01,20,0.01,0,0,0,0,0,0',
      '0.001,23,0.02,24,0.03,150,4000,30,1.5,0.02,0',
      '0.002,23.5,0.04,24.5,0.02,140,2666.4,20,1.2,0.016,0.25',
    ].join('\n');
    const solid = computeOutcomes({ kind: 'solid', monitorsCsv: csv, frameMaxima: {}, bloodDensity_kg_m3: null });
    expect(solid.values.peak_contact_pressure).toBe(30);
    expect(solid.values.peak_line_load).toBe(0.02);
    expect(solid.values.final_von_mises_stress).toBe(140);
    expect(solid.values.final_device_diameter).toBe(24);
    expect(solid.values.final_ovality).toBeCloseTo(4, 12);
    expect(solid.values.device_migration).toBe(0.25);
  });

  it('solid: the paravalvular gap area as measured, or null with the measure’s reason', () => {
    const at = (paravalvularGap: { value: number | null; note: string }) =>
      computeOutcomes({ kind: 'solid', monitorsCsv: null, frameMaxima: {}, bloodDensity_kg_m3: null, paravalvularGap });
    expect(at({ value: 12.5, note: '' }).values.paravalvular_gap_area).toBe(12.5);
    const away = at({ value: null, note: 'The device does not reach the annulus plane at the end of the run.' });
    expect([away.values.paravalvular_gap_area, away.notes.paravalvular_gap_area]).toEqual([
      null,
      'The device does not reach the annulus plane at the end of the run.',
    ]);
  });
});
