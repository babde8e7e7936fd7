import { describe, expect, it } from 'vitest';
import {
  emptySsmDraft,
  keptPatients,
  loadSsmDraft,
  saveSsmDraft,
  ssmRequestBody,
  stepProblem,
  toggleCohort,
  toggleExcluded,
  toggleOrgan,
} from './ssmDraft';

const a = '11111111-1111-4111-8111-111111111111';
const b = '22222222-2222-4222-8222-222222222222';

describe('the SSM creation draft', () => {
  it('counts each patient once across cohorts, less the left-out ones', () => {
    let draft = toggleCohort(toggleCohort(emptySsmDraft, a), b);
    draft = toggleExcluded(draft, 'SYN-000002');
    const patients = new Map([
      [a, ['SYN-000001', 'SYN-000002']],
      [b, ['SYN-000002', 'SYN-000003']],
    ]);
    expect(keptPatients(draft, patients)).toBe(2);
  });

  it('forgets left-out patients of a cohort that is un-chosen', () => {
    let draft = toggleExcluded(toggleCohort(emptySsmDraft, a), 'SYN-000001');
    draft = toggleCohort(draft, a, ['SYN-000001']);
    expect(draft).toMatchObject({ cohortIds: [], excludedPatients: [] });
  });

  it('says why a step cannot go on', () => {
    expect(stepProblem('patients', emptySsmDraft)).toBe('Choose at least one patient cohort.');
    expect(stepProblem('organs', toggleOrgan(emptySsmDraft, 'aortic_root'))).toBe('Choose at least one organ.');
    expect(stepProblem('organs', emptySsmDraft)).toBeNull();
  });

  it('sends the name only when one was typed (the server names it otherwise)', () => {
    const draft = toggleCohort(emptySsmDraft, a);
    expect(ssmRequestBody(draft)).toEqual({
      cohortIds: [a],
      excludedPatients: [],
      organs: ['aortic_root'],
      phase: 'end-diastole',
    });
    expect(ssmRequestBody({ ...draft, name: '  Roots  ' }).name).toBe('Roots');
  });

  it('survives a reload through session storage, per project', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    saveSsmDraft(storage, 'p1', toggleCohort(emptySsmDraft, a));
    expect(loadSsmDraft(storage, 'p1').cohortIds).toEqual([a]);
    expect(loadSsmDraft(storage, 'p2')).toEqual(emptySsmDraft);
  });
});
