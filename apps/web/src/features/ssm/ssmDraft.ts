import { createSsmSchema, ssmMinShapes, type CreateSsm, type SsmOrderDraft, type SsmOrgan } from '@insilico/contracts';

/**
 * What the three steps collect: on a project kept per project in the tab's session storage, in the project wizard
 * in its draft (`newSsm`); Back and a reload keep it either way.
 */
export type SsmDraft = SsmOrderDraft;

export const emptySsmDraft: SsmDraft = {
  cohortIds: [],
  excludedPatients: [],
  organs: ['aortic_root'],
  phase: 'end-diastole',
  name: '',
};

const storageKey = (projectId: string) => `insilico:ssm-draft:${projectId}`;

export function loadSsmDraft(storage: Pick<Storage, 'getItem'>, projectId: string): SsmDraft {
  try {
    const raw = storage.getItem(storageKey(projectId));
    if (!raw) return emptySsmDraft;
    const parsed = JSON.parse(raw) as Partial<SsmDraft>;
    return { ...emptySsmDraft, ...parsed };
  } catch {
    return emptySsmDraft;
  }
}

export function saveSsmDraft(storage: Pick<Storage, 'setItem'>, projectId: string, draft: SsmDraft): void {
  storage.setItem(storageKey(projectId), JSON.stringify(draft));
}

export function clearSsmDraft(storage: Pick<Storage, 'removeItem'>, projectId: string): void {
  storage.removeItem(storageKey(projectId));
}

function toggle<T>(values: readonly T[], value: T): T[] {
  return values.includes(value) ? values.filter((v) => v !== value) : [...values, value];
}

/** Chooses or un-chooses a cohort; un-choosing it forgets which of its patients were left out. */
export function toggleCohort(draft: SsmDraft, cohortId: string, patientsOfCohort: readonly string[] = []): SsmDraft {
  const removing = draft.cohortIds.includes(cohortId);
  return {
    ...draft,
    cohortIds: toggle(draft.cohortIds, cohortId),
    excludedPatients: removing
      ? draft.excludedPatients.filter((id) => !patientsOfCohort.includes(id))
      : draft.excludedPatients,
  };
}

export function toggleExcluded(draft: SsmDraft, patientId: string): SsmDraft {
  return { ...draft, excludedPatients: toggle(draft.excludedPatients, patientId) };
}

export function toggleOrgan(draft: SsmDraft, organ: SsmOrgan): SsmDraft {
  return { ...draft, organs: toggle(draft.organs, organ) };
}

/** The patients a draft builds from: those of the chosen cohorts (each once), less the left-out ones. */
export function keptPatients(draft: SsmDraft, patientsByCohort: ReadonlyMap<string, readonly string[]>): number {
  const all = new Set(draft.cohortIds.flatMap((id) => patientsByCohort.get(id) ?? []));
  for (const id of draft.excludedPatients) all.delete(id);
  return all.size;
}

/** Whether the page may go on to the next step; the reason otherwise. */
export function stepProblem(step: 'patients' | 'organs', draft: SsmDraft): string | null {
  if (step === 'patients' && draft.cohortIds.length === 0) return 'Choose at least one patient cohort.';
  if (step === 'organs' && draft.organs.length === 0) return 'Choose at least one organ.';
  return null;
}

/** The request body of the draft (the name only when one was typed). */
export function ssmRequestBody(draft: SsmDraft): CreateSsm {
  const name = draft.name.trim();
  return createSsmSchema.parse({
    cohortIds: draft.cohortIds,
    excludedPatients: draft.excludedPatients,
    organs: draft.organs,
    phase: draft.phase,
    ...(name ? { name } : {}),
  });
}

export { ssmMinShapes };
