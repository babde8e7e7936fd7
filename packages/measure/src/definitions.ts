import type { LandmarkName, Organ } from '@insilico/anatomy';
import type { Vec3 } from '@insilico/mesh';
import type { SurfacePoint } from './surface';

/**
 * What a measurement is, independent of any patient: the geometry it builds from the anatomy's landmarks and
 * organ meshes, and the heart phase it is taken at. Per-patient corrections replace landmarks (see evaluate.ts).
 */

/**
 * A point: one of the anatomy's landmarks, a fixed position (patient frame, mm), or a point picked on an organ's
 * surface and carried to each patient by a landmark frame (surface.ts).
 */
export type PointRef =
  { readonly landmark: LandmarkName } | { readonly position: Vec3 } | { readonly surface: SurfacePoint };

/** The body planes of the patient frame (LPS): axial ⟂ z, coronal ⟂ y, sagittal ⟂ x. */
export const BODY_PLANES = ['axial', 'coronal', 'sagittal'] as const;
/** A body plane. */
export type BodyPlane = (typeof BODY_PLANES)[number];

/**
 * A plane: the plane a landmark carries (annuli and the aortic root's levels), the plane through three points,
 * or a body plane (for angulations). `offset_mm` moves it along its normal.
 */
export type PlaneRef =
  | { readonly kind: 'landmark'; readonly landmark: LandmarkName; readonly offset_mm?: number }
  | {
      readonly kind: 'three-points';
      readonly points: readonly [PointRef, PointRef, PointRef];
      readonly offset_mm?: number;
    }
  | { readonly kind: 'body'; readonly plane: BodyPlane };

/** What is read off a lumen section. */
export const SECTION_QUANTITIES = [
  'area',
  'perimeter',
  'min-diameter',
  'max-diameter',
  'mean-diameter',
  'area-derived-diameter',
  'perimeter-derived-diameter',
] as const;
/** A section quantity. */
export type SectionQuantity = (typeof SECTION_QUANTITIES)[number];

/** The geometry of a measurement. */
export type MeasurementGeometry =
  /** Straight distance between two points, mm. */
  | { readonly type: 'distance'; readonly from: PointRef; readonly to: PointRef }
  /** Distance of a point from a plane measured along the plane's normal (signed: positive above), mm. */
  | { readonly type: 'height'; readonly point: PointRef; readonly plane: PlaneRef }
  /** A quantity of the lumen section of an organ's mesh with a plane, around the plane's point. */
  | {
      readonly type: 'section';
      readonly organ: Organ;
      readonly plane: PlaneRef;
      readonly quantity: SectionQuantity;
    }
  /** Chord of the lumen section through its centroid towards a point (e.g. sinus to opposite commissure), mm. */
  | { readonly type: 'section-chord'; readonly organ: Organ; readonly plane: PlaneRef; readonly towards: PointRef }
  /** Angle at `vertex` between the rays to `from` and `to`, degrees (0–180). */
  | { readonly type: 'angle'; readonly vertex: PointRef; readonly from: PointRef; readonly to: PointRef }
  /** Angle between two planes (between their normals, folded into 0–90), degrees. */
  | { readonly type: 'plane-angle'; readonly planes: readonly [PlaneRef, PlaneRef] }
  /** Length of the polyline through the points in order, mm. */
  | { readonly type: 'curve-length'; readonly points: readonly PointRef[] }
  /** Volume enclosed by an organ's closed mesh (divergence theorem), mL. */
  | { readonly type: 'volume'; readonly organ: Organ };

/** The type of a measurement's geometry. */
export type MeasurementType = MeasurementGeometry['type'];

/** The heart phases a measurement can be taken at. */
export const MEASUREMENT_PHASES = ['end-diastole', 'end-systole'] as const;
/** A measurement phase. */
export type MeasurementPhase = (typeof MEASUREMENT_PHASES)[number];

/** A named measurement: geometry, phase, and the words shown with its values. */
export interface MeasurementDefinition {
  /** Stable key within a set (letters, digits, '-', '_'). */
  readonly key: string;
  readonly name: string;
  readonly description: string;
  readonly phase: MeasurementPhase;
  readonly geometry: MeasurementGeometry;
}

/** Units of measurement values. */
export type MeasurementUnit = 'mm' | 'mm²' | 'mL' | '°';

/** The unit of a measurement's value, fixed by its geometry. */
export function unitOf(geometry: MeasurementGeometry): MeasurementUnit {
  switch (geometry.type) {
    case 'distance':
    case 'height':
    case 'section-chord':
    case 'curve-length':
      return 'mm';
    case 'section':
      return geometry.quantity === 'area' ? 'mm²' : 'mm';
    case 'angle':
    case 'plane-angle':
      return '°';
    case 'volume':
      return 'mL';
  }
}
