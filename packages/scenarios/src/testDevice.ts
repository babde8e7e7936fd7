import type { TriangleMesh } from '@insilico/mesh';
import type { SimulatedRegion } from './region';
import type { PlacementTransform } from './device';
import { snapTransform } from './placementRule';

/**
 * A closed ring (torus) in the device frame, mm, about the z axis: a stand-in for a valve frame in tests and demos
 * (outward-oriented, watertight).
 */
export function ringDeviceMesh(majorRadius: number, minorRadius: number, segments = 32, sides = 12): TriangleMesh {
  const positions = new Float64Array(3 * segments * sides);
  const indices = new Uint32Array(6 * segments * sides);
  for (let i = 0; i < segments; i++) {
    const a = (2 * Math.PI * i) / segments;
    for (let j = 0; j < sides; j++) {
      const b = (2 * Math.PI * j) / sides;
      const r = majorRadius + minorRadius * Math.cos(b);
      positions.set([r * Math.cos(a), r * Math.sin(a), minorRadius * Math.sin(b)], 3 * (i * sides + j));
    }
  }
  let t = 0;
  for (let i = 0; i < segments; i++) {
    for (let j = 0; j < sides; j++) {
      const p = i * sides + j;
      const q = ((i + 1) % segments) * sides + j;
      const pn = i * sides + ((j + 1) % sides);
      const qn = ((i + 1) % segments) * sides + ((j + 1) % sides);
      indices.set([p, q, qn, p, qn, pn], t);
      t += 6;
    }
  }
  return { positions, indices };
}

/** The placement that puts a device frame's origin at the annulus centre with its z axis along the root axis. */
export function annulusPlacement(region: Pick<SimulatedRegion, 'annulus' | 'axis'>, lift_mm = 0): PlacementTransform {
  return snapTransform(region.annulus, region.axis, lift_mm);
}
