import type { MeasurementGeometryBody, PointRefBody } from '@insilico/contracts';
import { describe, expect, it } from 'vitest';
import { checkedGeometry, mapPoints, surfacePointsOf } from './measurement-geometry';

const source = { cohortId: '00000000-0000-4000-8000-000000000001', patientId: 'SYN-000001' };
const surface = (x: number): PointRefBody => ({ surface: { organ: 'aortic_root', position: [x, 0, 0], source } });

describe('the points of a geometry', () => {
  it('visits every point, those of planes through three points included, in one order', () => {
    const geometry: MeasurementGeometryBody = {
      type: 'section-chord',
      organ: 'aortic_root',
      plane: { kind: 'three-points', points: [surface(1), { landmark: 'lvot' }, surface(2)] },
      towards: surface(3),
    };
    expect(surfacePointsOf(geometry).map((s) => s.position[0])).toEqual([1, 2, 3]);
    let n = 0;
    const renumbered = mapPoints(geometry, (p) => ('surface' in p ? { landmark: `p${++n}` } : p));
    expect(renumbered).toEqual({
      ...geometry,
      plane: { kind: 'three-points', points: [{ landmark: 'p1' }, { landmark: 'lvot' }, { landmark: 'p2' }] },
      towards: { landmark: 'p3' },
    });
    expect(surfacePointsOf({ type: 'volume', organ: 'lv_blood_pool' })).toEqual([]);
  });

  it('refuses a surface point on an organ the anatomy does not have, naming it', () => {
    const wrong: PointRefBody = { surface: { organ: 'spleen', position: [0, 0, 0], source } };
    expect(() => checkedGeometry({ type: 'distance', from: wrong, to: { landmark: 'lv_apex' } })).toThrow(
      /^"spleen" is not an organ of the anatomy\. Choose one of: /,
    );
  });
});
