import type { TriangleMesh, Vec3 } from '@insilico/mesh';
import type { Plane } from './plane';
import {
  chordExtremes,
  chordThrough,
  polygonCentroid,
  polygonContains,
  polygonPerimeter,
  polygonSignedArea,
} from './polygon';
import { sectionMesh, type SectionContour } from './section';
import { dot, sub } from './vec3';

/** What a CT reader reports of one lumen section (mm, mm²). */
export interface SectionMeasures {
  readonly area_mm2: number;
  readonly perimeter_mm: number;
  /** Shortest and longest chord through the section's area centroid. */
  readonly minDiameter_mm: number;
  readonly maxDiameter_mm: number;
  /** (min + max) / 2. */
  readonly meanDiameter_mm: number;
  /** 2·√(area/π): the diameter of the circle of the same area. */
  readonly areaDiameter_mm: number;
  /** perimeter/π: the diameter of the circle of the same perimeter. */
  readonly perimeterDiameter_mm: number;
  /** Area centroid of the section, mm, in 3D. */
  readonly centroid: Vec3;
}

/** Why a section could not be measured. */
export type SectionFailure = 'misses' | 'open' | 'outside';

/** A section's contour with its 3D frame, as chosen by {@link lumenSection}. */
export interface LumenSection {
  readonly contour: SectionContour;
  readonly plane: Plane;
  readonly u: Vec3;
  readonly v: Vec3;
  readonly centroid2d: readonly [number, number];
}

/**
 * The lumen of `mesh` cut by `plane` around the plane's point: of the closed, counter-clockwise (outer) contours
 * that contain the point, the smallest (the innermost lumen wall around it). Fails with 'misses' when the plane
 * does not cut the mesh, 'open' when the only contours around the point are broken (open or unwelded mesh),
 * 'outside' when no contour holds the point.
 */
export function lumenSection(mesh: TriangleMesh, plane: Plane, hint?: Vec3): LumenSection | SectionFailure {
  const section = sectionMesh(mesh, plane, hint);
  if (section.contours.length === 0) return 'misses';
  let best: SectionContour | undefined;
  let bestArea = Infinity;
  let broken = false;
  for (const contour of section.contours) {
    if (contour.points.length < 6 || !polygonContains(contour.points, 0, 0)) continue;
    if (!contour.closed) {
      broken = true;
      continue;
    }
    const area = polygonSignedArea(contour.points);
    if (area > 0 && area < bestArea) [best, bestArea] = [contour, area];
  }
  if (best === undefined) return broken ? 'open' : 'outside';
  return { contour: best, plane, u: section.u, v: section.v, centroid2d: polygonCentroid(best.points) };
}

/** Area, perimeter and the five diameters of a lumen section (see {@link SectionMeasures}). */
export function measureLumen(lumen: LumenSection): SectionMeasures {
  const xy = lumen.contour.points;
  const area = polygonSignedArea(xy);
  const perimeter = polygonPerimeter(xy);
  const [cx, cy] = lumen.centroid2d;
  const { min_mm, max_mm } = chordExtremes(xy, cx, cy);
  const { point } = lumen.plane;
  const { u, v } = lumen;
  return {
    area_mm2: area,
    perimeter_mm: perimeter,
    minDiameter_mm: min_mm,
    maxDiameter_mm: max_mm,
    meanDiameter_mm: (min_mm + max_mm) / 2,
    areaDiameter_mm: 2 * Math.sqrt(area / Math.PI),
    perimeterDiameter_mm: perimeter / Math.PI,
    centroid: [point[0] + cx * u[0] + cy * v[0], point[1] + cx * u[1] + cy * v[1], point[2] + cx * u[2] + cy * v[2]],
  };
}

/**
 * The chord (mm) of a lumen section through its centroid in the direction of `towards` (projected into the plane):
 * e.g. a sinus of Valsalva diameter, from the sinus's deepest point through the centre to the opposite commissure.
 * NaN when `towards` projects onto the centroid or the line leaves the section.
 */
export function chordTowards(lumen: LumenSection, towards: Vec3): number {
  const rel = sub(towards, lumen.plane.point);
  const x = dot(rel, lumen.u) - lumen.centroid2d[0];
  const y = dot(rel, lumen.v) - lumen.centroid2d[1];
  if (Math.hypot(x, y) < 1e-9) return Number.NaN;
  return chordThrough(lumen.contour.points, lumen.centroid2d[0], lumen.centroid2d[1], Math.atan2(y, x));
}
