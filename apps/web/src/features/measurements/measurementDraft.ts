import { LANDMARKS } from '@insilico/anatomy';
import type {
  MeasurementGeometryBody,
  measurementPhases,
  PointRefBody,
  sectionQuantities,
  SurfacePointSource,
} from '@insilico/contracts';

type Plane = Extract<MeasurementGeometryBody, { type: 'height' }>['plane'];

/** Landmarks that carry a plane (annuli, the aortic root's levels, the LV base): the sinus and ostium points do not. */
export const PLANE_LANDMARKS = LANDMARKS.filter((n) => !/(_sinus|_ostium|^lv_apex)/.test(n));

/** The plane field's value for a plane through three points (beside the plane landmarks). */
export const THREE_POINTS = 'three-points';

/** A plane field's value in words: a landmark's name, or the plane through three points. */
export const planeWords = (value: string): string =>
  value === THREE_POINTS ? 'Plane through three points' : value.replaceAll('_', ' ');

/** The kinds of measurement the drawer builds, with their labels. */
export const TYPES = {
  distance: 'Distance between two landmarks',
  height: 'Height of a landmark above a plane',
  section: 'Section of an organ in a plane',
  angle: 'Angle at a landmark',
  'plane-angle': 'Angle between a plane and the axial plane',
  'curve-length': 'Curve length through landmarks',
  volume: 'Enclosed volume of an organ',
} as const;
export type DraftType = keyof typeof TYPES;

/** A point picked on an organ's surface of the source patient (patient frame, mm). */
export interface PickedPoint {
  organ: string;
  position: [number, number, number];
}

/** Where surface points are picked: a patient of a cohort, or a shape of a project's shape model. */
export type PickSource = SurfacePointSource;

/** The value a point field holds for the n-th picked point (1-based), beside landmark names. */
export const pickedValue = (n: number): string => `picked:${n}`;
const pickedIndex = (value: string): number | null => {
  const match = /^picked:(\d+)$/.exec(value);
  return match ? Number(match[1]) - 1 : null;
};

/** A point field's value in words: a landmark's name, or 'Picked point n'. */
export function pointWords(value: string): string {
  const i = pickedIndex(value);
  return i === null ? value.replaceAll('_', ' ') : `Picked point ${i + 1}`;
}

/** What the drawer's fields hold (every type's fields, so switching the type keeps what was chosen). */
export interface Draft {
  name: string;
  description: string;
  phase: (typeof measurementPhases)[number];
  type: DraftType;
  a: string;
  b: string;
  c: string;
  /** A plane landmark, or THREE_POINTS for the plane through `planePoints`. */
  plane: string;
  /** The points of the plane through three points (point field values: landmarks or picked points). */
  planePoints: [string, string, string];
  /** The plane's offset along its normal, mm, as typed (heights and sections; empty or 0: none). */
  offset: string;
  organ: string;
  quantity: (typeof sectionQuantities)[number];
  curve: string[];
  /** Points picked on the surface of `source`'s anatomy at the draft's phase. */
  picked: PickedPoint[];
  source: PickSource | null;
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
  planePoints: ['right_coronary_sinus', 'left_coronary_sinus', 'non_coronary_sinus'],
  offset: '',
  organ: 'aortic_root',
  quantity: 'area',
  curve: ['lvot', 'aortic_annulus', 'sinotubular_junction', 'ascending_aorta'],
  picked: [],
  source: null,
};

/**
 * The draft without the n-th picked point (0-based): later points move up one, and fields that chose the removed
 * point go back to their first value.
 */
export function withoutPicked(d: Draft, n: number): Draft {
  const shift = (value: string, fallback: string): string => {
    const i = pickedIndex(value);
    return i === null || i < n ? value : i === n ? fallback : pickedValue(i);
  };
  return {
    ...d,
    picked: d.picked.filter((_, i) => i !== n),
    a: shift(d.a, initialDraft.a),
    b: shift(d.b, initialDraft.b),
    c: shift(d.c, initialDraft.c),
    planePoints: d.planePoints.map((v, k) => shift(v, initialDraft.planePoints[k] as string)) as Draft['planePoints'],
    curve: d.curve.flatMap((v) => (pickedIndex(v) === n ? [] : [shift(v, v)])),
  };
}

/** The largest plane offset (mm) the server takes, either way along the normal. */
export const MAX_OFFSET_MM = 200;

/** Whether the draft's plane may be moved along its normal (heights and sections; an angle does not change). */
export const usesOffset = (d: Draft): boolean => d.type === 'height' || d.type === 'section';

/** The offset field's value in mm (0 when empty), or what is wrong with it. */
export function offsetOf(d: Draft): { mm: number } | { problem: string } {
  const text = d.offset.trim();
  if (text === '') return { mm: 0 };
  const mm = Number(text);
  if (!Number.isFinite(mm)) return { problem: 'The offset is a number of millimetres.' };
  if (Math.abs(mm) > MAX_OFFSET_MM) return { problem: `An offset is at most ${MAX_OFFSET_MM} mm.` };
  return { mm };
}

