import { LANDMARKS } from '@insilico/anatomy';
import type { MeasurementGeometryBody, measurementPhases, sectionQuantities } from '@insilico/contracts';

/** Landmarks that carry a plane (annuli, the aortic root's levels, the LV base): the sinus and ostium points do not. */
export const PLANE_LANDMARKS = LANDMARKS.filter((n) => !/(_sinus|_ostium|^lv_apex)/.test(n));

/** The kinds of measurement the drawer builds, with their labels. */
export const TYPES = {
  distance: 'Distance between two landmarks',
  height: 'Height of a landmark above a plane',
  section: 'Section of an organ in a landmark plane',
  angle: 'Angle at a landmark',
  'plane-angle': 'Angle between a landmark plane and the axial plane',
  'curve-length': 'Curve length through landmarks',
  volume: 'Enclosed volume of an organ',
} as const;
export type DraftType = keyof typeof TYPES;

/** What the drawer's fields hold (every type's fields, so switching the type keeps what was chosen). */
export interface Draft {
  name: string;
  description: string;
  phase: (typeof measurementPhases)[number];
  type: DraftType;
  a: string;
  b: string;
  c: string;
  plane: string;
  organ: string;
  quantity: (typeof sectionQuantities)[number];
  curve: string[];
}

export const initialDraft: Draft = {
  name: '',
  description: '',
  phase: 'end-systole',
  type: 'section',
  a: 'aortic_annulus',
  b: 'lv_apex',
  c: 'left_coronary_ostium',
  plane: 'aortic_annulus',
  organ: 'aortic_root',
  quantity: 'area',
  curve: ['lvot', 'aortic_annulus', 'sinotubular_junction', 'ascending_aorta'],
};

/** The geometry the draft describes. */
export function geometryOf(d: Draft): MeasurementGeometryBody {
  const plane = { kind: 'landmark' as const, landmark: d.plane };
  switch (d.type) {
    case 'distance':
      return { type: 'distance', from: { landmark: d.a }, to: { landmark: d.b } };
    case 'height':
      return { type: 'height', point: { landmark: d.c }, plane };
    case 'section':
      return { type: 'section', organ: d.organ, plane, quantity: d.quantity };
    case 'angle':
      return { type: 'angle', vertex: { landmark: d.a }, from: { landmark: d.b }, to: { landmark: d.c } };
    case 'plane-angle':
      return { type: 'plane-angle', planes: [plane, { kind: 'body', plane: 'axial' }] };
    case 'curve-length':
      return { type: 'curve-length', points: d.curve.map((landmark) => ({ landmark })) };
    case 'volume':
      return { type: 'volume', organ: d.organ };
  }
}

type Point = { landmark: string } | { position: readonly number[] };
type Plane = Extract<MeasurementGeometryBody, { type: 'height' }>['plane'];
const landmarkOf = (p: Point): string | null => ('landmark' in p ? p.landmark : null);
const planeLandmarkOf = (p: Plane): string | null =>
  p.kind === 'landmark' && (p.offset_mm === undefined || p.offset_mm === 0) ? p.landmark : null;

/**
 * The draft of an existing definition, for editing it in the drawer; null when its geometry is not one the drawer
 * builds (points picked on a surface, planes through three points or offset, chords).
 */
export function draftOf(definition: {
  name: string;
  description: string;
  phase: Draft['phase'];
  geometry: MeasurementGeometryBody;
}): Draft | null {
  const base = { ...initialDraft, name: definition.name, description: definition.description, phase: definition.phase };
  const g = definition.geometry;
  switch (g.type) {
    case 'distance': {
      const [a, b] = [landmarkOf(g.from), landmarkOf(g.to)];
      return a !== null && b !== null ? { ...base, type: 'distance', a, b } : null;
    }
    case 'height': {
      const [c, plane] = [landmarkOf(g.point), planeLandmarkOf(g.plane)];
      return c !== null && plane !== null ? { ...base, type: 'height', c, plane } : null;
    }
    case 'section': {
      const plane = planeLandmarkOf(g.plane);
      return plane === null ? null : { ...base, type: 'section', organ: g.organ, plane, quantity: g.quantity };
    }
    case 'angle': {
      const [a, b, c] = [landmarkOf(g.vertex), landmarkOf(g.from), landmarkOf(g.to)];
      return a !== null && b !== null && c !== null ? { ...base, type: 'angle', a, b, c } : null;
    }
    case 'plane-angle': {
      const plane = planeLandmarkOf(g.planes[0]);
      return plane !== null && g.planes[1].kind === 'body' && g.planes[1].plane === 'axial'
        ? { ...base, type: 'plane-angle', plane }
        : null;
    }
    case 'curve-length': {
      const curve = g.points.map(landmarkOf).filter((name) => name !== null);
      return curve.length === g.points.length ? { ...base, type: 'curve-length', curve } : null;
    }
    case 'volume':
      return { ...base, type: 'volume', organ: g.organ };
    case 'section-chord':
      return null;
  }
}
