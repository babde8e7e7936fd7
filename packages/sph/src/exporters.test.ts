import { describe, expect, it } from 'vitest';
import { frameToCsv, frameToVtp } from './exporters';
import { encodeFrame, fluidOutput } from './output';
import { ParticleArrays } from './particles';

function fluid(): ParticleArrays {
  const p = new ParticleArrays(2, 3);
  for (let i = 0; i < 3; i++) {
    p.add(0.001 * (i + 1), -0.002 * i, 0, 1e-6, 1000 + i);
    p.vx[i] = 0.25 * i;
    p.vy[i] = -1.5;
    p.p[i] = 100.5 * i;
  }
  return p;
}

/** The DataArray elements of a VTP document: name, attributes and numbers. */
function dataArrays(xml: string): Map<string, { components: number; type: string; values: number[] }> {
  const out = new Map<string, { components: number; type: string; values: number[] }>();
  for (const m of xml.matchAll(/<DataArray ([^>]*)>([^<]*)<\/DataArray>/g)) {
    const attrs = Object.fromEntries(Array.from(m[1]!.matchAll(/(\w+)="([^"]*)"/g), (a) => [a[1]!, a[2]!]));
    out.set(attrs.Name!, {
      components: Number(attrs.NumberOfComponents ?? 1),
      type: attrs.type!,
      values: m[2]!.trim().split(/\s+/).map(Number),
    });
  }
  return out;
}

describe('exporters', () => {
  it('VTP: points in mm padded to 3D, one vertex per particle, point data named with units', () => {
    const frame = encodeFrame(fluidOutput(fluid()), 'fluid');
    const xml = frameToVtp(frame.bytes, frame.columns, 0.25);
    expect(xml).toMatch(/^<\?xml version="1.0"\?>\n<VTKFile type="PolyData"/);
    expect(xml).toContain('NumberOfPoints="3" NumberOfVerts="3"');
    const arrays = dataArrays(xml);
    expect(arrays.get('TimeValue')!.values).toEqual([0.25]);
    expect(arrays.get('Position (mm)')!.values).toEqual([1, 0, 0, 2, -2, 0, 3, -4, 0]);
    expect(arrays.get('connectivity')!.values).toEqual([0, 1, 2]);
    expect(arrays.get('offsets')!.values).toEqual([1, 2, 3]);
    expect(arrays.get('Particle Id')).toEqual({ components: 1, type: 'Int32', values: [0, 1, 2] });
    expect(arrays.get('Velocity (m/s)')).toEqual({
      components: 3,
      type: 'Float32',
      values: [0, -1.5, 0, 0.25, -1.5, 0, 0.5, -1.5, 0],
    });
    expect(arrays.get('Pressure (Pa)')!.values).toEqual([0, 100.5, 201]);
    expect(arrays.get('Density (kg/m²)')!.values).toEqual([1000, 1001, 1002]);
    // Every XML element that opens is closed.
    const opened = xml.match(/<[A-Za-z]\w*(?:\s[^>]*)?(?<!\/)>/g)!.length;
    expect(xml.match(/<\/\w+>/g)!.length).toBe(opened);
  });

  it('CSV: a header of labels, axes and units, then one row per particle', () => {
    const frame = encodeFrame(fluidOutput(fluid()), 'fluid');
    const lines = frameToCsv(frame.bytes, frame.columns).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'Particle Id,Position X (mm),Position Y (mm),Velocity X (m/s),Velocity Y (m/s),Pressure (Pa),Density (kg/m²)',
    );
    expect(lines).toHaveLength(4);
    expect(lines.slice(1).map((l) => l.split(',').map(Number))).toEqual([
      [0, 1, 0, 0, -1.5, 0, 1000],
      [1, 2, -2, 0.25, -1.5, 100.5, 1001],
      [2, 3, -4, 0.5, -1.5, 201, 1002],
    ]);
  });

  it('writes float32 values that read back exactly and refuses a layout without ids', () => {
    const p = fluid();
    p.vx[1] = 0.1;
    const frame = encodeFrame(fluidOutput(p), 'fluid');
    const row = frameToCsv(frame.bytes, frame.columns).split('\r\n')[2]!.split(',');
    expect(Math.fround(Number(row[3]))).toBe(Math.fround(0.1));
    expect(() => frameToCsv(frame.bytes, frame.columns.slice(1))).toThrow(/particle_id/);
  });

  it('CSV: negative values stay plain numbers (no formula guard on numbers) and NaN stays visible', () => {
    const p = fluid();
    p.p[0] = Number.NaN;
    const frame = encodeFrame(fluidOutput(p), 'fluid');
    const lines = frameToCsv(frame.bytes, frame.columns).split('\r\n');
    expect(lines[1]).toBe('0,1,0,0,-1.5,NaN,1000');
    expect(lines[2]).toBe('1,2,-2,0.25,-1.5,100.5,1001');
  });
});
