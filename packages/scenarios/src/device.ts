import { boundingBox, enclosedVolume_mm3, type TriangleMesh, type Vec3 } from '@insilico/mesh';

/** A room placement: position (mm, patient frame), unit quaternion [x, y, z, w], scale per axis (as in rooms). */
export interface PlacementTransform {
  readonly position: readonly [number, number, number];
  readonly quaternion: readonly [number, number, number, number];
  readonly scale: readonly [number, number, number];
}

/** A device version placed in the room: its STL meshes (mm, device frame) and where it sits. */
export interface PlacedDevice {
  /** The version's name, for messages. */
  readonly name: string;
  readonly transform: PlacementTransform;
  readonly meshes: readonly TriangleMesh[];
}

/** p ↦ position + R(q)·(scale ⊙ p), the scene's order (three.js: scale, then rotate, then translate). */
export function placePoint(t: PlacementTransform, p: Vec3): Vec3 {
  const [qx, qy, qz, qw] = t.quaternion;
  const n = Math.hypot(qx, qy, qz, qw);
  const [x, y, z, w] = [qx / n, qy / n, qz / n, qw / n];
  const sx = p[0] * t.scale[0];
  const sy = p[1] * t.scale[1];
  const sz = p[2] * t.scale[2];
  // v' = v + 2w (q × v) + 2 q × (q × v)
  const cx = y * sz - z * sy;
  const cy = z * sx - x * sz;
  const cz = x * sy - y * sx;
  return [
    t.position[0] + sx + 2 * (w * cx + y * cz - z * cy),
    t.position[1] + sy + 2 * (w * cy + z * cx - x * cz),
    t.position[2] + sz + 2 * (w * cz + x * cy - y * cx),
  ];
}

/** The device's meshes joined into one, placed in the patient frame (mm). */
export function placedMesh(device: PlacedDevice): TriangleMesh {
  const vertices = device.meshes.reduce((n, m) => n + m.positions.length / 3, 0);
  const triangles = device.meshes.reduce((n, m) => n + m.indices.length / 3, 0);
  const positions = new Float64Array(3 * vertices);
  const indices = new Uint32Array(3 * triangles);
  let v = 0;
  let t = 0;
  // A mirroring scale (an odd number of negative factors) would turn the triangles inside out; scales are positive.
  for (const m of device.meshes) {
    for (let i = 0; i < m.positions.length; i += 3) {
      const q = placePoint(device.transform, [m.positions[i]!, m.positions[i + 1]!, m.positions[i + 2]!]);
      positions.set(q, 3 * v + i);
    }
    for (let k = 0; k < m.indices.length; k++) indices[t + k] = m.indices[k]! + v;
    v += m.positions.length / 3;
    t += m.indices.length;
  }
  return { positions, indices };
}

/** Volume (mm³) and bounding box of a placed mesh. */
export function deviceExtent(mesh: TriangleMesh): { volume_mm3: number; min: Vec3; max: Vec3 } {
  const box = boundingBox(mesh.positions);
  return { volume_mm3: Math.abs(enclosedVolume_mm3(mesh)), min: box.min, max: box.max };
}
