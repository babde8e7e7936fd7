import { describe, expect, it } from 'vitest';
import { outputLabel, outputLabelWithUnit, outputUnit, siToUnitFactor } from './outputLabels';

describe('outputLabel', () => {
  it('turns underscores into spaced, capitalised words', () => {
    expect(outputLabel('shear_stress')).toBe('Shear Stress');
    expect(outputLabel('velocity')).toBe('Velocity');
    expect(outputLabel('wall__shear_rate_')).toBe('Wall Shear Rate');
  });
  it('keeps the von Mises special cases', () => {
    expect(outputLabel('von_mises_stress')).toBe('von Mises stress');
    expect(outputLabel('von_mises_strain')).toBe('von Mises strain');
  });
});

describe('outputUnit', () => {
  it('uses the unit of the output kind', () => {
    expect(outputUnit('velocity')).toBe('m/s');
    expect(outputUnit('pressure')).toBe('Pa');
    expect(outputUnit('displacement')).toBe('mm');
    expect(outputUnit('density')).toBe('kg/m²');
    expect(outputUnit('flow_rate')).toBe('L/min');
    expect(outputUnit('acceleration')).toBe('mm/s²');
    expect(outputUnit('von_mises_stress')).toBe('MPa');
  });
  it('matches the longest kind inside a longer name', () => {
    expect(outputUnit('wall_shear_stress')).toBe('Pa');
    expect(outputUnit('active_stress')).toBe('Pa');
    expect(outputUnit('kinematic_viscosity')).toBe('m²/s');
  });
  it('applies the unit rules by name first', () => {
    expect(outputUnit('von_mises_strain')).toBe('mm/mm');
    expect(outputUnit('radius')).toBe('mm');
    expect(outputUnit('wall_distance')).toBe('mm');
    expect(outputUnit('fibre_length')).toBe('mm');
    // A diameter is a length (issue 15's device diameter); the expansion's other columns by their kinds.
    expect(outputUnit('device_diameter')).toBe('mm');
    expect(outputUnit('axial_displacement')).toBe('mm');
    expect(outputUnit('contact_force')).toBe('N');
    expect(outputUnit('contact_pressure', 'medical')).toBe('mmHg');
    expect(outputUnit('ovality')).toBe('');
    // Issue 16: the contact's force per length of the contact line.
    expect(outputUnit('line_load')).toBe('N/mm');
  });
  it('uses MPa for a stress that is no output kind of its own (§9 "Stress uses MPa")', () => {
    expect(outputUnit('principal_stress')).toBe('MPa');
    expect(outputUnit('contact_stress')).toBe('MPa');
    expect(outputUnit('stress')).toBe('MPa');
    expect(outputUnit('shear_stress')).toBe('Pa');
  });
  it('offers the medical units', () => {
    expect(outputUnit('pressure', 'medical')).toBe('mmHg');
    expect(outputUnit('dynamic_viscosity', 'medical')).toBe('cP');
    expect(outputUnit('kinematic_viscosity', 'medical')).toBe('sP');
    expect(outputUnit('velocity', 'medical')).toBe('m/s');
  });
  it('gives no unit for an unknown name', () => {
    expect(outputUnit('particle_id')).toBe('');
    expect(outputLabelWithUnit('particle_id')).toBe('Particle Id');
  });
});

describe('siToUnitFactor', () => {
  it('converts SI values into display units', () => {
    expect(siToUnitFactor('mm')).toBe(1000);
    expect(siToUnitFactor('MPa')).toBe(1e-6);
    expect(siToUnitFactor('N/mm')).toBe(1e-3);
    expect(133.322387415 * siToUnitFactor('mmHg')!).toBeCloseTo(1, 12);
    expect(siToUnitFactor('sP')).toBeUndefined();
  });
  it('labels with units', () => {
    expect(outputLabelWithUnit('pressure', 'medical')).toBe('Pressure (mmHg)');
    expect(outputLabelWithUnit('von_mises_stress')).toBe('von Mises stress (MPa)');
  });
});
