import { describe, expect, it } from 'vitest';
import type { MeasurementGeometryBody, PointRefBody } from '@insilico/contracts';
import {
  draftOf,
  geometryOf,
  initialDraft,
  offsetOf,
  PLANE_LANDMARKS,
  pickedValue,
  pointWords,
  THREE_POINTS,
  usesOffset,
  usesPlanePoints,
  withoutPicked,
  type Draft,
} from './measurementDraft';

const base = { name: 'M', description: 'd', phase: 'end-diastole' as const };
const plane = { kind: 'landmark' as const, landmark: 'mitral_annulus' };

describe('the drawer’s draft of a definition', () => {
  it.each<MeasurementGeometryBody>([
    { type: 'distance', from: { landmark: 'lv_apex' }, to: { landmark: 'mitral_annulus' } },
    { type: 'height', point: { landmark: 'right_coronary_ostium' }, plane },
    { type: 'section', organ: 'aortic_root', plane, quantity: 'max-diameter' },
    { type: 'angle', vertex: { landmark: 'lv_apex' }, from: { landmark: 'lvot' }, to: { landmark: 'mitral_annulus' } },
    { type: 'plane-angle', planes: [plane, { kind: 'body', plane: 'axial' }] },
    { type: 'curve-length', points: [{ landmark: 'lvot' }, { landmark: 'ascending_aorta' }] },
    { type: 'volume', organ: 'la_blood_pool' },
  ])('gives back the same geometry, name and phase: $type', (geometry) => {
    const draft = draftOf({ ...base, geometry });
    expect(draft).not.toBeNull();
    expect(geometryOf(draft!)).toEqual(geometry);
    expect(draft).toMatchObject(base);
  });

  it('is refused for geometries the drawer does not build (fixed positions, an angle’s offset plane, chords)', () => {
    const p = { position: [1, 2, 3] as [number, number, number] };
    expect(draftOf({ ...base, geometry: { type: 'distance', from: p, to: { landmark: 'lv_apex' } } })).toBeNull();
    expect(
      draftOf({
        ...base,
        geometry: {
          type: 'plane-angle',
          planes: [
            { ...plane, offset_mm: 2 },
            { kind: 'body', plane: 'axial' },
          ],
        },
      }),
    ).toBeNull();
    expect(
      draftOf({
        ...base,
        geometry: {
          type: 'section-chord',
          organ: 'aortic_root',
          plane: { kind: 'three-points', points: [p, p, p] },
          towards: p,
        },
      }),
    ).toBeNull();
  });

  it('offers planes only where the landmark carries one', () => {
    expect(PLANE_LANDMARKS).toContain('aortic_annulus');
    expect(PLANE_LANDMARKS).toContain('sinotubular_junction');
    expect(PLANE_LANDMARKS).not.toContain('left_coronary_ostium');
    expect(PLANE_LANDMARKS).not.toContain('right_coronary_sinus');
    expect(PLANE_LANDMARKS).not.toContain('lv_apex');
  });

  const source = { cohortId: '00000000-0000-4000-8000-000000000001', patientId: 'SYN-000004' };
  const surface = (x: number) => ({
    surface: { organ: 'aortic_root', position: [x, 2, 3] as [number, number, number], source },
  });

  it('gives back points picked on the surface as the draft’s picked points, with the patient they were picked on', () => {
    const geometry: MeasurementGeometryBody = {
      type: 'curve-length',
      points: [surface(1), { landmark: 'lvot' }, surface(5)],
    };
    const draft = draftOf({ ...base, geometry })!;
    expect(draft.picked).toEqual([
      { organ: 'aortic_root', position: [1, 2, 3] },
      { organ: 'aortic_root', position: [5, 2, 3] },
    ]);
    expect(draft.source).toEqual(source);
    expect(draft.curve).toEqual([pickedValue(1), 'lvot', pickedValue(2)]);
    expect(geometryOf(draft)).toEqual(geometry);
    expect(draft.curve.map(pointWords)).toEqual(['Picked point 1', 'lvot', 'Picked point 2']);
  });

  it('removes a picked point: later ones move up, fields that chose it go back to their first value', () => {
    const draft = {
      ...initialDraft,
      type: 'angle' as const,
      a: pickedValue(1),
      b: pickedValue(2),
      c: pickedValue(3),
      curve: [pickedValue(3), pickedValue(2), 'lvot'],
      picked: [1, 2, 3].map((x) => ({ organ: 'aortic_root', position: [x, 0, 0] as [number, number, number] })),
      source,
    };
    const next = withoutPicked(draft, 1);
    expect(next.picked.map((p) => p.position[0])).toEqual([1, 3]);
    expect([next.a, next.b, next.c]).toEqual([pickedValue(1), initialDraft.b, pickedValue(2)]);
    expect(next.curve).toEqual([pickedValue(2), 'lvot']);
  });

  it('gives back planes through three points (picked or landmarks) as the plane field and its three points', () => {
    const through = {
      kind: 'three-points' as const,
      points: [surface(1), { landmark: 'non_coronary_sinus' }, surface(7)] as [
        PointRefBody,
        PointRefBody,
        PointRefBody,
      ],
    };
    for (const geometry of [
      { type: 'section', organ: 'aortic_root', plane: through, quantity: 'area' },
      { type: 'height', point: { landmark: 'lv_apex' }, plane: through },
      { type: 'plane-angle', planes: [through, { kind: 'body', plane: 'axial' }] },
    ] as MeasurementGeometryBody[]) {
      const draft = draftOf({ ...base, geometry })!;
      expect(draft.plane).toBe(THREE_POINTS);
      expect(draft.planePoints).toEqual([pickedValue(1), 'non_coronary_sinus', pickedValue(2)]);
      expect(usesPlanePoints(draft)).toBe(true);
      expect(geometryOf(draft)).toEqual(geometry);
    }
  });

  it('gives back a plane’s offset along its normal (three points or a landmark) as the offset field, in mm', () => {
    const through = {
      kind: 'three-points' as const,
      points: [{ landmark: 'right_coronary_sinus' }, surface(4), { landmark: 'non_coronary_sinus' }] as [
        PointRefBody,
        PointRefBody,
        PointRefBody,
      ],
    };
    for (const geometry of [
      { type: 'section', organ: 'aortic_root', plane: { ...through, offset_mm: 12.5 }, quantity: 'area' },
      { type: 'height', point: { landmark: 'lv_apex' }, plane: { ...through, offset_mm: -3 } },
      { type: 'section', organ: 'aortic_root', plane: { ...plane, offset_mm: 2 }, quantity: 'perimeter' },
    ] as MeasurementGeometryBody[]) {
      const draft = draftOf({ ...base, geometry })!;
      expect(draft).not.toBeNull();
      expect(Number(draft.offset)).toBe((geometry as { plane: { offset_mm: number } }).plane.offset_mm);
      expect(geometryOf(draft)).toEqual(geometry);
    }
  });

  it('builds the offset typed in the form, none when empty or 0, and names what is wrong with a bad one', () => {
    const drafted = (type: Draft['type'], offset: string) => ({ ...initialDraft, type, plane: THREE_POINTS, offset });
    const planeOf = (d: Draft) => (geometryOf(d) as { plane: Record<string, unknown> }).plane;
    expect(planeOf(drafted('section', ' 7.25 '))).toMatchObject({ kind: 'three-points', offset_mm: 7.25 });
    expect(planeOf(drafted('height', '-40'))).toMatchObject({ kind: 'three-points', offset_mm: -40 });
    expect(planeOf(drafted('section', ''))).not.toHaveProperty('offset_mm');
    expect(planeOf(drafted('section', '0'))).not.toHaveProperty('offset_mm');
    expect(offsetOf(drafted('section', '200'))).toEqual({ mm: 200 });
    expect(offsetOf(drafted('section', '-200.5'))).toEqual({ problem: 'An offset is at most 200 mm.' });
    expect(offsetOf(drafted('section', '3 mm'))).toEqual({ problem: 'The offset is a number of millimetres.' });
    // An angle between planes does not change when one moves along its normal: no field, no offset.
    const angle = drafted('plane-angle', '5');
    expect(usesOffset(angle)).toBe(false);
    expect(geometryOf(angle)).toEqual({
      type: 'plane-angle',
      planes: [
        { kind: 'three-points', points: initialDraft.planePoints.map((landmark) => ({ landmark })) },
        { kind: 'body', plane: 'axial' },
      ],
    });
  });

  it('keeps a shape of a shape model as the source of points picked on it', () => {
    const shape = {
      projectId: '00000000-0000-4000-8000-000000000002',
      ssmId: '00000000-0000-4000-8000-000000000003',
      instance: '1.5,0,-2',
    };
    const geometry: MeasurementGeometryBody = {
      type: 'distance',
      from: { surface: { organ: 'aortic_root', position: [4, 5, 6], source: shape } },
      to: { landmark: 'lvot' },
    };
    const draft = draftOf({ ...base, geometry })!;
    expect(draft.source).toEqual(shape);
    expect(geometryOf(draft)).toEqual(geometry);
  });

  it('removing a picked point puts a plane point that chose it back to its first value', () => {
    const draft = {
      ...initialDraft,
      plane: THREE_POINTS,
      planePoints: [pickedValue(1), pickedValue(2), pickedValue(3)] as [string, string, string],
      picked: [1, 2, 3].map((x) => ({ organ: 'aortic_root', position: [x, 0, 0] as [number, number, number] })),
      source,
    };
    expect(withoutPicked(draft, 0).planePoints).toEqual([initialDraft.planePoints[0], pickedValue(1), pickedValue(2)]);
    expect(usesPlanePoints({ ...draft, type: 'distance' })).toBe(false);
    expect(usesPlanePoints({ ...draft, plane: 'aortic_annulus' })).toBe(false);
  });
});
