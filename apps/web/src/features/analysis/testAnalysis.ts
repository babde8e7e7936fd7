import { analysisSettingsSchema, type Analysis } from '@insilico/contracts';

/** A stored analysis for the page's unit tests (revision 1, spec defaults, nobody excluded). */
export function testAnalysis(change: Partial<Analysis> = {}): Analysis {
  return {
    id: '00000000-0000-4000-8000-00000000000a',
    projectId: '00000000-0000-4000-8000-00000000000b',
    name: '',
    cohort: { id: 'c1', name: 'Twenty-five', size: 25, status: 'ready' },
    parameters: ['height_cm'],
    excludedCount: 0,
    revision: 1,
    createdBy: null,
    createdAt: '2026-11-22T00:00:00.000Z',
    updatedAt: '2026-11-22T00:00:00.000Z',
    settings: analysisSettingsSchema.parse({}),
    excluded: [],
    canEdit: true,
    ...change,
  };
}
