/** STL files the journeys upload (made here, so no binary fixture is checked in). */

/** A 10 mm cube: 8 corners, 12 outward triangles. */
const corners = [
  [0, 0, 0],
  [10, 0, 0],
  [10, 10, 0],
  [0, 10, 0],
  [0, 0, 10],
  [10, 0, 10],
  [10, 10, 10],
  [0, 10, 10],
] as const;
// prettier-ignore
const triangles = [[0, 2, 1], [0, 3, 2], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4], [2, 3, 7], [2, 7, 6], [1, 2, 6], [1, 6, 5], [0, 4, 7], [0, 7, 3]];

export function binaryCube(): Buffer {
  const bytes = Buffer.alloc(84 + 50 * triangles.length);
  bytes.write('binary cube', 0, 'ascii');
  bytes.writeUInt32LE(triangles.length, 80);
  triangles.forEach((triangle, t) => {
    triangle.forEach((corner, k) =>
      corners[corner]!.forEach((value, axis) => bytes.writeFloatLE(value, 84 + 50 * t + 12 + 12 * k + 4 * axis)),
    );
  });
  return bytes;
}

export function asciiCube(): Buffer {
  const lines = ['solid cube'];
  for (const triangle of triangles) {
    lines.push('facet normal 0 0 0', 'outer loop');
    for (const corner of triangle) lines.push(`vertex ${corners[corner]!.join(' ')}`);
    lines.push('endloop', 'endfacet');
  }
  lines.push('endsolid cube', '');
  return Buffer.from(lines.join('\n'));
}
