import { Raycaster, type Camera, type Object3D, type Vector2 } from 'three';

/**
 * The particle under the pointer (issue 16 item 6: particles chosen by picking in 3D): a ray from the camera through
 * the pointer (normalised device coordinates, −1…1) against the visible point clouds, each named by its object; a
 * point within `threshold` (the clouds' own units, the patient frame's mm: a point's radius) of the ray is hit, the
 * nearest along the ray wins. Answers the object and the particle's id (`ids` by object, in the clouds' point order),
 * or null.
 */
export function pickParticle(
  clouds: readonly Object3D[],
  ids: ReadonlyMap<string, Int32Array>,
  camera: Camera,
  pointer: Vector2,
  threshold: number,
): { object: string; particle: number } | null {
  const raycaster = new Raycaster();
  raycaster.params.Points = { threshold };
  raycaster.setFromCamera(pointer, camera);
  const hit = raycaster.intersectObjects(
    clouds.filter((cloud) => cloud.visible),
    false,
  )[0];
  if (!hit || hit.index === undefined) return null;
  const particle = ids.get(hit.object.name)?.[hit.index];
  return particle === undefined ? null : { object: hit.object.name, particle };
}
