import { describe, expect, it } from 'vitest';
import type { Simulation } from '@insilico/contracts';
import {
  fixedByMaterial,
  formatDuration,
  initialForm,
  progressText,
  requestOf,
  resolutionOptions,
  setupRunnable,
  withMaterial,
} from './setupForm';
import { fluidSetup, solidSetup } from '../../../test/fixtures/simulation.fixtures';

describe('the set-up form', () => {
  it('starts from the patient defaults at the coarse resolution', () => {
    const form = initialForm(fluidSetup());
    expect(form).toEqual({
      kind: 'fluid',
      values: { heartRate_bpm: 70, strokeVolume_mL: 72.5, cycles: 1 },
      material: 'custom',
      shearThinning: false,
      resolution: 'coarse',
      name: '',
    });
  });

  it('keeps the resolution and name chosen before when the new set-up offers it', () => {
    expect(initialForm(fluidSetup(), { resolution: 'fine', name: 'Run A' })).toMatchObject({
      resolution: 'fine',
      name: 'Run A',
    });
    // Fine is over the particle cap in this room: back to coarse.
    const capped = fluidSetup({ estimates: fluidSetup().estimates!.slice(0, 2) });
    expect(initialForm(capped, { resolution: 'fine', name: '' }).resolution).toBe('coarse');
  });

  it('offers the test resolution only where an operator turned it on, and a resolution over the cap disabled', () => {
    expect(resolutionOptions(fluidSetup()).map((o) => o.resolution)).toEqual(['coarse', 'standard', 'fine']);
    const withTest = resolutionOptions(fluidSetup({ testResolution: true }));
    expect(withTest.map((o) => [o.resolution, o.available])).toEqual([
      ['test', true],
      ['coarse', true],
      ['standard', true],
      ['fine', true],
    ]);
    const capped = resolutionOptions(fluidSetup({ estimates: fluidSetup().estimates!.slice(0, 2) }));
    expect(capped.find((o) => o.resolution === 'fine')).toMatchObject({ available: false, estimate: null });
    // A room that cannot run the kind offers nothing to choose.
    expect(resolutionOptions(fluidSetup({ estimates: null, testResolution: true })).some((o) => o.available)).toBe(
      false,
    );
    // Defaults refused for a value of the form: every resolution stays open (the estimate of each set-up decides).
    const adjustable = fluidSetup({ estimates: null, problemsAdjustable: true, testResolution: true });
    expect(resolutionOptions(adjustable).map((o) => [o.resolution, o.available, o.estimate])).toEqual([
      ['test', true, null],
      ['coarse', true, null],
      ['standard', true, null],
      ['fine', true, null],
    ]);
    expect(setupRunnable(adjustable)).toBe(true);
    expect(setupRunnable(fluidSetup({ estimates: null }))).toBe(false);
    expect(setupRunnable(fluidSetup({ canRun: false }))).toBe(false);
  });

  it('sends the kind’s parameters, the shear-thinning switch, and a trimmed name or none', () => {
    const setup = fluidSetup();
    const form = { ...initialForm(setup), name: '  Systole run ', shearThinning: true };
    expect(requestOf(form, setup)).toEqual({
      kind: 'fluid',
      resolution: 'coarse',
      name: 'Systole run',
      parameters: { heartRate_bpm: 70, strokeVolume_mL: 72.5, cycles: 1, shearThinning: true },
    });
    expect(requestOf({ ...form, name: '   ' }, setup)).not.toHaveProperty('name');
  });

  it('sends a library material by its id and a custom material with its three values', () => {
    const setup = solidSetup();
    const form = initialForm(setup);
    expect(form.material).toBe('nitinol');
    expect(fixedByMaterial(form, 'youngsModulus_GPa')).toBe(true);
    expect(fixedByMaterial(form, 'loadPressure_mmHg')).toBe(false);
    expect(requestOf(form, setup).parameters).toEqual({ loadPressure_mmHg: 10, material: 'nitinol' });
    const steel = withMaterial(form, setup, 'stainless_316l');
    expect(steel.values).toMatchObject({ youngsModulus_GPa: 193, poissonRatio: 0.3, materialDensity_kg_m3: 8000 });
    const custom = withMaterial(steel, setup, 'custom');
    expect(fixedByMaterial(custom, 'youngsModulus_GPa')).toBe(false);
    expect(requestOf({ ...custom, values: { ...custom.values, poissonRatio: 0.4 } }, setup).parameters).toEqual({
      youngsModulus_GPa: 193,
      poissonRatio: 0.4,
      materialDensity_kg_m3: 8000,
      loadPressure_mmHg: 10,
      material: 'custom',
    });
  });
});

describe('figures in words', () => {
  it('says run times roughly', () => {
    expect(formatDuration(0.2)).toBe('about 1 s');
    expect(formatDuration(43)).toBe('about 43 s');
    expect(formatDuration(217)).toBe('about 4 min');
    expect(formatDuration(9000)).toBe('about 2.5 h');
    expect(formatDuration(90000)).toBe('about 25 h');
  });

  it('shows progress as simulated time of the end, percent, and the ETA while running', () => {
    const run = {
      status: 'running',
      progress: 0.256,
      simulatedTime: 0.2194,
      endTime: 0.857,
      etaSeconds: 150,
    } as Simulation;
    expect(progressText(run)).toBe('219 of 857 ms (25 %) · about 3 min left');
    expect(progressText({ ...run, status: 'cancelled' })).toBe('219 of 857 ms (25 %)');
    expect(progressText({ ...run, status: 'completed', progress: 1, simulatedTime: 0.003, endTime: 0.003 })).toBe(
      '3.00 of 3.00 ms (100 %)',
    );
  });
});
