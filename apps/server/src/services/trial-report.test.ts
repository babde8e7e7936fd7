import { describe, expect, it } from 'vitest';
import { histogram, outcomeFigures } from './trial-report-figures';
import { pdfContentStreams, pdfPhrases } from '../../../../test/helpers/pdf-text';
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
  const rule = { landmark: 'aortic_annulus', depth_mm: 2, annulusRange_mm: { min: 20, max: 26 } } as const;
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
      placement: rule,
      parameters: { heartRate_bpm: 70 },
      counts: { total: 3, done: 2, failed: 1, running: 0, queued: 0, cancelled: 0 },
    },
    subject: {
      kind: 'cohort',
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
      { patientId: 'SYN-1', label: 'SYN-1', status: 'done', stage: null, error: null, placement: rule },
      { patientId: 'SYN-2', label: 'SYN-2', status: 'done', stage: null, error: null, placement: rule },
      {
        patientId: 'SYN-3',
        label: 'SYN-3',
        status: 'failed',
        stage: 'placement',
        error: 'The aortic annulus measures 27.4 mm.',
        placement: rule,
      },
    ],
    outcomes: [outcome([12, 25, null], { min: null, max: 20 })],
    comparison: null,
    solver: { resolvedParameters: { heartRate_bpm: 70 }, scenarioVersion: 'scenarios-1', endTime_s: 0.8 },
    provenance: {
      codeVersion: '0.1.0',
      workers: ['worker-a'],
      runs: [
        { label: 'SYN-1', workerId: 'worker-a', attempts: 1, seconds: 120 },
        { label: 'SYN-2', workerId: 'worker-a', attempts: 1, seconds: 131 },
      ],
    },
  };

  it('renders a PDF, the same bytes for the same input', async () => {
    const a = await renderTrialReport(input);
    const b = await renderTrialReport(input);
    expect(Buffer.from(a.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });

  it('states the rule once when every patient was placed by it', async () => {
    const text = pdfPhrases(await renderTrialReport(input));
    expect(text).toContain('snap to the aortic annulus, depth 2 mm, annulus 20–26 mm (depth along the annulus normal)');
    expect(text).not.toContain('Placed by an earlier rule');
  });

  it('names which patients were placed by which rule after a retry corrected it', async () => {
    const corrected = { ...rule, annulusRange_mm: { min: 20, max: 29 } };
    const retried: TrialReportInput = {
      ...input,
      trial: { ...input.trial, placement: corrected },
      patients: input.patients.map((p) =>
        p.patientId === 'SYN-3' ? { ...p, status: 'done', stage: null, error: null, placement: corrected } : p,
      ),
    };
    const text = pdfPhrases(await renderTrialReport(retried));
    expect(text).toContain(
      'snap to the aortic annulus, depth 2 mm, annulus 20–29 mm (depth along the annulus normal), set by a retry; placed by it: SYN-3',
    );
    expect(text).toContain(
      'snap to the aortic annulus, depth 2 mm, annulus 20–26 mm (depth along the annulus normal): SYN-1, SYN-2',
    );
  });

  it('spells out the symbols the standard fonts cannot encode', () => {
    expect(pdfText('Δp ≤ 20 mmHg → √x')).toBe('delta p <= 20 mmHg -> sqrtx');
    expect(pdfText('Ring valve – 27.4 mm² 😀')).toBe('Ring valve – 27.4 mm² ?');
  });

  it('describes an SSM trial’s instances as synthetic shapes of the model, with their mode scores', async () => {
    const ssmInput: TrialReportInput = {
      ...input,
      subject: {
        kind: 'ssm',
        id: '00000000-0000-4000-8000-0000000000aa',
        name: 'Roots SSM',
        builtAt: '2026-11-27T10:00:00.000Z',
        codeVersion: '0.1.0',
        meshModelVersion: 'anatomy-mesh-1',
        seed: 7,
        cohorts: ['TAVI cohort'],
        shapes: 10,
        organs: ['aortic_root'],
        phase: 'end-diastole',
        correspondence: 'nearest points',
        alignment: 'generalised Procrustes',
        modeCount: 9,
        modesKept: 4,
        explainedKept: 0.96,
        modes: [1, 2],
        instances: [
          { name: 'A', shape: '0,1', shapeInWords: 'mode 2 +1 SD', modeScores: [0, 1] },
          { name: 'B', shape: '2', shapeInWords: 'mode 1 +2 SD', modeScores: [2, 0] },
          { name: 'C', shape: '-1', shapeInWords: 'mode 1 −1 SD', modeScores: [-1, 0] },
        ],
      },
      patients: [
        { patientId: 'room-a', label: 'A (mode 2 +1 SD)', status: 'done', stage: null, error: null, placement: null },
        { patientId: 'room-b', label: 'B (mode 1 +2 SD)', status: 'done', stage: null, error: null, placement: null },
        { patientId: 'room-c', label: 'C (mode 1 −1 SD)', status: 'done', stage: null, error: null, placement: null },
      ],
      trial: { ...input.trial, counts: { total: 3, done: 3, failed: 0, running: 0, queued: 0, cancelled: 0 } },
      outcomes: [outcome([10, 16, 9], { min: null, max: 12 })],
      provenance: {
        ...input.provenance,
        runs: [{ label: 'B (mode 1 +2 SD)', workerId: 'w', attempts: 1, seconds: 3 }],
      },
    };
    const text = pdfPhrases(await renderTrialReport(ssmInput));
    expect(text).toContain('Synthetic shapes from the statistical shape model Roots SSM, not patients');
    expect(text).toContain('Shape model');
    expect(text).toContain('statistical shape model 00000000-0000-4000-8000-0000000000aa, built 2026-11-27');
    expect(text).toContain('9, 4 kept (96.0 % of the variance)');
    expect(text).toContain('B: mode 1 +2 SD; mode scores (SD) mode 1 2, mode 2 0');
    expect(text).toContain('Instances: 3: 3 done');
    expect(text).toContain('Extreme instances: lowest C (mode 1 -1 SD) (9), highest B (mode 1 +2 SD) (16)');
    // numpy.corrcoef([0, 2, -1], [10, 16, 9]) = 0.97986; with mode 2's scores [1, 0, 0]: -0.38125.
    expect(text).toContain('Pearson r with the mode scores: mode 1 0.9799, mode 2 -0.3812');
    expect(text).toContain('2 of 3 instances pass, 66.7 % (no interval');
    expect(text).not.toContain('Wilson');
    expect(text).toContain('Every instance finished.');
    expect(text).toContain('B (mode 1 +2 SD): 3 s, worker w');
    expect(text).not.toContain('Cohort');
  });

  it('draws device CI’s comparison with the earlier version: one bar per patient compared, the verdict changes', async () => {
    const withComparison: TrialReportInput = {
      ...input,
      comparison: {
        basedOn: { name: 'Ring valve trial v1', deviceVersionName: 'Ring valve' },
        outcomes: [
          {
            label: 'Pressure drop',
            unit: 'mmHg',
            paired: 2,
            meanDifference: 5,
            criterion: { min: null, max: 20 },
            differences: [
              { label: 'SYN-1', difference: 20 },
              { label: 'SYN-2', difference: -10 },
            ],
            passToFail: ['SYN-1'],
            failToPass: ['SYN-2'],
          },
        ],
        leftOut: ['Mine'],
      },
    };
    const bytes = await renderTrialReport(withComparison);
    const text = pdfPhrases(bytes);
    expect(text).toContain('Comparison with Ring valve trial v1 (Ring valve)');
    expect(text).toContain('minus its outcome on Ring valve, where both runs have a value');
    expect(text).toContain('Not compared (their definitions differ between the two trials): Mine.');
    expect(text).toContain('2 patients with values on both; mean difference 5 mmHg');
    expect(text).toContain('Verdict changes (Pressure drop <= 20 mmHg): pass -> fail SYN-1; fail -> pass SYN-2');
    expect(text).toContain('+20');
    // The bars, 300 / 2 − 2 = 148 pt wide (pdfkit writes each as `x y w h re`): SYN-1's (+20, the largest) up from
    // the zero line at full height (30 pt), SYN-2's (−10) down from it at half that (15 pt).
    const drawn = pdfContentStreams(bytes).join('\n');
    const up = /\b71 ([\d.]+) 148 30 re\b/.exec(drawn);
    const down = /\b221 ([\d.]+) 148 15 re\b/.exec(drawn);
    expect(up && down).toBeTruthy();
    expect(Number(down![1]) - Number(up![1])).toBeCloseTo(30, 3);
    // Without the comparison there is no such section.
    expect(pdfPhrases(await renderTrialReport(input))).not.toContain('Comparison with');
  });
});
