import { enclosedVolume_mm3, type Vec3, type TriangleMesh64 } from '@insilico/mesh';

/** Scales packed positions (mm) in place about `centre` (mm) by `factor` (dimensionless). */
export function scaleAbout(positions: Float64Array, centre: Vec3, factor: number): void {
  const [cx, cy, cz] = centre;
  for (let i = 0; i < positions.length; i += 3) {
    positions[i] = cx + factor * ((positions[i] as number) - cx);
    positions[i + 1] = cy + factor * ((positions[i + 1] as number) - cy);
    positions[i + 2] = cz + factor * ((positions[i + 2] as number) - cz);
  }
}

/**
 * Scales a closed mesh in place about `centre` (mm) so that its measured enclosed volume equals `volume_mm3`:
 * volume is homogeneous of degree 3, so one step with ∛(target/measured) is exact. Returns the factor applied.
 */
export function scaleToVolume(mesh: TriangleMesh64, centre: Vec3, volume_mm3: number): number {
  const measured = enclosedVolume_mm3(mesh);
  if (!(measured > 0) || !(volume_mm3 > 0)) throw new RangeError('scaleToVolume: volumes must be positive');
  const factor = Math.cbrt(volume_mm3 / measured);
  scaleAbout(mesh.positions, centre, factor);
  return factor;
}
