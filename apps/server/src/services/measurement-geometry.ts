import { LANDMARKS, ORGANS } from '@insilico/anatomy';
import type { MeasurementGeometryBody, PointRefBody, SurfacePointBody } from '@insilico/contracts';
import { collinearFailure, threePointPlane, type MeasurementGeometry } from '@insilico/measure';
import { ServiceError } from './errors';

const NAMES = {
  landmark: { known: new Set<string>(LANDMARKS), all: LANDMARKS, article: 'a landmark' },
  organ: { known: new Set<string>(ORGANS), all: ORGANS, article: 'an organ' },
} as const;

/** Throws 400 naming the wrong name and the anatomy's choices unless `name` is one of its landmarks or organs. */
export function checkAnatomyName(kind: keyof typeof NAMES, name: string): void {
  const names = NAMES[kind];
  if (!names.known.has(name))
    throw new ServiceError(
      400,
      'invalid',
      `"${name}" is not ${names.article} of the anatomy. Choose one of: ${names.all.join(', ')}.`,
    );
}

/**
 * The geometry of a definition with every landmark and organ name checked against the anatomy (400 naming the
 * wrong one); the contract has checked its shape, so it is a MeasurementGeometry of @insilico/measure.
 */
export function checkedGeometry(g: MeasurementGeometryBody): MeasurementGeometry {
  const point = (p: PointRefBody): void => {
    if ('landmark' in p) checkAnatomyName('landmark', p.landmark);
    if ('surface' in p) checkAnatomyName('organ', p.surface.organ);
  };
  const plane = (p: Extract<MeasurementGeometryBody, { type: 'height' }>['plane']): void => {
    if (p.kind === 'landmark') checkAnatomyName('landmark', p.landmark);
    else if (p.kind === 'three-points') p.points.forEach(point);
  };
  switch (g.type) {
    case 'distance':
      point(g.from);
      point(g.to);
      break;
    case 'height':
      point(g.point);
      plane(g.plane);
      break;
    case 'section':
      checkAnatomyName('organ', g.organ);
      plane(g.plane);
      break;
    case 'section-chord':
      checkAnatomyName('organ', g.organ);
      plane(g.plane);
      point(g.towards);
      break;
    case 'angle':
      point(g.vertex);
      point(g.from);
      point(g.to);
      break;
    case 'plane-angle':
      g.planes.forEach(plane);
      break;
    case 'curve-length':
      g.points.forEach(point);
      break;
    case 'volume':
      checkAnatomyName('organ', g.organ);
      break;
  }
  return g as MeasurementGeometry;
}

type PlaneBody = Extract<MeasurementGeometryBody, { type: 'height' }>['plane'];

/** The geometry with every point replaced by `point` of it and every plane by `plane` of it, in a fixed order. */
function mapParts(
  g: MeasurementGeometryBody,
  f: (p: PointRefBody) => PointRefBody,
  plane: (p: PlaneBody) => PlaneBody,
): MeasurementGeometryBody {
  switch (g.type) {
    case 'distance':
      return { ...g, from: f(g.from), to: f(g.to) };
    case 'height':
      return { ...g, point: f(g.point), plane: plane(g.plane) };
    case 'section':
      return { ...g, plane: plane(g.plane) };
    case 'section-chord':
      return { ...g, plane: plane(g.plane), towards: f(g.towards) };
    case 'angle':
      return { ...g, vertex: f(g.vertex), from: f(g.from), to: f(g.to) };
    case 'plane-angle':
      return { ...g, planes: [plane(g.planes[0]), plane(g.planes[1])] };
    case 'curve-length':
      return { ...g, points: g.points.map(f) };
    case 'volume':
      return g;
  }
}

/**
 * The geometry with every point (those of planes through three points included) replaced by `f` of it, visited in
 * a fixed order: the surface points a definition picks are anchored with this (measurement.service).
 */
export function mapPoints(g: MeasurementGeometryBody, f: (p: PointRefBody) => PointRefBody): MeasurementGeometryBody {
  return mapParts(g, f, (p) =>
    p.kind === 'three-points' ? { ...p, points: [f(p.points[0]), f(p.points[1]), f(p.points[2])] } : p,
  );
}

/** The points of each plane through three points of a geometry, in order. */
export function threePointPlanesOf(g: MeasurementGeometryBody): [PointRefBody, PointRefBody, PointRefBody][] {
  const found: [PointRefBody, PointRefBody, PointRefBody][] = [];
  mapParts(
    g,
    (p) => p,
    (p) => {
      if (p.kind === 'three-points') found.push(p.points);
      return p;
    },
  );
  return found;
}

/** A point in words for messages: a landmark's name, typed coordinates, or a picked point's organ and position. */
function pointWords(p: PointRefBody): string {
  const mm = (v: readonly number[]) => `(${v.map((x) => x.toFixed(1)).join(', ')}) mm`;
  if ('landmark' in p) return `the ${p.landmark.replaceAll('_', ' ')} landmark`;
  if ('position' in p) return `the point at ${mm(p.position)}`;
  return `the point picked on the ${p.surface.organ.replaceAll('_', ' ')} at ${mm(p.surface.position)}`;
}

/**
 * Checks what can be checked of the planes through three points without an anatomy (400 otherwise): three
 * different points, and points typed as coordinates not within MIN_PLANE_SPREAD_MM of one line. Planes through
 * landmarks or picked points are computed on an anatomy (the one the points were picked on, then every patient).
 */
export function checkThreePointPlanes(g: MeasurementGeometryBody): void {
  for (const points of threePointPlanesOf(g)) {
    const keys = points.map((p) => JSON.stringify('surface' in p ? { ...p.surface, frame: undefined } : p));
    const twice = points.find((_, i) => keys.indexOf(keys[i] as string) !== i);
    if (twice)
      throw new ServiceError(
        400,
        'invalid',
        `A plane needs three different points; this one names ${pointWords(twice)} twice.`,
      );
    const [a, b, c] = points.map((p) => ('position' in p ? p.position : undefined));
    if (a && b && c) {
      const through = threePointPlane(a, b, c);
      if ('spread_mm' in through)
        throw new ServiceError(400, 'invalid', collinearFailure(through.spread_mm, 'as typed'));
    }
  }
}

/** The surface points of a geometry, in the order `mapPoints` visits them. */
export function surfacePointsOf(g: MeasurementGeometryBody): SurfacePointBody[] {
  const found: SurfacePointBody[] = [];
  mapPoints(g, (p) => {
    if ('surface' in p) found.push(p.surface);
    return p;
  });
  return found;
}
