import type { RouteObject } from 'react-router';
import { placeholderRoute } from '../../components/placeholderRoute';

export const cohortRoutes: RouteObject[] = [
  placeholderRoute('patient-cohort/create', {
    section: 'Patient cohorts',
    title: 'Create a patient cohort',
    description: 'Virtual patient cohorts are CT-based; heart and thorax only for now.',
    upcoming: [
      'Filter patients by pathology, sex, body dimensions, origin, age group and heart-cycle phase.',
      'Choose a cohort size of 5, 10, 20, 50 or 100 patients.',
      'Name the cohort (names are unique and cannot be changed later).',
    ],
  }),
  placeholderRoute('patient-cohort/order-patient', {
    section: 'Patient cohorts',
    title: 'Order patients',
    upcoming: ['Order the virtual patients of a cohort and follow the order until it is ready.'],
  }),
];
