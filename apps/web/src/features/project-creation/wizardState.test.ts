import { describe, expect, it } from 'vitest';
import { emptyProjectDraft, type Project } from '@insilico/contracts';
import {
  chosenCohorts,
  chosenVersions,
  copyFromProject,
  createRequest,
  defaultStage,
  missingBeforeCreate,
  ssmLacksCohort,
  startFromScratch,
  toggleId,
  withoutSsm,
} from './wizardState';

const person = (id: string, role: 'admin' | 'member' | 'guest' | null = 'member') => ({
  id,
  name: id,
  initials: 'X',
  pictureUrl: null,
  role,
});

const previous: Project = {
  id: 'p-1',
  name: 'Mitral study',
  developmentStage: 'clinical_trial',
  status: 'completed',
  question: {
    id: 'q-1',
    question: 'Does it seal?',
    contextOfUse: null,
    modelInfluence: null,
    decisionConsequence: null,
    riskLevel: null,
  },
  cohorts: [
    { id: 'c-1', name: 'Adults', size: 10, status: 'ready' },
    { id: 'c-2', name: 'Broken', size: 5, status: 'failed' },
  ],
  deviceVersions: [
    { id: 'v-1', name: 'v1', status: 'ready' },
    { id: 'v-2', name: 'v2', status: 'processing' },
    { id: 'v-3', name: 'v3', status: 'failed' },
  ],
  team: [person('me'), person('u-2'), person('gone', null), person('u-3', 'guest')],
  createdAt: '2026-11-01T10:00:00.000Z',
  statusChangedAt: null,
  canManage: true,
  canComment: true,
};

