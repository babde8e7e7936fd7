import { describe, expect, it } from 'vitest';
import { writeVtpPolyData } from './vtpWrite';

/** The numbers of a DataArray by name, read back from the XML text. */
function array(xml: string, name: string): number[] {
  const match = new RegExp(`<DataArray[^>]*Name="${name}"[^>]*>([^<]*)</DataArray>`).exec(xml);
  if (!match) throw new Error(`no array ${name}`);
  return match[1]!.trim().split(/\s+/).map(Number);
}

describe('VTP writer', () => {
  // A tetrahedron: 4 vertices, 4 triangles.
  const mesh = {
    positions: Float64Array.from([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 / 3]),
    indices: Uint32Array.from([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]),
  };

  it('writes the points and triangles that read back exactly, with VTK’s offsets', () => {
    const xml = writeVtpPolyData(mesh);
    expect(xml).toContain(
      '<Piece NumberOfPoints="4" NumberOfVerts="0" NumberOfLines="0" NumberOfStrips="0" NumberOfPolys="4">',
    );
    expect(array(xml, 'Points')).toEqual([...mesh.positions]);
    expect(array(xml, 'connectivity')).toEqual([...mesh.indices]);
    expect(array(xml, 'offsets')).toEqual([3, 6, 9, 12]);
    expect(xml.startsWith('<?xml version="1.0"?>\n<VTKFile type="PolyData"')).toBe(true);
  });

  it('adds point data by name, escaped, and refuses a wrong length', () => {
    const values = [0, 0, 0, 0.5, 0, 0, 0, 0.5, 0, 0, 0, 0.25];
    const xml = writeVtpPolyData(mesh, [{ name: 'displacement "mm"', components: 3, values }]);
    expect(xml).toContain('Name="displacement &quot;mm&quot;" NumberOfComponents="3"');
    expect(() => writeVtpPolyData(mesh, [{ name: 'x', components: 1, values: [1, 2] }])).toThrow(
      'Point data x has 2 values for 4 vertices.',
    );
  });
});
