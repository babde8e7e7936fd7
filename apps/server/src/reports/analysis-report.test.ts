import { analysisSettingsSchema, type MeasurementOrder, type Representativeness } from '@insilico/contracts';
import { describe, expect, it } from 'vitest';
import { pdfContentStreams, pdfPhrases } from '../../../../test/helpers/pdf-text';
import { measurementsUsed, renderAnalysisReport, type AnalysisReportInput } from './analysis-report';
import { overlaidDensities } from './pdf';

const ids = Array.from({ length: 25 }, (_, i) => `SYN-${String(i).padStart(2, '0')}`);
const area = ids.map((_, i) => 310 + 7 * i);
const perimeter = ids.map((_, i) => 62 + 0.7 * i);
// Sizes S (area 300–400, perimeter 60–70) and L (area 400–500, perimeter 70–80): by area alone and by perimeter
// alone each patient gets a size; SYN-03 (area 331 → S, perimeter 75 → L), SYN-12 (394 → S, 70.4 → L) and SYN-20
// (450 → L, 65 → S) get different ones, so no size fits them on both.
perimeter[3] = 75;
area[20] = 450;
perimeter[20] = 65;
const measured = ids.map((_, i) => (i === 23 ? Number.NaN : 24 + i / 10));
const orderId = '00000000-0000-4000-8000-0000000000aa';

const representativeness: Representativeness = {
  analysisId: 'a1',
  cohort: { id: 'c1', name: 'TAVI twenty-five', modelVersion: 'anatomy-population-1', patients: 25 },
  source: 'Example CT registry, n = 506',
  referenceKind: 'summary',
  referencePatients: null,
  ignoredColumns: [],
  parameters: [
    {
      key: 'aorticAnnulusArea_mm2',
      label: 'Aortic annulus area',
      unit: 'mm²',
      cohort: { n: 25, mean: 394, sd: 51, p5: null, p50: null, p95: null },
      reference: { n: 506, mean: 450, sd: 80, p5: null, p50: null, p95: null },
      referenceValues: null,
      ks: null,
      range: null,
      standardisedDifference: -0.7,
      sdRatio: 0.6375,
    },
  ],
  energy: null,
  mahalanobis: { distances: [1, 2], expected: [1, 2], degreesOfFreedom: 1, beyond95: 0.12 },
  createdAt: '2026-11-28T06:00:00.000Z',
};

const input: AnalysisReportInput = {
  generatedAt: '2026-11-28T07:00:00.000Z',
  generatedBy: 'Ada Member',
  codeVersion: '0.1.0',
  analysis: {
    id: 'a1',
    name: 'Annulus sizing',
    revision: 4,
    updatedAt: '2026-11-28T06:30:00.000Z',
    parameters: ['aorticAnnulusArea_mm2', 'aorticAnnulusPerimeter_mm', `measurement.${orderId}.0`],
    droppedParameters: [],
    settings: {
      ...analysisSettingsSchema.parse({}),
      deviceFits: [
        {
          versionId: null,
          label: 'Ring valve v2',
          sizes: [
            {
              name: 'S',
              ranges: [
                { parameter: 'aorticAnnulusArea_mm2', min: 300, max: 400 },
                { parameter: 'aorticAnnulusPerimeter_mm', min: 60, max: 70 },
              ],
            },
            {
              name: 'L',
              ranges: [
                { parameter: 'aorticAnnulusArea_mm2', min: 400, max: 500 },
                { parameter: 'aorticAnnulusPerimeter_mm', min: 70, max: 80 },
              ],
            },
          ],
        },
      ],
    },
    excluded: ['SYN-24'],
  },
  cohort: { name: 'TAVI twenty-five', modelVersion: 'anatomy-population-1', synthetic: true },
  table: {
    cohortId: 'c1',
    synthetic: true,
    patients: ids,
    sex: ids.map(() => 'female'),
    age: ids.map(() => 80),
    parameters: [
      { key: 'aorticAnnulusArea_mm2', group: 'cardiac', label: 'Aortic annulus area', unit: 'mm²', decimals: 0 },
      {
        key: 'aorticAnnulusPerimeter_mm',
        group: 'cardiac',
        label: 'Aortic annulus perimeter',
        unit: 'mm',
        decimals: 1,
      },
      {
        key: `measurement.${orderId}.0`,
        group: 'measurement',
        label: 'Annulus diameter (measured)',
        unit: 'mm',
        decimals: 1,
      },
    ],
    values: [area, perimeter, measured],
  },
  measurements: [
    {
      key: `measurement.${orderId}.0`,
      name: 'Annulus diameter',
      version: 2,
      unit: 'mm',
      phase: 'end-systole',
      orderedAt: '2026-11-28T05:00:00.000Z',
      orderedBy: 'Ada Member',
      failed: 1,
      corrected: 1,
    },
  ],
  representativeness,
};

