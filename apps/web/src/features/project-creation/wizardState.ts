import {
  projectTitleProblem,
  type DevelopmentStage,
  type DraftSsm,
  type Project,
  type ProjectDraftState,
} from '@insilico/contracts';
import type { WizardRoute } from './paths';

/** Pure rules of the wizard's draft (spec §3 "Project creation state"), kept apart from the pages. */

/** Adds or removes an id (checkbox lists). */
export function toggleId(list: readonly string[], id: string, on: boolean): string[] {
  return on ? (list.includes(id) ? [...list] : [...list, id]) : list.filter((item) => item !== id);
}

/** Ticks or unticks an imaging dataset of the draft (`uploadedImagingData`, issue 19). */
export function withImagingDataset(draft: ProjectDraftState, datasetId: string, on: boolean): ProjectDraftState {
  return {
    ...draft,
    uploadedImagingData: {
      ...draft.uploadedImagingData,
      data: toggleId(draft.uploadedImagingData.data, datasetId, on),
    },
  };
}

/** Every cohort the project will have: chosen from the workspace and ordered inside the wizard. */
export function chosenCohorts(draft: ProjectDraftState): string[] {
  return [...new Set([...draft.existingCohortSelected, ...draft.newPatientCohortOrders])];
}

/** Every device version the project will have: chosen and created inside the wizard. */
export function chosenVersions(draft: ProjectDraftState): string[] {
  return [...new Set([...draft.existingDeviceVersionsSelected, ...draft.newDeviceVersions])];
}

/**
 * "From a previous project": the draft takes the project's question, cohorts, device versions (failed ones are left
 * out: they cannot be added) and team (the creator joins anyway). The title and the development stage stay as
 * chosen on the title step, which comes first (the previous project's stage only fills a draft that has none).
 */
export function copyFromProject(draft: ProjectDraftState, project: Project, creatorId: string): ProjectDraftState {
  return {
    ...draft,
    options: { ...draft.options, isCreatingFromScratch: false },
    basedOnProjectId: project.id,
    developmentStage: draft.developmentStage ?? project.developmentStage,
    questionId: project.question?.id ?? null,
    existingCohortSelected: project.cohorts.filter((cohort) => cohort.status !== 'failed').map((cohort) => cohort.id),
    existingDeviceVersionsSelected: project.deviceVersions
      .filter((version) => version.status !== 'failed')
      .map((version) => version.id),
    teamUserIds: project.team.filter((person) => person.role !== null && person.id !== creatorId).map((p) => p.id),
  };
}

/** Back to a project started from scratch (keeps the title and stage). */
export function startFromScratch(draft: ProjectDraftState): ProjectDraftState {
  return {
    ...draft,
    options: { ...draft.options, isCreatingFromScratch: true },
    basedOnProjectId: null,
  };
}

/** The stage to preselect: the draft's, else the workspace's only stage. */
export function defaultStage(
  draft: ProjectDraftState,
  workspaceStages: readonly DevelopmentStage[],
): DevelopmentStage | null {
  if (draft.developmentStage && workspaceStages.includes(draft.developmentStage)) return draft.developmentStage;
  return workspaceStages.length === 1 ? workspaceStages[0]! : null;
}

/** The body of `POST .../projects` from the draft. */
export function createRequest(draft: ProjectDraftState, developmentStage: DevelopmentStage) {
  return {
    name: draft.title,
    developmentStage,
    questionId: draft.questionId,
    cohortIds: chosenCohorts(draft),
    versionIds: chosenVersions(draft),
    teamUserIds: draft.teamUserIds,
    basedOnProjectId: draft.basedOnProjectId,
    imagingDatasetIds: draft.uploadedImagingData.data,
    // Checked when each was added; the server checks them again and queues them with the project (issue 18).
    ssms: draft.ssms.map(({ shapeCount: _shapes, ...ssm }) => ssm),
  };
}

/** Whether an SSM of the draft is built from a cohort the project no longer has (unticked since it was added). */
export function ssmLacksCohort(draft: ProjectDraftState, ssm: DraftSsm): boolean {
  const chosen = chosenCohorts(draft);
  return ssm.cohortIds.some((id) => !chosen.includes(id));
}

/** Removes an SSM from the draft (by position). */
export function withoutSsm(draft: ProjectDraftState, index: number): ProjectDraftState {
  return { ...draft, ssms: draft.ssms.filter((_, i) => i !== index) };
}

/**
 * What the wizard still needs before the project can be created (a page opened directly, e.g. by a bookmark, may
 * skip a step): the first missing piece and the step that supplies it, or null.
 */
export function missingBeforeCreate(
  draft: ProjectDraftState,
  stage: DevelopmentStage | null,
): { text: string; route: WizardRoute } | null {
  const titleProblem = projectTitleProblem(draft.title);
  if (titleProblem) return { text: titleProblem, route: 'title' };
  if (!stage) return { text: 'Choose the development stage of the project.', route: 'title' };
  if (chosenCohorts(draft).length === 0 && draft.uploadedImagingData.data.length === 0)
    return { text: 'Choose at least one patient cohort.', route: 'patient-cohort-list' };
  const orphan = draft.ssms.find((ssm) => ssmLacksCohort(draft, ssm));
  if (orphan)
    return {
      text: `The SSM ${orphan.name} is built from a cohort that is no longer chosen: choose it again or remove the SSM.`,
      route: 'patient-cohort-list',
    };
  if (!draft.questionId) return { text: 'Choose the question of interest.', route: 'question-of-interest' };
  return null;
}
