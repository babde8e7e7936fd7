import { describe, expect, it } from 'vitest';
import { flowPath, histogram, readFlow, subjectOf, summary } from './flow';

describe('measurement flow in the address', () => {
  it('round-trips the cohort, the chosen definitions (built-in ids with / and @) and the order', () => {
    const flow = {
      deviceId: 'd1',
      cohortId: 'c1',
      ssmId: null,
      projectId: null,
      definitionIds: ['scct-tavi/annulus-area@1', '8d0c1f9e-0000-4000-8000-000000000001'],
      orderId: null,
    };
    const path = flowPath('define', flow);
    expect(path.startsWith('/measurement/define?')).toBe(true);
    expect(readFlow(new URLSearchParams(path.split('?')[1]))).toEqual(flow);
    expect(flowPath('select-patient-cohort', {})).toBe('/measurement/select-patient-cohort');
    expect(subjectOf(flow)).toEqual({ kind: 'cohort', cohortId: 'c1' });
  });

  it('round-trips a shape model with its project, and needs both to measure one', () => {
    const flow = { deviceId: 'd1', cohortId: null, ssmId: 's1', projectId: 'p1', definitionIds: ['m1'], orderId: 'o1' };
    const read = readFlow(new URLSearchParams(flowPath('order', flow).split('?')[1]));
    expect(read).toEqual(flow);
    expect(subjectOf(read)).toEqual({ kind: 'ssm', projectId: 'p1', ssmId: 's1' });
    expect(flowPath('define', { ssmId: 's1' })).toBe('/measurement/define');
    expect(subjectOf({ ...flow, projectId: null })).toBeNull();
  });
});

describe('distributions', () => {
  it('bins finite values into equal-width bins, the maximum in the last bin, failures left out', () => {
    const bins = histogram([1, 2, 3, 4, 5, 6, 7, 8, null, Number.NaN]);
    expect(bins).toHaveLength(4);
    expect(bins.reduce((a, b) => a + b.count, 0)).toBe(8);
    expect(bins[3]).toMatchObject({ to: 8, count: 2 });
    expect(histogram([5, 5])).toEqual([{ from: 5, to: 5, count: 2 }]);
    expect(histogram([null])).toEqual([]);
  });

  it('summarises mean and sample SD', () => {
    expect(summary([2, 4, 4, 4, 5, 5, 7, 9])).toEqual({ mean: 5, sd: Math.sqrt(32 / 7), n: 8 });
    expect(summary([null])).toBeNull();
  });
});
