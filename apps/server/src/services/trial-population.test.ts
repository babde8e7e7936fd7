import { describe, expect, it } from 'vitest';
import { instancePopulation } from './trial-population';
import { pearson } from './trial-report-figures';

/**
 * Four named instances of a 3-mode model: mode 1 scores 0, 2, −1, 0; mode 2 scores 1, 0, 0, 0; the mean shape failed
 * (no value). References: numpy.corrcoef([0, 2, -1], [10, 16, 9]) = 0.9798637100971994 and
 * numpy.corrcoef([1, 0, 0], [10, 16, 9]) = -0.3812464258315117.
 */
const ssm = { id: '00000000-0000-4000-8000-0000000000aa', name: 'Roots', modeCount: 3 };
const instances = [
  { id: 'room-a', name: 'A', shape: '0,1' },
  { id: 'room-b', name: 'B', shape: '2' },
  { id: 'room-c', name: 'C', shape: '-1' },
  { id: 'room-d', name: 'D', shape: 'mean' },
];
const outcome = {
  key: 'pressure_drop',
  label: 'Pressure drop',
  unit: 'mmHg',
  description: 'Largest mean-pressure difference.',
  values: [10, 16, 9, null],
  criterion: { min: null, max: 12 },
};

describe('an SSM trial’s instances as a population', () => {
  it('reads mode scores from the shapes and correlates each moved mode with the outcome', () => {
    const p = instancePopulation(ssm, instances, [outcome]);
    expect(p.modes).toEqual([1, 2]);
    expect(p.instances.map((i) => i.modeScores)).toEqual([
      [0, 1],
      [2, 0],
      [-1, 0],
      [0, 0],
    ]);
    const [o] = p.outcomes;
    expect(o!.modeCorrelations[0]).toBeCloseTo(0.9798637100971994, 12);
    expect(o!.modeCorrelations[1]).toBeCloseTo(-0.3812464258315117, 12);
    expect(o!.missing).toBe(1);
    expect(o!.summary).toMatchObject({ n: 3, min: 9, median: 10, max: 16 });
    expect(o!.summary!.mean).toBeCloseTo(35 / 3, 12);
    expect(o!.lowest).toEqual({ id: 'room-c', value: 9 });
    expect(o!.highest).toEqual({ id: 'room-b', value: 16 });
    // ≤ 12 mmHg: A and C pass, B does not; D has no value and is not judged.
    expect(o!.pass).toEqual({ count: 2, n: 3 });
  });

  it('has no correlation below three instances with a value or for a mode no instance moves apart', () => {
    const two = instancePopulation(ssm, instances, [{ ...outcome, values: [10, 16, null, null] }]);
    expect(two.outcomes[0]!.modeCorrelations).toEqual([null, null]);
    expect(two.outcomes[0]!.summary!.sd).toBeCloseTo(Math.sqrt(18), 12);
    expect(pearson([1, 1, 1], [3, 4, 5])).toBeNull();
    const one = instancePopulation(ssm, instances.slice(3), [{ ...outcome, values: [4] }]);
    expect(one.modes).toEqual([]);
    expect(one.outcomes[0]!.summary!.sd).toBeNull();
  });
});
