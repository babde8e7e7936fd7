import { describe, expect, it } from 'vitest';
import type { MeasurementGeometryBody } from '@insilico/contracts';
import { draftOf, geometryOf, PLANE_LANDMARKS } from './measurementDraft';

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

  it('is refused for geometries the drawer does not build (picked points, three-point planes, offsets, chords)', () => {
    const p = { position: [1, 2, 3] as [number, number, number] };
    expect(draftOf({ ...base, geometry: { type: 'distance', from: p, to: { landmark: 'lv_apex' } } })).toBeNull();
    expect(
      draftOf({
        ...base,
        geometry: { type: 'section', organ: 'aortic_root', plane: { ...plane, offset_mm: 2 }, quantity: 'area' },
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
});
