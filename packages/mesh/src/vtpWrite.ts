import type { TriangleMesh } from './types';

/** A per-vertex array written as VTK point data: `components` values per vertex, vertex after vertex. */
export interface VtpPointData {
  name: string;
  components: 1 | 3;
  values: ArrayLike<number>;
}

/**
 * A triangle mesh as ParaView/VTK XML PolyData (`.vtp`, ASCII, version 0.1): the vertices as Points (Float64, in
 * the mesh's unit), every triangle as a Poly (connectivity and offsets, Int64), and optional point data (a mode's
 * displacement, say). Numbers are written in JavaScript's shortest round-trip form, so reading the file back gives
 * the same doubles. The mesh is not checked: indices must name vertices.
 */
export function writeVtpPolyData(mesh: TriangleMesh, pointData: readonly VtpPointData[] = []): string {
  const points = mesh.positions.length / 3;
  const triangles = mesh.indices.length / 3;
  for (const data of pointData)
    if (data.values.length !== points * data.components)
      throw new Error(`Point data ${data.name} has ${data.values.length} values for ${points} vertices.`);
  const join = (values: ArrayLike<number>) => Array.from(values, (v) => String(v)).join(' ');
  const offsets = Array.from({ length: triangles }, (_, t) => String(3 * (t + 1))).join(' ');
  const arrays = pointData
    .map(
      (data) =>
        `        <DataArray type="Float64" Name="${escapeXml(data.name)}" NumberOfComponents="${data.components}" format="ascii">${join(data.values)}</DataArray>`,
    )
    .join('\n');
  return [
    '<?xml version="1.0"?>',
    '<VTKFile type="PolyData" version="0.1" byte_order="LittleEndian" header_type="UInt64">',
    '  <PolyData>',
    `    <Piece NumberOfPoints="${points}" NumberOfVerts="0" NumberOfLines="0" NumberOfStrips="0" NumberOfPolys="${triangles}">`,
    '      <Points>',
    `        <DataArray type="Float64" Name="Points" NumberOfComponents="3" format="ascii">${join(mesh.positions)}</DataArray>`,
    '      </Points>',
    pointData.length > 0 ? `      <PointData>\n${arrays}\n      </PointData>` : '      <PointData/>',
    '      <Polys>',
    `        <DataArray type="Int64" Name="connectivity" format="ascii">${join(mesh.indices)}</DataArray>`,
    `        <DataArray type="Int64" Name="offsets" format="ascii">${offsets}</DataArray>`,
    '      </Polys>',
    '    </Piece>',
    '  </PolyData>',
    '</VTKFile>',
    '',
  ].join('\n');
}

function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
