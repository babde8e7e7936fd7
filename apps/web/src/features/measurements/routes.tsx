import type { RouteObject } from 'react-router';
import { placeholderRoute } from '../../components/placeholderRoute';

const steps = ['Patient cohort', 'Define', 'Order'] as const;

export const measurementRoutes: RouteObject[] = [
  placeholderRoute('measurement/select-patient-cohort', {
    section: 'Measurement',
    title: 'Select a patient cohort',
    upcoming: ['Pick the cohort whose patients you want measured.'],
    steps: { labels: steps, active: 0 },
  }),
  placeholderRoute('measurement/define', {
    section: 'Measurement',
    title: 'Define the measurement',
    upcoming: ['Describe the anatomical measurements you need.'],
    steps: { labels: steps, active: 1 },
  }),
  placeholderRoute('measurement/order', {
    section: 'Measurement',
    title: 'Order the measurement',
    upcoming: ['Review and send your measurement request.'],
    steps: { labels: steps, active: 2 },
  }),
];
