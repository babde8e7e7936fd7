import type { RouteObject } from 'react-router';

// Each page is its own chunk, loaded on first visit (issue 23: select cohort → define → order and results).
export const measurementRoutes: RouteObject[] = [
  {
    path: 'measurement/select-patient-cohort',
    lazy: async () => ({ Component: (await import('./components/SelectCohortPage')).SelectCohortPage }),
    handle: { title: 'Select a patient cohort' },
  },
  {
    path: 'measurement/define',
    lazy: async () => ({ Component: (await import('./components/DefinePage')).DefinePage }),
    handle: { title: 'Define the measurement' },
  },
  {
    path: 'measurement/order',
    lazy: async () => ({ Component: (await import('./components/OrderPage')).OrderPage }),
    handle: { title: 'Order the measurement' },
  },
];
