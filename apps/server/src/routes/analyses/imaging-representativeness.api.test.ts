import type { Analysis, Representativeness } from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imagingProjectWorld } from '../../../test/fixtures/imaging-project';
import { errorOf, json, signedIn, type Person } from '../../../test/fixtures/workspace.fixtures';
import { pdfPhrases } from '../../../../../test/helpers/pdf-text';
import type { TestServer } from '../../../test/helpers/test-server';

// Comparison with a reference population for an imaging cohort (issue 19): the parameters are those measured on the
// delivered surfaces (LV EDV, ESV, stroke volume, EF), a reference of real patients names them by key or label, and
// the answers are checked against figures computed here from the values the test wrote (the two-sample KS statistic
// as the largest gap of the two empirical CDFs, the standardised difference, the share of the reference's range
// covered).

let server: TestServer;
let admin: Person;
let path = '';
let analysisPath = '';

/** Patient i (1…24): EDV 100 + 3i mL, ESV 40 + i mL (so SV 60 + 2i, EF (60 + 2i) / (100 + 3i)). */
const edv = (i: number) => 100 + 3 * i;
const esv = (i: number) => 40 + i;
const ids = Array.from({ length: 24 }, (_, k) => k + 1);
const patients = ids.map((i) => ({
  patient: `P${String(i).padStart(2, '0')}`,
  models: [
    { organ: 'lv-blood-pool', phase: 'end-diastole', volume: edv(i) * 1000 },
    { organ: 'lv-blood-pool', phase: 'end-systole', volume: esv(i) * 1000 },
  ],
}));
const cohortEdv = ids.map(edv);
const cohortSv = ids.map((i) => edv(i) - esv(i));

const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;
const sd = (v: readonly number[]) => Math.sqrt(v.reduce((a, b) => a + (b - mean(v)) ** 2, 0) / (v.length - 1));
/** The two-sample KS statistic by brute force: the largest gap of the two empirical CDFs over every value seen. */
function ksStatistic(a: readonly number[], b: readonly number[]): number {
  const cdf = (v: readonly number[], x: number) => v.filter((y) => y <= x).length / v.length;
  return Math.max(...[...a, ...b].map((x) => Math.abs(cdf(a, x) - cdf(b, x))));
}

