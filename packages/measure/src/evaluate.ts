import type { Landmark, LandmarkName, Organ, PatientMeshes } from '@insilico/anatomy';
import { enclosedVolume_mm3, type TriangleMesh, type Vec3 } from '@insilico/mesh';
import type { BodyPlane, MeasurementDefinition, MeasurementGeometry, PlaneRef, PointRef } from './definitions';
import { MIN_PLANE_SPREAD_MM, offsetPlane, signedDistanceToPlane, threePointPlane, type Plane } from './plane';
import { angleAt_deg, curveLength_mm, planeAngle_deg } from './primitives';
import { chordTowards, lumenSection, measureLumen, type LumenSection, type SectionMeasures } from './sectionMeasures';
import { transferSurfacePoint, type SurfacePoint } from './surface';
import { distance, isFiniteVec, unit } from './vec3';

/** A landmark placed by hand on one patient: its position and, for plane landmarks, the plane's normal. */
export interface LandmarkCorrection {
  readonly position: Vec3;
  readonly normal?: Vec3;
}

/** Per-patient corrections: landmarks moved (or planes tilted) by hand, replacing the automatic ones. */
export type LandmarkCorrections = Partial<Record<LandmarkName, LandmarkCorrection>>;

/** One measurement on one patient: a value in the definition's unit, or the reason it could not be taken. */
export type MeasurementOutcome = { readonly value: number } | { readonly failure: string };

/** Why a measurement could not be taken; the message is shown to users beside the patient. */
class MeasurementFailure extends Error {}

const BODY_NORMALS: Record<BodyPlane, Vec3> = { axial: [0, 0, 1], coronal: [0, 1, 0], sagittal: [1, 0, 0] };

const label = (name: string): string => name.replaceAll('_', ' ');

/**
 * Why three points define no plane (their spread, mm, below MIN_PLANE_SPREAD_MM), said of an anatomy (`where`:
 * 'here' for the patient measured, or the patient and phase the points were picked on).
 */
export function collinearFailure(spread_mm: number, where: string): string {
  return (
    `The three points of the plane lie within ${MIN_PLANE_SPREAD_MM} mm of one line ${where} (the middle one is ` +
    `${spread_mm.toFixed(1)} mm from the line through the other two), so they do not define a plane.`
  );
}

/**
 * Measures definitions on one patient's meshes of one phase (the caller builds the meshes for each definition's
 * phase), or on any organs with landmarks in one frame (a shape of a statistical shape model). Landmarks come from the meshes unless `corrections` replaces them. Sections shared by several
 * definitions (area, perimeter, diameters of one plane) are cut once.
 */
export class PatientMeasurer {
  private readonly landmarks = new Map<LandmarkName, Landmark>();
  private readonly sections = new Map<string, SectionMeasures | LumenSection | string>();
  private readonly surfacePoints = new Map<string, Vec3 | string>();

  constructor(
    private readonly meshes: Pick<PatientMeshes, 'organs' | 'landmarks'>,
    corrections: LandmarkCorrections = {},
  ) {
    for (const l of meshes.landmarks) this.landmarks.set(l.name, l);
    for (const [name, c] of Object.entries(corrections) as [LandmarkName, LandmarkCorrection | undefined][]) {
      if (c === undefined) continue;
      const base = this.landmarks.get(name);
      const normal = c.normal === undefined ? base?.normal : unit(c.normal);
      this.landmarks.set(
        name,
        normal === undefined ? { name, position: c.position } : { name, position: c.position, normal },
      );
    }
  }

  /** The value of one definition on this patient, or why it failed. */
  measure(definition: MeasurementDefinition): MeasurementOutcome {
    try {
      const value = this.value(definition.geometry);
      if (!Number.isFinite(value))
        throw new MeasurementFailure('The measurement gave no finite value on this anatomy.');
      return { value };
    } catch (error) {
      if (error instanceof MeasurementFailure) return { failure: error.message };
      throw error;
    }
  }

