import { describe, expect, it } from 'vitest';
import type { SimulationTimeline } from '@insilico/contracts';
import { readNumericCsv } from '@insilico/contracts/csv';
import {
  bodyTypeOf,
  capturedParticles,
  countAt,
  fillTemplate,
  finiteRange,
  interleavePositions,
  noExpansionMonitors,
  particleCsv,
  particleCsvName,
  noLineLoad,
  predefinedPlots,
  scalarValues,
  splitColumns,
  runRange,
  valueOutputs,
  wallShearStressOf,
  type ResultManifest,
  type ResultObject,
} from './resultData';

const particles: ResultObject = {
  name: 'particles',
  kind: 'particles',
  particleCount: 3,
  frameFile: 'particles/{step}.bin',
  columns: [
    { name: 'particle_id', label: 'Particle Id', unit: '', type: 'int32', components: 1, offset: 0, byteLength: 12 },
    { name: 'position', label: 'Position', unit: 'mm', type: 'float32', components: 3, offset: 12, byteLength: 36 },
    { name: 'velocity', label: 'Velocity', unit: 'm/s', type: 'float32', components: 3, offset: 48, byteLength: 36 },
    { name: 'captured', label: 'Captured', unit: '', type: 'float32', components: 1, offset: 84, byteLength: 12 },
  ],
};
const manifest: ResultManifest = {
  format: 'insilico-sph-columnar',
  version: 1,
  endianness: 'little',
  timesteps: [
    { index: 0, time: 0 },
    { index: 1, time: 0.001, particleCounts: { particles: 2 } },
  ],
  objects: [particles],
};

