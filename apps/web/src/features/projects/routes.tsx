import { Navigate, type RouteObject } from 'react-router';
import { placeholderRoute } from '../../components/placeholderRoute';
import { ProjectCommentsTab } from '../comments';
import { ProjectRoomsTab } from '../rooms';
import { ProjectViewLayout } from './components/ProjectViewLayout';

// Spec §2 "Project creation": the five steps, and which step each sub-route belongs to.
const createSteps = [
  'Project title',
  'Virtual patient cohort',
  'Question of interest',
  'Device version',
  'Team',
] as const;

const createRoute = (path: string, title: string, step: number, upcoming: string[]): RouteObject =>
  placeholderRoute(path, { section: 'Create project', title, upcoming, steps: { labels: createSteps, active: step } });

const ssmSteps = 'SSM creation has three steps: Patients, Organs, Name.';

export const projectRoutes: RouteObject[] = [
  placeholderRoute('projects/overview', {
    section: 'Projects',
    title: 'Projects overview',
    description: 'Your development projects per device, grouped by stage.',
    upcoming: [
      'See projects grouped by development stage: Concept, Animal and Clinical.',
      'Filter by project status: active, completed or abandoned.',
      'Complete, abandon or reactivate a project from its card.',
    ],
  }),
  {
    path: 'projects/view',
    element: <ProjectViewLayout />,
    children: [
      { index: true, element: <Navigate to="stats" replace /> },
      placeholderRoute('stats', {
        section: 'Project',
        title: 'Project stats',
        upcoming: ['See the project’s cohorts, device versions, question of interest and team at a glance.'],
      }),
      { path: 'rooms', element: <ProjectRoomsTab /> },
      { path: 'comments', element: <ProjectCommentsTab /> },
    ],
  },
  {
    path: 'projects/create',
    children: [
      { index: true, element: <Navigate to="title" replace /> },
      createRoute('title', 'Project title', 0, ['Give the project a title of at most 50 characters.']),
      createRoute('previous-project-list', 'Start from a previous project', 0, [
        'Reuse the set-up of one of your earlier projects.',
      ]),
      createRoute('patient-cohort-list', 'Virtual patient cohort', 1, [
        'Choose the virtual patient cohorts of the project.',
      ]),
      createRoute('previous-patient-cohort-list', 'Previous patient cohorts', 1, [
        'Reuse a cohort from an earlier project.',
      ]),
      createRoute('new-patient-cohort', 'New patient cohort', 1, ['Define a new cohort by its criteria and size.']),
      createRoute('new-ssm-select-patient-cohorts', 'New SSM: patients', 1, [
        'Choose the cohorts a statistical shape model is built from.',
        ssmSteps,
      ]),
      createRoute('new-ssm-select-organ-phase', 'New SSM: organs', 1, [
        'Choose the organs and heart-cycle phase of the shape model.',
        ssmSteps,
      ]),
      createRoute('new-ssm-name-configuration', 'New SSM: name', 1, ['Optionally name the shape model.', ssmSteps]),
      createRoute('new-ssm-complete', 'New SSM ordered', 1, ['Follow the shape model while it is being built.']),
      createRoute('select-upload-new-cohort-data-type', 'Cohort from your own data', 1, [
        'Choose how to bring your own imaging data into a cohort.',
      ]),
      createRoute('upload-imaging-data', 'Upload imaging data', 1, ['Upload one anonymized imaging dataset.']),
      createRoute('upload-data-directory', 'Upload a data directory', 1, ['Upload a folder of DICOM images.']),
      createRoute('our-database', 'Patients from our database', 1, [
        'Build the cohort from the workspace’s virtual patient database.',
      ]),
      createRoute('anonymize-data', 'Anonymize data', 1, [
        'Anonymize DICOM data in your browser before it is uploaded.',
      ]),
      createRoute('question-of-interest', 'Question of interest', 2, ['Choose the question the project answers.']),
      createRoute('new-question-of-interest', 'New question of interest', 2, ['Describe a new question of interest.']),
      createRoute('device-version', 'Device version', 3, ['Choose the device versions (3D models) to test.']),
      createRoute('new-device-version', 'New device version', 3, [
        'Upload a new device version as .stl files; it is processed in the background.',
      ]),
      createRoute('team', 'Team', 4, ['Add members of your device workspace to the project team.']),
    ],
  },
];
