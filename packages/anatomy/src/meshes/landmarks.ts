import type { Vec3 } from '@insilico/mesh';

/** Named landmarks returned with a patient's meshes (patient frame, mm). */
export const LANDMARKS = [
  'aortic_annulus',
  'mitral_annulus',
  'tricuspid_annulus',
  'pulmonary_annulus',
  'lvot',
  'sinus_of_valsalva',
  'sinotubular_junction',
  'ascending_aorta',
  'right_coronary_sinus',
  'left_coronary_sinus',
  'non_coronary_sinus',
  'left_coronary_ostium',
  'right_coronary_ostium',
  'lv_apex',
  'lv_apex_endocardial',
  'lv_base',
] as const;
/** A landmark name. */
export type LandmarkName = (typeof LANDMARKS)[number];

/**
 * A landmark: a point (mm, patient frame) and, for planes (annuli, measurement levels), the unit plane normal.
 * Annulus normals point downstream (aortic and pulmonary: into the artery; mitral and tricuspid: into the atrium,
 * i.e. away from the ventricle). Sinus landmarks are the deepest points of each sinus at the sinus level.
 */
export interface Landmark {
  readonly name: LandmarkName;
  readonly position: Vec3;
  readonly normal?: Vec3;
  /**
   * For the annuli, the unit in-plane axis of the major diameter (aortic: major axis; mitral: inter-commissural;
   * tricuspid and pulmonary: a reference direction of the circle).
   */
  readonly axis?: Vec3;
}
