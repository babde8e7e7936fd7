/** The organ meshes of a patient, in the order they are built and serialised. */

/** Organ keys; every mesh is closed and outward-oriented, in mm in the patient frame. */
export const ORGANS = [
  'lv_blood_pool',
  'lv_myocardium',
  'rv_blood_pool',
  'la_blood_pool',
  'ra_blood_pool',
  'aortic_root',
  'aortic_annulus',
  'mitral_annulus',
  'tricuspid_annulus',
  'pulmonary_annulus',
  'rib_cage',
  'left_lung',
  'right_lung',
] as const;
/** An organ mesh key. */
export type Organ = (typeof ORGANS)[number];

/** Number of rib hoops of the simplified rib cage (each a closed tube, a torus). */
export const RIB_COUNT = 10;

/**
 * Euler characteristic V − E + F each organ mesh must have: 2 for a single sphere-like closed surface; the rib cage is
 * RIB_COUNT separate tori, 0 each.
 */
export function expectedEulerCharacteristic(organ: Organ): number {
  return organ === 'rib_cage' ? 0 : 2;
}