describe('the wizard draft rules', () => {
  it('copies a previous project but keeps the title and the chosen stage, and leaves out what cannot be added', () => {
    const draft = copyFromProject(
      { ...emptyProjectDraft(), title: 'My title', developmentStage: 'concept_and_design_feasibility' },
      previous,
      'me',
    );
    expect(draft).toMatchObject({
      title: 'My title',
      options: { isCreatingFromScratch: false, useUploadedImagingData: false },
      basedOnProjectId: 'p-1',
      // The stage chosen on the title step stays (issue 14 item 14): the previous project's is clinical_trial.
      developmentStage: 'concept_and_design_feasibility',
      questionId: 'q-1',
      existingCohortSelected: ['c-1'],
      existingDeviceVersionsSelected: ['v-1', 'v-2'],
      // The creator joins anyway; someone no longer in the workspace cannot.
      teamUserIds: ['u-2', 'u-3'],
    });
    expect(startFromScratch(draft)).toMatchObject({
      options: { isCreatingFromScratch: true },
      basedOnProjectId: null,
      title: 'My title',
    });
  });

  it('joins chosen and newly made cohorts and versions without duplicates', () => {
    const draft = {
      ...emptyProjectDraft(),
      existingCohortSelected: ['c-1', 'c-2'],
      newPatientCohortOrders: ['c-2', 'c-3'],
      existingDeviceVersionsSelected: ['v-1'],
      newDeviceVersions: ['v-9'],
    };
    expect(chosenCohorts(draft)).toEqual(['c-1', 'c-2', 'c-3']);
    expect(chosenVersions(draft)).toEqual(['v-1', 'v-9']);
    expect(createRequest({ ...draft, title: 'T', questionId: 'q' }, 'concept_and_design_feasibility')).toEqual({
      name: 'T',
      developmentStage: 'concept_and_design_feasibility',
      questionId: 'q',
      cohortIds: ['c-1', 'c-2', 'c-3'],
      versionIds: ['v-1', 'v-9'],
      teamUserIds: [],
      basedOnProjectId: null,
      imagingDatasetIds: [],
      ssms: [],
    });
  });

  it('lets imaging datasets uploaded in the wizard stand for the cohort, and sends them with the project', () => {
    const draft = {
      ...emptyProjectDraft(),
      title: 'Own images',
      questionId: 'q',
      uploadedImagingData: { note: '', data: ['d-1'] },
    };
    expect(missingBeforeCreate(draft, 'concept_and_design_feasibility')).toBeNull();
    expect(
      missingBeforeCreate({ ...draft, uploadedImagingData: { note: '', data: [] } }, 'concept_and_design_feasibility'),
    ).toEqual({ text: 'Choose at least one patient cohort.', route: 'patient-cohort-list' });
    expect(createRequest(draft, 'concept_and_design_feasibility').imagingDatasetIds).toEqual(['d-1']);
  });

  it('preselects the only stage of a workspace, and keeps a chosen stage the workspace has', () => {
    const draft = emptyProjectDraft();
    expect(defaultStage(draft, ['concept_and_design_feasibility'])).toBe('concept_and_design_feasibility');
    expect(defaultStage(draft, ['concept_and_design_feasibility', 'clinical_trial'])).toBeNull();
    expect(defaultStage({ ...draft, developmentStage: 'clinical_trial' }, ['clinical_trial'])).toBe('clinical_trial');
    expect(
      defaultStage({ ...draft, developmentStage: 'animal_testing' }, [
        'concept_and_design_feasibility',
        'clinical_trial',
      ]),
    ).toBeNull();
  });

  it('toggles ids once', () => {
    expect(toggleId(['a'], 'a', true)).toEqual(['a']);
    expect(toggleId(['a'], 'b', true)).toEqual(['a', 'b']);
    expect(toggleId(['a', 'b'], 'a', false)).toEqual(['b']);
  });

  it('names the first thing missing before the project can be created', () => {
    const complete = {
      ...emptyProjectDraft(),
      title: 'Study',
      existingCohortSelected: ['c-1'],
      questionId: 'q-1',
    };
    expect(missingBeforeCreate(complete, 'clinical_trial')).toBeNull();
    expect(missingBeforeCreate({ ...complete, title: 'x'.repeat(51) }, 'clinical_trial')).toEqual({
      text: 'Project title is too long. Maximum 50 characters.',
      route: 'title',
    });
    expect(missingBeforeCreate(complete, null)?.route).toBe('title');
    expect(missingBeforeCreate({ ...complete, existingCohortSelected: [] }, 'clinical_trial')?.route).toBe(
      'patient-cohort-list',
    );
    expect(missingBeforeCreate({ ...complete, questionId: null }, 'clinical_trial')?.route).toBe(
      'question-of-interest',
    );
  });

  it('sends the draft’s SSMs without their counts, flags one whose cohort was unticked, and removes one', () => {
    const ssm = (name: string, cohortIds: string[]) => ({
      cohortIds,
      excludedPatients: ['SYN-000001'],
      organs: ['aortic_root' as const],
      phase: 'end-diastole' as const,
      name,
      shapeCount: 12,
    });
    const draft = {
      ...emptyProjectDraft(),
      title: 'With SSMs',
      questionId: 'q-1',
      existingCohortSelected: ['c-1'],
      newPatientCohortOrders: ['c-2'],
      ssms: [ssm('Root', ['c-1']), ssm('Both', ['c-1', 'c-2'])],
    };
    expect(createRequest(draft, 'clinical_trial').ssms).toEqual([
      {
        cohortIds: ['c-1'],
        excludedPatients: ['SYN-000001'],
        organs: ['aortic_root'],
        phase: 'end-diastole',
        name: 'Root',
      },
      {
        cohortIds: ['c-1', 'c-2'],
        excludedPatients: ['SYN-000001'],
        organs: ['aortic_root'],
        phase: 'end-diastole',
        name: 'Both',
      },
    ]);
    expect(draft.ssms.map((one) => ssmLacksCohort(draft, one))).toEqual([false, false]);
    expect(missingBeforeCreate(draft, 'clinical_trial')).toBeNull();

    const unticked = { ...draft, newPatientCohortOrders: [] };
    expect(unticked.ssms.map((one) => ssmLacksCohort(unticked, one))).toEqual([false, true]);
    expect(missingBeforeCreate(unticked, 'clinical_trial')).toEqual({
      text: 'The SSM Both is built from a cohort that is no longer chosen: choose it again or remove the SSM.',
      route: 'patient-cohort-list',
    });
    expect(missingBeforeCreate(withoutSsm(unticked, 1), 'clinical_trial')).toBeNull();
    expect(withoutSsm(draft, 0).ssms.map((one) => one.name)).toEqual(['Both']);
  });
});