describe('the population analysis report PDF', () => {
  it('says what the analysis found: patients left out, distributions, device fit and its sizing disagreement', async () => {
    const bytes = await renderAnalysisReport(input);
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const text = pdfPhrases(bytes);
    expect(text).toContain('Population analysis report: Annulus sizing');
    expect(text).toContain('Population model version: anatomy-population-1');
    expect(text).toContain('Patients in the cohort: 25');
    // SYN-24 excluded, SYN-23 has no measured value.
    expect(text).toContain('Patients analysed: 23');
    expect(text).toContain('Excluded by a user: 1: SYN-24');
    expect(text).toContain('Left out without a value of a parameter in use: 1: SYN-23');
    // The area over the 23: 310 + 7i (i 0–22) with SYN-20 at 450 → mean (Σ + 450 − 450) / 23 = 387.
    expect(text).toContain('Aortic annulus area (mm²)');
    expect(text).toContain('n 23, mean 387,');
    expect(text).toContain('Annulus diameter (measured) (mm) - measured on the anatomy');
    // S: area ≤ 400 and perimeter ≤ 70: i 0–11 except SYN-03 → 11; L: i 13–22 except SYN-20 → 9 (SYN-12 fits neither).
    expect(text).toContain('S (Aortic annulus area (mm²) 300-400, Aortic annulus perimeter (mm) 60-70): 11 of 23');
    expect(text).toContain('L (Aortic annulus area (mm²) 400-500, Aortic annulus perimeter (mm) 70-80): 9 of 23');
    expect(text).toContain(
      'Sizing disagreement: by Aortic annulus area (mm²), Aortic annulus perimeter (mm) the sizes picked differ for 3 of 23',
    );
    expect(text).toContain('SYN-03, SYN-12, SYN-20');
    expect(text).toContain(
      'Annulus diameter (mm), definition version 2, at end-systole; ordered 2026-11-28T05:00:00.000Z by Ada Member; 1 corrected by hand, 1 without a value',
    );
    expect(text).toContain('Source: Example CT registry, n = 506');
    expect(text).toContain('12.0 % of the cohort beyond the reference');
    expect(text).toContain('chi-square(1) quantile');
    expect(text).toContain('Code version: 0.1.0');
  });

  it('gives the same bytes for the same input and says when no reference was given', async () => {
    const without = { ...input, representativeness: null };
    const a = await renderAnalysisReport(without);
    expect(Buffer.from(a).equals(Buffer.from(await renderAnalysisReport(without)))).toBe(true);
    expect(pdfPhrases(a)).toContain('No reference population was given for this report.');
  });
});

/** The reference's line colour (#d95f02) as pdfkit sets a stroke colour (SCN). */
const referenceStroke = /0\.85098\d* 0\.37254\d* 0\.00784\d* SCN/g;
const strokes = (bytes: Uint8Array) =>
  pdfContentStreams(bytes).reduce((n, content) => n + (content.match(referenceStroke)?.length ?? 0), 0);

