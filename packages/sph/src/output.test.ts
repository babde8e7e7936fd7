import { describe, expect, it } from 'vitest';
import { buildManifest, encodeFrame, fluidOutput, frameLayout, readColumn } from './output';
import { ParticleArrays } from './particles';

function sample(): ParticleArrays {
  const p = new ParticleArrays(2, 3);
  for (let i = 0; i < 3; i++) {
    p.add(0.001 * (i + 1), 0.002 * (i + 1), 0, 1e-6, 1000);
    p.vx[i] = 0.5 * i;
    p.vy[i] = -0.25;
    p.p[i] = 133.322387415 * i;
  }
  return p;
}

describe('binary columnar output', () => {
  it('lays columns back to back with spec §9 labels and units', () => {
    const columns = frameLayout(3, 2, 'fluid');
    expect(columns.map((c) => [c.name, c.label, c.unit, c.components])).toEqual([
      ['particle_id', 'Particle Id', '', 1],
      ['position', 'Position', 'mm', 2],
      ['velocity', 'Velocity', 'm/s', 2],
      ['pressure', 'Pressure', 'Pa', 1],
      ['density', 'Density', 'kg/m²', 1],
    ]);
    for (let c = 1; c < columns.length; c++) {
      expect(columns[c]!.offset).toBe(columns[c - 1]!.offset + columns[c - 1]!.byteLength);
    }
  });

  it('round-trips values converted into the manifest units', () => {
    const p = sample();
    const frame = encodeFrame(fluidOutput(p), 'fluid');
    const [ids, position, velocity, pressure, density] = frame.columns.map((c) => readColumn(frame.bytes, c));
    expect(Array.from(ids!)).toEqual([0, 1, 2]);
    // position in mm, component-major: x of all particles, then y.
    expect(Array.from(position!)).toEqual([1, 2, 3, 2, 4, 6].map((v) => Math.fround(v)));
    expect(velocity![1]).toBeCloseTo(0.5, 6);
    expect(velocity![3]).toBeCloseTo(-0.25, 6);
    expect(pressure![2]).toBeCloseTo(266.644775, 3);
    expect(density![0]).toBe(1000);
    expect(frame.bytes.byteLength).toBe(3 * 4 * (1 + 2 + 2 + 1 + 1));
  });

  it('builds a JSON manifest naming objects, timesteps and columns', () => {
    const p = sample();
    const manifest = buildManifest([{ name: 'blood', kind: 'fluid', particles: p }], [0, 0.01]);
    const json = JSON.parse(JSON.stringify(manifest)) as typeof manifest;
    expect(json.timesteps).toEqual([
      { index: 0, time: 0 },
      { index: 1, time: 0.01 },
    ]);
    expect(json.objects[0]!.particleCount).toBe(3);
    expect(json.objects[0]!.frameFile).toBe('blood/{step}.bin');
    expect(json.objects[0]!.columns).toEqual(encodeFrame(fluidOutput(p), 'fluid').columns);
  });
});
