import type { RouteObject } from 'react-router';

/** `/projects/ssm`: one SSM's page (`?ssm=`), or the project's SSMs. */
export const ssmRoutes: RouteObject[] = [
  {
    path: 'projects/ssm',
    lazy: async () => ({ Component: (await import('./components/SsmPage')).SsmPage }),
    handle: { title: 'Statistical shape model' },
  },
];

/** The wizard's SSM sub-routes (spec §2), for project-creation's routes. */
export const ssmCreationRoutes: RouteObject[] = [
  {
    path: 'new-ssm-select-patient-cohorts',
    lazy: async () => ({ Component: (await import('./components/SsmCreateSteps')).SsmPatientsStep }),
    handle: { title: 'New SSM: patients' },
  },
  {
    path: 'new-ssm-select-organ-phase',
    lazy: async () => ({ Component: (await import('./components/SsmCreateSteps')).SsmOrgansStep }),
    handle: { title: 'New SSM: organs' },
  },
  {
    path: 'new-ssm-name-configuration',
    lazy: async () => ({ Component: (await import('./components/SsmCreateSteps')).SsmNameStep }),
    handle: { title: 'New SSM: name' },
  },
  {
    path: 'new-ssm-complete',
    lazy: async () => ({ Component: (await import('./components/SsmCreateSteps')).SsmCompleteStep }),
    handle: { title: 'New SSM ordered' },
  },
];
