import { describe, expect, it } from 'vitest';
import { histogram, outcomeFigures } from './trial-report-figures';
import { pdfText } from '../reports/pdf';
import { renderTrialReport, type TrialReportInput } from './trial-report';

const outcome = (values: (number | null)[], criterion: { min: number | null; max: number | null } | null) => ({
  key: 'pressure_drop',
  label: 'Pressure drop',
  unit: 'mmHg',
  description: 'Largest mean-pressure difference.',
  values,
  criterion,
});

describe('outcome figures of a trial report', () => {
  it('counts passes under the criterion with the Wilson interval of statsmodels’ proportion_confint', () => {
    const ids = Array.from({ length: 12 }, (_, i) => `SYN-${i}`);
    // 10 values (2 patients without one), 7 of them ≤ 20 mmHg.
    const values = [5, 8, 12, 15, 18, 19, 20, 21, 30, 45, null, null];
    const f = outcomeFigures(ids, outcome(values, { min: null, max: 20 }));
    expect(f.missing).toBe(2);
    expect(f.pass).toMatchObject({ count: 7, n: 10, fraction: 0.7 });
    // statsmodels.stats.proportion.proportion_confint(7, 10, method='wilson') = (0.396774, 0.892208)
    expect(f.pass!.lower).toBeCloseTo(0.396774, 5);
    expect(f.pass!.upper).toBeCloseTo(0.892208, 5);
    expect(f.lowest).toEqual({ patientId: 'SYN-0', value: 5 });
    expect(f.highest).toEqual({ patientId: 'SYN-9', value: 45 });
    expect(f.summary!.n).toBe(10);
    expect(f.summary!.median).toBe(18.5);
  });

  it('has no pass fraction without a criterion and nothing without values', () => {
    expect(outcomeFigures(['a', 'b'], outcome([1, 2], null)).pass).toBeNull();
    const none = outcomeFigures(['a', 'b'], outcome([null, null], { min: 0, max: 1 }));
    expect([none.summary, none.pass, none.histogram, none.missing]).toEqual([null, null, null, 2]);
  });

  it('bins by Sturges over [min, max] with the last bin closed', () => {
    // n = 8: ⌈log₂ 8⌉ + 1 = 4 bins of width 2 over [0, 8].
    const h = histogram([0, 1, 2, 3, 4, 5, 6, 8]);
    expect(h.edges).toEqual([0, 2, 4, 6, 8]);
    expect(h.counts).toEqual([2, 2, 2, 2]);
    expect(histogram([3, 3, 3])).toEqual({ edges: [3, 3], counts: [3] });
  });
});

describe('the trial report PDF', () => {
  const input: TrialReportInput = {
    generatedAt: '2026-11-28T03:00:00.000Z',
    generatedBy: 'Ada Member',
    trial: {
      id: '00000000-0000-4000-8000-000000000001',
      name: 'Ring valve trial',
      status: 'completed',
      kind: 'fluid',
      resolution: 'coarse',
      deviceVersionName: 'Ring valve v2',
      basedOn: { name: 'Ring valve trial v1', deviceVersionName: 'Ring valve' },
      createdAt: '2026-11-28T02:00:00.000Z',
      createdBy: 'Ada Member',
      placement: { landmark: 'aortic_annulus', depth_mm: 2, annulusRange_mm: { min: 20, max: 26 } },
      parameters: { heartRate_bpm: 70 },
      counts: { total: 3, done: 2, failed: 1, running: 0, queued: 0, cancelled: 0 },
    },
    cohort: {
      name: 'TAVI cohort',
      description: '',
      size: 3,
      modelVersion: 'anatomy-population-1',
      meshModelVersion: 'anatomy-mesh-1',
      populationSeed: 1,
      populationSize: 1000,
      sampleSeed: 2,
      criteria: {},
    },
    patients: [
      { patientId: 'SYN-1', status: 'done', stage: null, error: null },
      { patientId: 'SYN-2', status: 'done', stage: null, error: null },
      { patientId: 'SYN-3', status: 'failed', stage: 'placement', error: 'The aortic annulus measures 27.4 mm.' },
    ],
    outcomes: [outcome([12, 25, null], { min: null, max: 20 })],
    solver: { resolvedParameters: { heartRate_bpm: 70 }, scenarioVersion: 'scenarios-1', endTime_s: 0.8 },
    provenance: {
      codeVersion: '0.1.0',
      workers: ['worker-a'],
      runs: [
        { patientId: 'SYN-1', workerId: 'worker-a', attempts: 1, seconds: 120 },
        { patientId: 'SYN-2', workerId: 'worker-a', attempts: 1, seconds: 131 },
      ],
    },
  };

  it('renders a PDF, the same bytes for the same input', async () => {
    const a = await renderTrialReport(input);
    const b = await renderTrialReport(input);
    expect(Buffer.from(a.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('spells out the symbols the standard fonts cannot encode', () => {
    expect(pdfText('Δp ≤ 20 mmHg → √x')).toBe('delta p <= 20 mmHg -> sqrtx');
    expect(pdfText('Ring valve – 27.4 mm² 😀')).toBe('Ring valve – 27.4 mm² ?');
  });
});
