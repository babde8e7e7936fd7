import { describe, expect, it } from 'vitest';
import { ParticleArrays } from './particles';

describe('ParticleArrays', () => {
  it('stores fields as Float64Arrays on SharedArrayBuffers', () => {
    const p = new ParticleArrays(3, 4);
    expect(p.x).toBeInstanceOf(Float64Array);
    expect(p.x.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(p.id.buffer).toBeInstanceOf(SharedArrayBuffer);
    const buffers = p.buffers();
    expect(buffers.rho).toBe(p.rho.buffer);
    expect(Object.keys(buffers).length).toBe(21);
  });

  it('adds particles with mass = density × volume and refuses past capacity', () => {
    const p = new ParticleArrays(2, 2);
    expect(p.add(1, 2, 3, 0.01, 1000)).toBe(0);
    expect(p.z[0]).toBe(0);
    expect(p.mass[0]).toBeCloseTo(10, 12);
    p.add(0, 0, 0, 0.01, 1000);
    expect(p.count).toBe(2);
    expect(() => p.add(0, 0, 0, 0.01, 1000)).toThrow(RangeError);
  });
});
