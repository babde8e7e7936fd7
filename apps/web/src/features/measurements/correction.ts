/** A plane landmark as the landmarks API gives it (mm, patient frame; unit normal and in-plane major axis). */
export interface PlaneLandmark {
  position: readonly [number, number, number];
  normal?: readonly [number, number, number] | undefined;
  axis?: readonly [number, number, number] | undefined;
}

type V = [number, number, number];

/**
 * A plane landmark moved by hand: raised `raise_mm` along its normal and tilted `tilt_deg` about its in-plane
 * axis (Rodrigues' rotation; the axis is perpendicular to the normal, so n' = n cos θ + (a × n) sin θ).
 * Null for a landmark without a plane.
 */
export function movedPlane(
  landmark: PlaneLandmark,
  raise_mm: number,
  tilt_deg: number,
): { position: V; normal: V } | null {
  const n = landmark.normal;
  if (!n) return null;
  const a = landmark.axis ?? perpendicular(n);
  const t = (tilt_deg * Math.PI) / 180;
  const axn: V = [a[1] * n[2] - a[2] * n[1], a[2] * n[0] - a[0] * n[2], a[0] * n[1] - a[1] * n[0]];
  const normal: V = [0, 1, 2].map((i) => n[i]! * Math.cos(t) + axn[i]! * Math.sin(t)) as V;
  const position: V = [0, 1, 2].map((i) => landmark.position[i]! + raise_mm * n[i]!) as V;
  return { position, normal };
}

/** A unit vector perpendicular to n (for a plane landmark without an axis). */
function perpendicular(n: readonly [number, number, number]): V {
  const c: V = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0];
  const d = c[0] * n[0] + c[1] * n[1] + c[2] * n[2];
  const p: V = [c[0] - d * n[0], c[1] - d * n[1], c[2] - d * n[2]];
  const l = Math.hypot(...p);
  return [p[0] / l, p[1] / l, p[2] / l];
}
