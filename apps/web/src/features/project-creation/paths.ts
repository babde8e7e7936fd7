/** The wizard's sub-routes of spec §2 that are offered, and the step (1–5) each belongs to. */
export const wizardRoutes = {
  title: 1,
  'previous-project-list': 1,
  'patient-cohort-list': 2,
  'previous-patient-cohort-list': 2,
  'new-patient-cohort': 2,
  'select-upload-new-cohort-data-type': 2,
  'our-database': 2,
  'upload-imaging-data': 2,
  'upload-data-directory': 2,
  'anonymize-data': 2,
  // SSM creation inside the wizard (issue 18): Patients, Organs, Name, then the SSMs of the draft.
  'new-ssm-select-patient-cohorts': 2,
  'new-ssm-select-organ-phase': 2,
  'new-ssm-name-configuration': 2,
  'new-ssm-complete': 2,
  'question-of-interest': 3,
  'new-question-of-interest': 3,
  'device-version': 4,
  'new-device-version': 4,
  team: 5,
} as const;
export type WizardRoute = keyof typeof wizardRoutes;

/** The main page of each step (where Next and the stepper lead). */
export const stepRoutes: Readonly<Record<number, WizardRoute>> = {
  1: 'title',
  2: 'patient-cohort-list',
  3: 'question-of-interest',
  4: 'device-version',
  5: 'team',
};

export const createBase = '/projects/create';
export const wizardPath = (route: WizardRoute) => `${createBase}/${route}`;
export const projectStatsPath = (projectId: string) => `/projects/view/stats?project=${projectId}`;
