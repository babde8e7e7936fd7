import { loftIndices, loftRingVertex, loftVertexCount, type LoftOptions, type TriangleMesh } from '@insilico/mesh';

/**
 * The STL benchmarks' test part: a closed, bumpy sphere (radius 20 mm ± 5 %), 500 rings × 1000 around: exactly
 * 1,000,000 triangles (2 · rings · around), written in loft order (consecutive triangles share corners, as exporters
 * write them). Smaller or larger parts: other ring counts (the API test of jobs off the event loop uses 200 × 500).
 */
export function bumpySphere(options: LoftOptions = { ringCount: 500, ringSize: 1000 }): TriangleMesh {
  const positions = new Float64Array(loftVertexCount(options) * 3);
  const radius = (theta: number, phi: number): number => 20 * (1 + 0.05 * Math.sin(5 * theta) * Math.cos(7 * phi));
  positions.set([0, 0, -20], 0);
  for (let r = 0; r < options.ringCount; r++) {
    const theta = (Math.PI * (r + 1)) / (options.ringCount + 1);
    for (let i = 0; i < options.ringSize; i++) {
      const phi = (2 * Math.PI * i) / options.ringSize;
      const rho = radius(theta, phi);
      const v = loftRingVertex(options, r, i) * 3;
      positions[v] = rho * Math.sin(theta) * Math.cos(phi);
      positions[v + 1] = rho * Math.sin(theta) * Math.sin(phi);
      positions[v + 2] = -rho * Math.cos(theta);
    }
  }
  positions.set([0, 0, 20], positions.length - 3);
  return { positions, indices: loftIndices(options) };
}
