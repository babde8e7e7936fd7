import type { RigidTransform, Vec3 } from '@insilico/mesh';
import { cross, normalize } from './localFrame';
import type { ThoraxSize } from './thorax';

/**
 * The heart frame in which the cardiac meshes are built, and its placement in the patient frame.
 *
 * Patient frame: LPS as in DICOM (x to the patient's left, y posterior, z superior), mm, origin at the centre of
 * the rib cage. Heart frame: origin at the centre of the LV base plane, z along the LV long axis from the apex to
 * the base (towards the right shoulder, posterior and up), x towards the right ventricle (right-anterior),
 * y = z × x (left-anterior-superior).
 */

/** Heart z (apex → base) in the patient frame: rightwards, posterior, up (≈ 40° from the body axis). */
const Z_AXIS: Vec3 = normalize([-0.5, 0.4, 0.75]);
const X_HINT: Vec3 = [-0.75, -0.66, 0];
const d = X_HINT[0] * Z_AXIS[0] + X_HINT[1] * Z_AXIS[1] + X_HINT[2] * Z_AXIS[2];
const X_AXIS: Vec3 = normalize([X_HINT[0] - d * Z_AXIS[0], X_HINT[1] - d * Z_AXIS[1], X_HINT[2] - d * Z_AXIS[2]]);
const Y_AXIS: Vec3 = cross(Z_AXIS, X_AXIS);

/**
 * Rigid transform heart frame → patient frame for a thorax of `size`: the LV base centre sits left of the midline,
 * anterior and below the rib-cage centre (fractions of the thorax dimensions, ours).
 */
export function heartToPatient(size: ThoraxSize): RigidTransform {
  return {
    // prettier-ignore
    rotation: [
      X_AXIS[0], Y_AXIS[0], Z_AXIS[0],
      X_AXIS[1], Y_AXIS[1], Z_AXIS[1],
      X_AXIS[2], Y_AXIS[2], Z_AXIS[2],
    ],
    translation: [0.12 * size.halfWidth_mm, -0.12 * size.halfDepth_mm, -0.12 * size.height_mm],
  };
}

/** Applies a rigid transform to a point (mm). */
export function transformPoint(t: RigidTransform, p: Vec3): Vec3 {
  const [r00, r01, r02, r10, r11, r12, r20, r21, r22] = t.rotation;
  return [
    r00 * p[0] + r01 * p[1] + r02 * p[2] + t.translation[0],
    r10 * p[0] + r11 * p[1] + r12 * p[2] + t.translation[1],
    r20 * p[0] + r21 * p[1] + r22 * p[2] + t.translation[2],
  ];
}

/** Applies the rotation of a rigid transform to a direction (unitless). */
export function rotateDirection(t: RigidTransform, v: Vec3): Vec3 {
  const [r00, r01, r02, r10, r11, r12, r20, r21, r22] = t.rotation;
  return [
    r00 * v[0] + r01 * v[1] + r02 * v[2],
    r10 * v[0] + r11 * v[1] + r12 * v[2],
    r20 * v[0] + r21 * v[1] + r22 * v[2],
  ];
}