beforeAll(async () => {
  let deviceId: string;
  let projectId: string;
  let dataset: string;
  ({ server, admin, deviceId, projectId, datasetId: dataset } = await imagingProjectWorld(patients));
  const analysis = await json<Analysis>(
    await admin.browser.postJson(`/api/devices/${deviceId}/projects/${projectId}/analyses`, {
      cohortId: dataset,
      parameters: ['lvEdv_mL', 'strokeVolume_mL', 'lvef_pct'],
    }),
  );
  analysisPath = `/api/devices/${deviceId}/projects/${projectId}/analyses/${analysis.id}`;
  path = `${analysisPath}/representativeness`;
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe('reference comparison of an imaging cohort', () => {
  it('finds nothing to tell apart in a reference of the cohort’s own measured values, named by label with units', async () => {
    const csv = [
      'study id,LV end-diastolic volume (mL),Stroke volume (mL)',
      ...ids.map((i, k) => `S${i},${cohortEdv[k]},${cohortSv[k]}`),
    ].join('\n');
    const response = await admin.browser.postJson(path, {
      source: 'The cohort itself',
      reference: { kind: 'patients', csv },
      parameters: ['lvEdv_mL', 'strokeVolume_mL'],
      permutations: 99,
    });
    expect(response.status, await response.clone().text()).toBe(200);
    const result = await json<Representativeness>(response);
    expect(result).toMatchObject({
      cohort: { name: 'Our CTs', patients: 24, modelVersion: 'none (own imaging data)' },
      referencePatients: 24,
      ignoredColumns: ['study id'],
    });
    expect(result.parameters.map((p) => [p.key, p.label, p.unit])).toEqual([
      ['lvEdv_mL', 'LV end-diastolic volume', 'mL'],
      ['strokeVolume_mL', 'Stroke volume', 'mL'],
    ]);
    for (const p of result.parameters) {
      expect(p.ks).toEqual({ statistic: 0, pValue: 1, method: 'exact' });
      expect(p.range).toEqual({ rangeFraction: 1, patientFraction: 1 });
      expect(p.standardisedDifference).toBeCloseTo(0, 12);
      expect(p.sdRatio).toBeCloseTo(1, 12);
    }
    expect(result.energy!.energy).toBeCloseTo(0, 10);
  }, 60_000);

  it('tells apart a reference of larger hearts, with the figures computed here', async () => {
    // 30 reference patients: EDV 160 + 4j mL (j = 0…29), well above most of the cohort's 103…172 mL.
    const reference = Array.from({ length: 30 }, (_, j) => 160 + 4 * j);
    const csv = ['lvEdv_mL', ...reference.map(String)].join('\n');
    const result = await json<Representativeness>(
      await admin.browser.postJson(path, {
        source: 'Larger hearts',
        reference: { kind: 'patients', csv },
        parameters: ['lvEdv_mL'],
        permutations: 0,
      }),
    );
    const [p] = result.parameters;
    expect(p!.ks!.statistic).toBeCloseTo(ksStatistic(cohortEdv, reference), 12);
    expect(p!.ks!.statistic).toBeGreaterThan(0.8);
    expect(p!.ks!.pValue).toBeLessThan(1e-6);
    expect(p!.standardisedDifference).toBeCloseTo((mean(cohortEdv) - mean(reference)) / sd(reference), 10);
    expect(p!.sdRatio).toBeCloseTo(sd(cohortEdv) / sd(reference), 10);
    // The cohort's range 103…172 covers 160…172 of the reference's 160…276, and 4 of its 30 patients (160…172).
    expect(p!.range!.rangeFraction).toBeCloseTo((172 - 160) / (276 - 160), 12);
    expect(p!.range!.patientFraction).toBeCloseTo(4 / 30, 12);
  }, 60_000);

  it('compares with published statistics of a measured parameter, and puts the comparison in the report', async () => {
    const result = await json<Representativeness>(
      await admin.browser.postJson(path, {
        source: 'Published LV EF',
        reference: { kind: 'summary', parameters: [{ key: 'lvef_pct', mean: 60, sd: 5, n: 1000 }] },
        parameters: ['lvef_pct'],
      }),
    );
    const ef = ids.map((i) => (100 * (edv(i) - esv(i))) / edv(i));
    expect(result.parameters[0]!.standardisedDifference).toBeCloseTo((mean(ef) - 60) / 5, 10);
    expect(result.parameters[0]!.sdRatio).toBeCloseTo(sd(ef) / 5, 10);

    const report = await admin.browser.postJson(`${analysisPath}/report`, {
      representativeness: {
        source: 'The cohort itself, for the report',
        reference: {
          kind: 'patients',
          csv: ['Stroke volume', ...cohortSv.map(String)].join('\n'),
        },
        parameters: ['strokeVolume_mL'],
        permutations: 0,
      },
    });
    expect(report.status, await report.clone().text()).toBe(200);
    const text = pdfPhrases(new Uint8Array(await report.arrayBuffer()));
    expect(text).toContain('Your own imaging data');
    expect(text).toContain('Reference: 24 patients (CSV)');
    expect(text).toContain('Source: The cohort itself, for the report');
    expect(text).toContain('KS D 0, p 1; reference range covered 100.0 %');
  }, 60_000);

  it('refuses parameters the imaging cohort does not have and a reference naming none of its parameters', async () => {
    const catalogue = await admin.browser.postJson(path, {
      source: 'Virtual catalogue',
      reference: { kind: 'patients', csv: 'height_cm\n170\n180' },
      parameters: ['height_cm'],
    });
    expect(catalogue.status).toBe(422);
    expect(await errorOf(catalogue)).toMatchObject({
      code: 'unknown_parameter',
      message:
        'Only the cohort’s parameters measured on the delivered surfaces can be compared with a reference; not: height_cm.',
    });
    const unnamed = await admin.browser.postJson(path, {
      source: 'Annulus sizes',
      reference: { kind: 'patients', csv: 'Aortic annulus perimeter (mm)\n70\n75' },
    });
    expect(unnamed.status).toBe(400);
    expect(await errorOf(unnamed)).toMatchObject({ code: 'invalid_reference' });
    const lacking = await admin.browser.postJson(path, {
      source: 'EDV only',
      reference: { kind: 'patients', csv: ['lvEdv_mL', ...cohortEdv.map(String)].join('\n') },
      parameters: ['lvEdv_mL', 'lvef_pct'],
    });
    expect(lacking.status).toBe(422);
    expect(await errorOf(lacking)).toMatchObject({
      code: 'reference_lacks_parameter',
      message: 'The reference file has no column for LV ejection fraction. Add it or leave the parameter out.',
    });
    const outsider = await signedIn(server);
    expect(
      (await outsider.browser.postJson(path, { source: 'x', reference: { kind: 'patients', csv: 'a\n1' } })).status,
    ).toBe(404);
  }, 60_000);
});