describe('the distributions overlaid in the report', () => {
  it('draws each compared parameter over the reference: its normal density from published mean and SD', async () => {
    const bytes = await renderAnalysisReport(input);
    const text = pdfPhrases(bytes);
    expect(text).toContain('Bars: cohort (n 25)');
    expect(text).toContain('Line: reference, normal (mean 450, SD 80)');
    expect(strokes(bytes)).toBe(1);
    expect(strokes(await renderAnalysisReport({ ...input, representativeness: null }))).toBe(0);
  });

  it('draws a patients’ CSV reference as the density of its values over the cohort’s bins', async () => {
    const first = representativeness.parameters[0]!;
    const withValues: AnalysisReportInput = {
      ...input,
      representativeness: {
        ...representativeness,
        referenceKind: 'patients',
        referencePatients: 6,
        parameters: [
          { ...first, referenceValues: [380, 420, 450, 470, 500, 520] },
          {
            ...first,
            key: 'aorticAnnulusPerimeter_mm',
            label: 'Aortic annulus perimeter',
            unit: 'mm',
            referenceValues: [70, 72, 75, 77, 80, 82],
          },
        ],
      },
    };
    const bytes = await renderAnalysisReport(withValues);
    const text = pdfPhrases(bytes);
    expect(text).toContain('Line: reference (n 6) density over the same bins');
    expect(strokes(bytes)).toBe(2);
  });

  it('gives densities that each integrate to one over bins covering both populations', () => {
    const cohort = [1, 2, 2, 3, 3, 3, 4, 4, 5];
    for (const reference of [
      { values: [4, 6, 7, 8, 9], mean: 6.8, sd: 1.9 },
      { values: null, mean: 10, sd: 2 },
    ]) {
      const d = overlaidDensities(cohort, reference);
      const width = (i: number) => d.edges[i + 1]! - d.edges[i]!;
      expect(d.cohort.reduce((s, v, i) => s + v * width(i), 0)).toBeCloseTo(1, 12);
      if (d.reference) expect(d.reference.reduce((s, v, i) => s + v * width(i), 0)).toBeCloseTo(1, 12);
      expect(d.edges[0]).toBe(reference.values ? 1 : Math.min(1, 10 - 6));
      expect(d.edges.at(-1)).toBe(reference.values ? 9 : 16);
    }
  });
});

describe('the measurements a report names', () => {
  const cell = (automatic: number | null, corrected: number | null = null) => ({
    automatic,
    failure: automatic === null ? 'This patient has no end-systole images.' : null,
    corrected,
    value: corrected ?? automatic,
  });
  const order: MeasurementOrder = {
    id: orderId,
    deviceId: 'd',
    cohortId: 'c1',
    cohortName: 'TAVI twenty-five',
    status: 'ready',
    progress: 1,
    error: null,
    measurements: [
      { definitionId: 'm1', version: 2, name: 'Annulus diameter', unit: 'mm', phase: 'end-systole' },
      { definitionId: 'm2', version: 1, name: 'STJ height', unit: 'mm', phase: 'end-systole' },
      { definitionId: 'm3', version: 3, name: 'Annulus area', unit: 'mm²', phase: 'end-systole' },
    ],
    patients: [
      { patientId: 'SYN-00', cells: [cell(24), cell(18), cell(400)], correction: null },
      { patientId: 'SYN-01', cells: [cell(null), cell(null), cell(null)], correction: null },
      {
        patientId: 'SYN-02',
        cells: [cell(25, 26), cell(19, 17), cell(410, 420)],
        correction: { landmarks: ['aortic_annulus'], by: null, at: '2026-11-28T05:30:00.000Z' },
      },
    ],
    createdAt: '2026-11-28T05:00:00.000Z',
    createdBy: { id: 'u', fullName: 'Ada Member' },
  };

  it('names those analysed or used by a size, with their failures and hand corrections', () => {
    const settings = {
      ...analysisSettingsSchema.parse({}),
      deviceFits: [
        {
          versionId: null,
          label: 'By area',
          sizes: [{ name: 'S', ranges: [{ parameter: `measurement.${orderId}.2`, min: 300, max: 450 }] }],
        },
      ],
    };
    // The first is the measurement the report test above names.
    expect(measurementsUsed([order], { parameters: [`measurement.${orderId}.0`, 'height_cm'], settings })).toEqual([
      input.measurements[0],
      expect.objectContaining({ key: `measurement.${orderId}.2`, name: 'Annulus area', version: 3, failed: 1 }),
    ]);
  });
});