/** The geometry the draft describes. */
export function geometryOf(d: Draft): MeasurementGeometryBody {
  const point = (value: string): PointRefBody => {
    const i = pickedIndex(value);
    const picked = i === null ? undefined : d.picked[i];
    if (i === null || !picked || !d.source) return { landmark: value };
    return { surface: { organ: picked.organ, position: picked.position, source: d.source } };
  };
  const [p1, p2, p3] = d.planePoints;
  const flat: Exclude<Plane, { kind: 'body' }> =
    d.plane === THREE_POINTS
      ? { kind: 'three-points', points: [point(p1), point(p2), point(p3)] }
      : { kind: 'landmark', landmark: d.plane };
  // A bad offset is the form's to show (offsetOf); the geometry then has none.
  const offset = offsetOf(d);
  const plane: Plane = usesOffset(d) && 'mm' in offset && offset.mm !== 0 ? { ...flat, offset_mm: offset.mm } : flat;
  switch (d.type) {
    case 'distance':
      return { type: 'distance', from: point(d.a), to: point(d.b) };
    case 'height':
      return { type: 'height', point: point(d.c), plane };
    case 'section':
      return { type: 'section', organ: d.organ, plane, quantity: d.quantity };
    case 'angle':
      return { type: 'angle', vertex: point(d.a), from: point(d.b), to: point(d.c) };
    case 'plane-angle':
      return { type: 'plane-angle', planes: [plane, { kind: 'body', plane: 'axial' }] };
    case 'curve-length':
      return { type: 'curve-length', points: d.curve.map(point) };
    case 'volume':
      return { type: 'volume', organ: d.organ };
  }
}

/** Whether the draft's plane is built from points (so the picker is shown for it). */
export const usesPlanePoints = (d: Draft): boolean =>
  d.plane === THREE_POINTS && (d.type === 'height' || d.type === 'section' || d.type === 'plane-angle');

/**
 * The draft of an existing definition, for editing it in the drawer; null when its geometry is not one the drawer
 * builds (fixed positions, chords, offsets on an angle's plane).
 */
export function draftOf(definition: {
  name: string;
  description: string;
  phase: Draft['phase'];
  geometry: MeasurementGeometryBody;
}): Draft | null {
  // Surface points become the draft's picked points, in the order met (all picked on one patient).
  const picked: PickedPoint[] = [];
  let source: PickSource | null = null;
  const landmarkOf = (p: PointRefBody): string | null => {
    if ('landmark' in p) return p.landmark;
    if (!('surface' in p)) return null;
    source = { ...p.surface.source };
    picked.push({ organ: p.surface.organ, position: [...p.surface.position] });
    return pickedValue(picked.length);
  };
  // A landmark plane, or one through three points the drawer can name (its fields hold them), with its offset.
  const planeOf = (p: Plane): PlaneFields | null => {
    if (p.kind === 'body') return null;
    const offset = p.offset_mm === undefined || p.offset_mm === 0 ? '' : String(p.offset_mm);
    if (p.kind === 'landmark') return { plane: p.landmark, planePoints: initialDraft.planePoints, offset };
    const points = p.points.map(landmarkOf);
    return points.every((v) => v !== null)
      ? { plane: THREE_POINTS, planePoints: points as Draft['planePoints'], offset }
      : null;
  };
  const draft = draftOfGeometry(definition, landmarkOf, planeOf);
  return draft && { ...draft, picked, source };
}

type PlaneFields = Pick<Draft, 'plane' | 'planePoints' | 'offset'>;

function draftOfGeometry(
  definition: { name: string; description: string; phase: Draft['phase']; geometry: MeasurementGeometryBody },
  landmarkOf: (p: PointRefBody) => string | null,
  planeOf: (p: Plane) => PlaneFields | null,
): Draft | null {
  const base = { ...initialDraft, name: definition.name, description: definition.description, phase: definition.phase };
  const g = definition.geometry;
  switch (g.type) {
    case 'distance': {
      const [a, b] = [landmarkOf(g.from), landmarkOf(g.to)];
      return a !== null && b !== null ? { ...base, type: 'distance', a, b } : null;
    }
    case 'height': {
      const [c, plane] = [landmarkOf(g.point), planeOf(g.plane)];
      return c !== null && plane !== null ? { ...base, type: 'height', c, ...plane } : null;
    }
    case 'section': {
      const plane = planeOf(g.plane);
      return plane === null ? null : { ...base, type: 'section', organ: g.organ, ...plane, quantity: g.quantity };
    }
    case 'angle': {
      const [a, b, c] = [landmarkOf(g.vertex), landmarkOf(g.from), landmarkOf(g.to)];
      return a !== null && b !== null && c !== null ? { ...base, type: 'angle', a, b, c } : null;
    }
    case 'plane-angle': {
      const plane = planeOf(g.planes[0]);
      return plane !== null && plane.offset === '' && g.planes[1].kind === 'body' && g.planes[1].plane === 'axial'
        ? { ...base, type: 'plane-angle', ...plane }
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