  private value(g: MeasurementGeometry): number {
    switch (g.type) {
      case 'distance':
        return distance(this.point(g.from), this.point(g.to));
      case 'height':
        return signedDistanceToPlane(this.point(g.point), this.plane(g.plane));
      case 'section': {
        const m = this.sectionMeasures(g.organ, g.plane);
        switch (g.quantity) {
          case 'area':
            return m.area_mm2;
          case 'perimeter':
            return m.perimeter_mm;
          case 'min-diameter':
            return m.minDiameter_mm;
          case 'max-diameter':
            return m.maxDiameter_mm;
          case 'mean-diameter':
            return m.meanDiameter_mm;
          case 'area-derived-diameter':
            return m.areaDiameter_mm;
          case 'perimeter-derived-diameter':
            return m.perimeterDiameter_mm;
        }
        break;
      }
      case 'section-chord': {
        const chord = chordTowards(this.lumen(g.organ, g.plane), this.point(g.towards));
        if (!Number.isFinite(chord))
          throw new MeasurementFailure(`The chord towards the point leaves the ${label(g.organ)} section.`);
        return chord;
      }
      case 'angle': {
        const angle = angleAt_deg(this.point(g.vertex), this.point(g.from), this.point(g.to));
        if (angle === undefined) throw new MeasurementFailure('Two points of the angle coincide.');
        return angle;
      }
      case 'plane-angle':
        return planeAngle_deg(this.plane(g.planes[0]), this.plane(g.planes[1]));
      case 'curve-length':
        if (g.points.length < 2) throw new MeasurementFailure('A curve needs at least two points.');
        return curveLength_mm(g.points.map((p) => this.point(p)));
      case 'volume':
        return enclosedVolume_mm3(this.organ(g.organ)) / 1000;
    }
    throw new MeasurementFailure('Unknown measurement.');
  }

  private landmark(name: LandmarkName): Landmark {
    const found = this.landmarks.get(name);
    if (found === undefined) throw new MeasurementFailure(`The anatomy has no ${label(name)} landmark.`);
    return found;
  }

  private point(ref: PointRef): Vec3 {
    const p =
      'landmark' in ref
        ? this.landmark(ref.landmark).position
        : 'surface' in ref
          ? this.surfacePoint(ref.surface)
          : ref.position;
    if (!isFiniteVec(p)) throw new MeasurementFailure('A point of the measurement is not a finite position.');
    return p;
  }

  /** A picked surface point carried to this anatomy by its landmark frame (once per point). */
  private surfacePoint(surface: SurfacePoint): Vec3 {
    const key = JSON.stringify(surface);
    let found = this.surfacePoints.get(key);
    if (found === undefined) {
      const transfer = transferSurfacePoint(
        surface,
        (name) => this.landmarks.get(name)?.position,
        this.organ(surface.organ),
      );
      found = 'failure' in transfer ? transfer.failure : transfer.point;
      this.surfacePoints.set(key, found);
    }
    if (typeof found === 'string') throw new MeasurementFailure(found);
    return found;
  }

  private plane(ref: PlaneRef): Plane {
    let plane: Plane;
    if (ref.kind === 'body') return { point: [0, 0, 0], normal: BODY_NORMALS[ref.plane] };
    if (ref.kind === 'landmark') {
      const l = this.landmark(ref.landmark);
      if (l.normal === undefined)
        throw new MeasurementFailure(`The ${label(ref.landmark)} landmark is a point, not a plane.`);
      plane = { point: l.position, normal: l.normal };
    } else {
      const [a, b, c] = ref.points.map((p) => this.point(p)) as [Vec3, Vec3, Vec3];
      const through = threePointPlane(a, b, c);
      if ('spread_mm' in through) throw new MeasurementFailure(collinearFailure(through.spread_mm, 'here'));
      plane = through.plane;
    }
    return ref.offset_mm === undefined || ref.offset_mm === 0 ? plane : offsetPlane(plane, ref.offset_mm);
  }

  private organ(organ: Organ): TriangleMesh {
    const found = this.meshes.organs.find((o) => o.organ === organ);
    if (found === undefined) throw new MeasurementFailure(`The anatomy has no ${label(organ)} mesh.`);
    return found.mesh;
  }

  private lumen(organ: Organ, ref: PlaneRef): LumenSection {
    const key = `lumen ${organ} ${JSON.stringify(ref)}`;
    let cached = this.sections.get(key);
    if (cached === undefined) {
      const found = lumenSection(this.organ(organ), this.plane(ref));
      cached =
        found === 'misses'
          ? `The plane does not cut the ${label(organ)}.`
          : found === 'open'
            ? `The ${label(organ)} section around the plane's centre is not closed (the mesh is open).`
            : found === 'outside'
              ? `The plane's centre lies outside the ${label(organ)} section.`
              : found;
      this.sections.set(key, cached);
    }
    if (typeof cached === 'string') throw new MeasurementFailure(cached);
    return cached as LumenSection;
  }

  private sectionMeasures(organ: Organ, ref: PlaneRef): SectionMeasures {
    const key = `measures ${organ} ${JSON.stringify(ref)}`;
    let cached = this.sections.get(key);
    if (cached === undefined) {
      cached = measureLumen(this.lumen(organ, ref));
      this.sections.set(key, cached);
    }
    return cached as SectionMeasures;
  }
}