describe('the results page data', () => {
  it('gives the colour bar the range over the whole run of every object with the output', () => {
    const ranges = {
      blood: { pressure: { min: -20, max: 300 }, velocity: { min: 0, max: 1.5 } },
      wall: { wall_shear_stress: { min: 0, max: 4 } },
      device: { pressure: { min: -50, max: 100 } },
    };
    expect(runRange(ranges, 'pressure')).toEqual({ min: -50, max: 300 });
    expect(runRange(ranges, 'wall_shear_stress')).toEqual({ min: 0, max: 4 });
    expect(runRange(ranges, 'captured')).toBeNull();
    expect(runRange(null, 'pressure')).toBeNull();
    // A constant output still gets a bar of width 1 (as the shown timestep's range).
    expect(runRange({ a: { p: { min: 2, max: 2 } } }, 'p')).toEqual({ min: 1.5, max: 2.5 });
  });

  it('finds the wall shear stress distribution of a flow run (the wall object), none without a wall', () => {
    expect(wallShearStressOf(manifest)).toBeNull();
    const wall: ResultObject = {
      name: 'wall',
      kind: 'wall',
      particleCount: 2,
      frameFile: 'wall/{step}.bin',
      columns: [
        { name: 'particle_id', label: 'Particle Id', unit: '', type: 'int32', components: 1, offset: 0, byteLength: 8 },
        { name: 'position', label: 'Position', unit: 'mm', type: 'float32', components: 3, offset: 8, byteLength: 24 },
        {
          name: 'wall_shear_stress',
          label: 'Wall Shear Stress',
          unit: 'Pa',
          type: 'float32',
          components: 1,
          offset: 32,
          byteLength: 8,
        },
      ],
    };
    expect(wallShearStressOf({ ...manifest, objects: [particles, wall] })).toEqual({
      objects: ['wall'],
      output: 'wall_shear_stress',
    });
  });

  it('fills the API URL templates, encoding the values', () => {
    expect(
      fillTemplate('/s/1/exports/{object}/{timestep}/{format}', { object: 'blood', timestep: 3, format: 'vtp' }),
    ).toBe('/s/1/exports/blood/3/vtp');
    expect(fillTemplate('/f/{object}/{other}', { object: 'a b' })).toBe('/f/a%20b/{other}');
  });

  it('maps object kinds to the card body types and counts particles per timestep', () => {
    expect(['fluid', 'solid', 'particles', 'wall'].map((k) => bodyTypeOf(k as ResultObject['kind']))).toEqual([
      'Fluid',
      'Solid',
      'Particle',
      'Solid',
    ]);
    expect(countAt(manifest, particles, 0)).toBe(3);
    expect(countAt(manifest, particles, 1)).toBe(2);
    expect(valueOutputs(particles)).toEqual(['velocity', 'captured']);
  });

  it('splits a columns answer at a timestep with fewer particles (offsets follow that count)', () => {
    // Two particles: ids 7, 9; positions x=(1,2) y=(3,4) z=(5,6); captured (0,1).
    const buffer = new ArrayBuffer(4 * (2 + 6 + 2));
    new Int32Array(buffer, 0, 2).set([7, 9]);
    new Float32Array(buffer, 8, 8).set([1, 2, 3, 4, 5, 6, 0, 1]);
    const columns = splitColumns(buffer, particles, 2, ['particle_id', 'position', 'captured']);
    expect([...columns.particle_id!]).toEqual([7, 9]);
    expect([...interleavePositions(columns.position!, 2)]).toEqual([1, 3, 5, 2, 4, 6]);
    expect([...columns.captured!]).toEqual([0, 1]);
    expect(capturedParticles(columns, 2)).toEqual([{ particle: 9, position: [2, 4, 6] }]);
    expect(() => splitColumns(buffer, particles, 3, ['particle_id', 'position', 'captured'])).toThrow(/shorter/);
    expect(() => splitColumns(buffer, particles, 2, ['pressure'])).toThrow(
      'The object particles has no output pressure.',
    );
  });

  it('shows a vector as its magnitude and gives the colour bar a usable range', () => {
    const velocity = new Float32Array([3, 0, 4, 0]); // x = (3, 0), y = (4, 0)
    expect([...scalarValues(velocity, 2, 2)]).toEqual([5, 0]);
    expect(finiteRange([2, NaN, -1, Infinity])).toEqual({ min: -1, max: 2 });
    expect(finiteRange([4, 4])).toEqual({ min: 3.5, max: 4.5 });
    expect(finiteRange([NaN])).toEqual({ min: 0, max: 1 });
  });

  it('reads monitors.csv into the predefined plots of the fluid kind, units as the headers say', () => {
    const monitors = readNumericCsv(
      [
        'time (s),upstream flow_rate (L/min),upstream pressure (Pa),upstream pressure (mmHg),upstream-downstream pressure_drop (Pa),upstream-downstream pressure_drop (mmHg),mean wall_shear_stress (Pa),max wall_shear_stress (Pa)',
        '0,0,0,0,0,0,0,0',
        '0.001,4.5,100,0.75,40,0.3,1.5,NaN',
        '',
      ].join('\n'),
    );
    expect(monitors.columns[0]).toEqual([0, 0.001]);
    const plots = predefinedPlots('fluid', monitors, null);
    expect(plots.map((p) => p.title)).toEqual([
      'Flow rate over time',
      'Pressure drop across the device over time',
      'Wall shear stress over time (mean and maximum over the wall)',
    ]);
    expect(plots[0]!.lines).toEqual([{ name: 'upstream Flow Rate', data: [0, 4.5] }]);
    expect(plots[1]!.lines).toEqual([{ name: 'upstream-downstream Pressure Drop', data: [0, 0.3] }]);
    expect(plots[2]!.lines.map((l) => l.data)).toEqual([
      [0, 1.5],
      [0, null],
    ]);
  });

  it('gives the particle kind its captured fraction and the solid kind its maximum stress, saying what is missing', () => {
    const monitors = readNumericCsv('time (s),particles capture_percentage (%)\n0,0\n0.1,12.5\n');
    expect(predefinedPlots('particle', monitors, null)[0]!.lines).toEqual([
      { name: 'particles Capture Percentage', data: [0, 12.5] },
    ]);
    const timeline: SimulationTimeline = {
      object: 'device',
      times: [0, 0.1],
      outputs: [{ name: 'von_mises_stress', label: 'von Mises stress', unit: 'MPa' }],
      stats: { von_mises_stress: { min: [0, 1], max: [0, 80], mean: [0, 20] } },
      particles: [],
    };
    const solid = predefinedPlots('solid', null, timeline);
    expect(solid[0]).toMatchObject({ yLabel: 'von Mises stress (MPa)', lines: [{ data: [0, 80] }] });
    expect(solid.slice(1).map((p) => [p.title, p.unavailable])).toEqual([
      ['Contact force over time', noExpansionMonitors],
      ['Peak contact pressure on the anatomy over time', noExpansionMonitors],
      ['Mean line load on the anatomy over time (force per length of contact)', noExpansionMonitors],
      ['Device diameter over time (per measuring plane)', noExpansionMonitors],
    ]);
    const expansion = readNumericCsv(
      'time (s),plane_1 device_diameter (mm),plane_1 ovality,plane_2 device_diameter (mm),plane_2 ovality,' +
        'max contact_pressure (Pa),max contact_pressure (mmHg),total contact_force (N)\n' +
        '0,20,0,20,0,0,0,0\n0.001,23.5,0.02,24,0.01,2666.4,20,1.5\n',
    );
    const [, contact, pressure, lineLoad, diameter] = predefinedPlots('solid', expansion, timeline);
    expect(contact!.unavailable).toBeUndefined();
    expect(lineLoad!.unavailable).toBe(noLineLoad); // a run from before the line load was recorded
    const withLineLoad = readNumericCsv(
      'time (s),mean line_load (N/mm),total contact_force (N)\n0,0,0\n0.001,0.15,1.5\n',
    );
    expect(predefinedPlots('solid', withLineLoad, timeline)[3]!.lines.map((l) => l.data)).toEqual([[0, 0.15]]);
    expect(contact!.lines.map((l) => l.data)).toEqual([[0, 1.5]]);
    expect(pressure!.lines.map((l) => l.data)).toEqual([[0, 20]]);
    expect(diameter!.lines.map((l) => l.data)).toEqual([
      [20, 23.5],
      [20, 24],
    ]);
  });

  it('writes a particle over time as CSV with units in the headers and empty cells where it is absent', () => {
    const timeline: SimulationTimeline = {
      object: 'blood',
      times: [0, 0.001],
      outputs: [
        { name: 'position_x', label: 'Position x', unit: 'mm' },
        { name: 'pressure', label: 'Pressure', unit: 'Pa' },
        { name: 'captured', label: 'Captured', unit: '' },
      ],
      stats: {},
      particles: [
        { particle: 4, name: 'Leader', values: { position_x: [1.5, null], pressure: [10, null], captured: [0, null] } },
      ],
    };
    expect(particleCsv(timeline, 4)).toBe(
      'Timestep,Time (s),Position x (mm),Pressure (Pa),Captured\n1,0,1.5,10,0\n2,0.001,,,\n',
    );
    expect(() => particleCsv(timeline, 5)).toThrow('The timeline has no particle 5.');
    expect(particleCsvName('Fluid 1', 'blood', 'Leader / 2')).toBe('Fluid-1-blood-Leader-2.csv');
  });
});
