import { createHash } from 'node:crypto';
import { analysisSettingsSchema } from '@insilico/contracts';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../events/chain';
import type { AnalysisReportInput } from './analysis-report';
import { snapshotHashOf } from '../services/result-snapshots';
import { analysisSnapshot, type AnalysisSnapshotInput } from './analysis-snapshot';

// 24 patients; SYN-05 has no height, SYN-23 is excluded: 22 analysed.
const ids = Array.from({ length: 24 }, (_, i) => `SYN-${String(i).padStart(2, '0')}`);
const area = ids.map((_, i) => 300 + 9 * i);
const height = ids.map((_, i) => (i === 5 ? Number.NaN : 150 + ((i * 7) % 40)));
const settings = analysisSettingsSchema.parse({});

const prepared = (
  values: number[][] = [area, height],
): Pick<AnalysisReportInput, 'analysis' | 'table' | 'measurements'> => ({
  analysis: {
    id: 'a1',
    name: 'Annulus',
    revision: 3,
    updatedAt: '',
    parameters: ['aorticAnnulusArea_mm2', 'height_cm'],
    droppedParameters: [],
    settings,
    excluded: ['SYN-23'],
  },
  table: {
    cohortId: 'c1',
    synthetic: true,
    patients: ids,
    sex: ids.map(() => 'female'),
    age: ids.map(() => 80),
    parameters: [
      { key: 'aorticAnnulusArea_mm2', group: 'cardiac', label: 'Aortic annulus area', unit: 'mm²', decimals: 0 },
      { key: 'height_cm', group: 'body', label: 'Height', unit: 'cm', decimals: 0 },
    ],
    values,
  },
  measurements: [],
});

const input = (overrides: Partial<AnalysisSnapshotInput> = {}): AnalysisSnapshotInput => ({
  codeVersion: '1.0.0',
  analysisId: 'a1',
  revision: 3,
  cohort: { id: 'c1', name: 'Twenty-four', modelVersion: 'anatomy-population-1' },
  saved: { name: 'Annulus', parameters: ['aorticAnnulusArea_mm2', 'height_cm'], settings, excluded: ['SYN-23'] },
  prepared: prepared(),
  refusal: null,
  ...overrides,
});

describe('an analysis results snapshot', () => {
  it('holds the results of the analysed patients, as plain JSON whose canonical form gives its hash', () => {
    const { content, contentHash } = analysisSnapshot(input());
    const results = content.results as {
      patients: string[];
      analysis: { patients: number; parameters: { summary: { mean: number } }[] };
    };
    expect(content.leftOut).toEqual({ excluded: ['SYN-23'], withoutValue: ['SYN-05'] });
    expect(results.patients).toHaveLength(22);
    expect(results.patients).not.toContain('SYN-05');
    expect(results.analysis.patients).toBe(22);
    // The mean area of the analysed patients, by hand: 300 + 9 × (mean of 0…22 without 5).
    const kept = ids.map((_, i) => i).filter((i) => i !== 5 && i !== 23);
    const mean = 300 + (9 * kept.reduce((a, b) => a + b, 0)) / kept.length;
    expect(results.analysis.parameters[0]!.summary.mean).toBeCloseTo(mean, 9);
    // Plain JSON (no typed arrays, no NaN): it survives a JSON round trip, and the hash is the canonical JSON's.
    expect(JSON.parse(JSON.stringify(content))).toEqual(content);
    expect(contentHash).toBe(createHash('sha256').update(canonicalJson(content)).digest('hex'));
    expect(snapshotHashOf(JSON.parse(JSON.stringify(content)))).toBe(contentHash);
  });

  it('gives the same hash for the same input, another for other data or another code version', () => {
    const { contentHash } = analysisSnapshot(input());
    expect(analysisSnapshot(input()).contentHash).toBe(contentHash);
    const changed = area.map((value, i) => (i === 0 ? value + 1 : value));
    expect(analysisSnapshot(input({ prepared: prepared([changed, height]) })).contentHash).not.toBe(contentHash);
    expect(analysisSnapshot(input({ codeVersion: '1.0.1' })).contentHash).not.toBe(contentHash);
  });

  it('keeps why an analysis cannot run as its result', () => {
    const refused = analysisSnapshot(input({ prepared: null, refusal: 'Too few patients.' }));
    expect(refused.content).toMatchObject({ refusal: 'Too few patients.', results: null, leftOut: null });
    // Fewer than 20 patients left once the exclusions are applied: the stats package refuses, the snapshot says so.
    const few = prepared();
    few.analysis.excluded = ids.slice(0, 10);
    const small = analysisSnapshot(input({ prepared: few }));
    expect(small.content.results).toBeNull();
    expect(small.content.refusal).toMatch(/20/);
  });
});
