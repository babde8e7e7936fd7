import type { RouteObject } from 'react-router';

// Each page is its own chunk, loaded on first visit (the start-up bundle stays small).
export const cohortRoutes: RouteObject[] = [
  {
    path: 'patient-cohort',
    lazy: async () => ({ Component: (await import('./components/CohortListPage')).CohortListPage }),
    handle: { title: 'Patient cohorts' },
  },
  {
    path: 'patient-cohort/create',
    lazy: async () => ({ Component: (await import('./components/OrderPages')).CreateCohortPage }),
    handle: { title: 'Create a patient cohort' },
  },
  {
    path: 'patient-cohort/order-patient',
    lazy: async () => ({ Component: (await import('./components/OrderPages')).OrderPatientsPage }),
    handle: { title: 'Order patients' },
  },
  {
    path: 'patient-cohort/cohorts/:cohortId',
    lazy: async () => ({ Component: (await import('./components/CohortPage')).CohortPage }),
    handle: { title: 'Patient cohort' },
  },
  {
    path: 'patient-cohort/cohorts/:cohortId/patients/:patientId',
    lazy: async () => ({ Component: (await import('./components/PatientPage')).PatientPage }),
    handle: { title: 'Virtual patient' },
  },
];
