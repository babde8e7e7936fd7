import type { RouteObject } from 'react-router';
import { CohortListPage } from './components/CohortListPage';
import { CohortPage } from './components/CohortPage';
import { CreateCohortPage, OrderPatientsPage } from './components/OrderPages';
import { PatientPage } from './components/PatientPage';

export const cohortRoutes: RouteObject[] = [
  { path: 'patient-cohort', element: <CohortListPage />, handle: { title: 'Patient cohorts' } },
  { path: 'patient-cohort/create', element: <CreateCohortPage />, handle: { title: 'Create a patient cohort' } },
  { path: 'patient-cohort/order-patient', element: <OrderPatientsPage />, handle: { title: 'Order patients' } },
  { path: 'patient-cohort/cohorts/:cohortId', element: <CohortPage />, handle: { title: 'Patient cohort' } },
  {
    path: 'patient-cohort/cohorts/:cohortId/patients/:patientId',
    element: <PatientPage />,
    handle: { title: 'Virtual patient' },
  },
];
