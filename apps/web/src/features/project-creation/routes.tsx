import type { RouteObject } from 'react-router';
import { ssmCreationRoutes } from '../ssm';

/** A wizard step, its page loaded on first visit (its own chunk). */
const step = (path: string, title: string, page: () => Promise<React.ReactNode>): RouteObject => ({
  path,
  lazy: async () => ({ element: await page() }),
  handle: { title },
});

/** `/projects/create/*`: the project creation wizard (spec §2 "Project creation", issue 5 item 1). */
export const projectCreationRoutes: RouteObject[] = [
  {
    path: 'projects/create',
    lazy: async () => ({ Component: (await import('./components/CreateProjectLayout')).CreateProjectLayout }),
    children: [
      {
        index: true,
        lazy: async () => ({ Component: (await import('./components/CreateProjectLayout')).ResumeWizard }),
      },
      step('title', 'Create project: title', async () => {
        const { TitleStep } = await import('./components/TitleStep');
        return <TitleStep />;
      }),
      step('previous-project-list', 'Create project: previous project', async () => {
        const { PreviousProjectListStep } = await import('./components/PreviousProjectListStep');
        return <PreviousProjectListStep />;
      }),
      step('patient-cohort-list', 'Create project: patient cohort', async () => {
        const { CohortListStep } = await import('./components/CohortListStep');
        return <CohortListStep />;
      }),
      step('previous-patient-cohort-list', 'Create project: previous cohorts', async () => {
        const { PreviousCohortListStep } = await import('./components/PreviousCohortListStep');
        return <PreviousCohortListStep />;
      }),
      step('new-patient-cohort', 'Create project: new cohort', async () => {
        const { NewCohortStep } = await import('./components/NewCohortStep');
        return <NewCohortStep />;
      }),
      // Our database, or the user's own images (issue 19): one imaging flow for the steps that read and upload.
      step('select-upload-new-cohort-data-type', 'Create project: new cohort data', async () => {
        const { SelectDataTypeStep } = await import('./components/ImagingCohortSteps');
        return <SelectDataTypeStep />;
      }),
      step('our-database', 'Create project: patients from our database', async () => {
        const { NewCohortStep } = await import('./components/NewCohortStep');
        return <NewCohortStep />;
      }),
      {
        lazy: async () => ({
          Component: (await import('../uploads')).ImagingFlowProvider,
        }),
        children: [
          step('upload-imaging-data', 'Create project: upload imaging data', async () => {
            const { ReadImagingDataStep } = await import('./components/ImagingCohortSteps');
            return <ReadImagingDataStep kind="zip" />;
          }),
          step('upload-data-directory', 'Create project: upload a data directory', async () => {
            const { ReadImagingDataStep } = await import('./components/ImagingCohortSteps');
            return <ReadImagingDataStep kind="folder" />;
          }),
          step('anonymize-data', 'Create project: anonymize data', async () => {
            const { AnonymizeDataStep } = await import('./components/ImagingCohortSteps');
            return <AnonymizeDataStep />;
          }),
        ],
      },
      step('question-of-interest', 'Create project: question of interest', async () => {
        const { QuestionStep } = await import('./components/QuestionStep');
        return <QuestionStep />;
      }),
      step('new-question-of-interest', 'Create project: new question', async () => {
        const { NewQuestionStep } = await import('./components/NewQuestionStep');
        return <NewQuestionStep />;
      }),
      step('device-version', 'Create project: device version', async () => {
        const [{ DeviceVersionStep }, { deviceVersionWidgets }] = await Promise.all([
          import('./components/DeviceVersionSteps'),
          import('./deviceVersionWidgets'),
        ]);
        return <DeviceVersionStep widgets={deviceVersionWidgets} />;
      }),
      step('new-device-version', 'Create project: new device version', async () => {
        const [{ NewDeviceVersionStep }, { deviceVersionWidgets }] = await Promise.all([
          import('./components/DeviceVersionSteps'),
          import('./deviceVersionWidgets'),
        ]);
        return <NewDeviceVersionStep widgets={deviceVersionWidgets} />;
      }),
      step('team', 'Create project: team', async () => {
        const { TeamStep } = await import('./components/TeamStep');
        return <TeamStep />;
      }),
      // SSM creation (issue 18): Patients, Organs, Name, then the end; in the wizard's draft, or for a project
      // (`?project=`, where the layout steps aside).
      {
        lazy: async () => ({ Component: (await import('./components/SsmWizardHost')).SsmWizardHost }),
        children: ssmCreationRoutes,
      },
    ],
  },
];
