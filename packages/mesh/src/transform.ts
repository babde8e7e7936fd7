import type { PositionArray, Vec3 } from './types';

/** Rigid motion x ↦ R·x + t: `rotation` row-major 3×3 (orthonormal, det +1), `translation` mm. */
export interface RigidTransform {
  readonly rotation: readonly [number, number, number, number, number, number, number, number, number];
  readonly translation: Vec3;
}

/**
 * Applies a rigid transform in place to packed xyz positions (mm) and returns them. A proper rotation keeps
 * lengths, areas, volumes and the orientation of triangles.
 */
export function transformPositions<T extends PositionArray>(positions: T, transform: RigidTransform): T {
  const [r00, r01, r02, r10, r11, r12, r20, r21, r22] = transform.rotation;
  const [tx, ty, tz] = transform.translation;
  for (let i = 0; i < positions.length; i += 3) {
    const x = positions[i] as number;
    const y = positions[i + 1] as number;
    const z = positions[i + 2] as number;
    positions[i] = r00 * x + r01 * y + r02 * z + tx;
    positions[i + 1] = r10 * x + r11 * y + r12 * z + ty;
    positions[i + 2] = r20 * x + r21 * y + r22 * z + tz;
  }
  return positions;
}
