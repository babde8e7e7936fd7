import type { RouteObject } from 'react-router';

export const trialRoutes: RouteObject[] = [
  // A trial of a project: `?project=&trial=` (and `&device=` from a link opened in another workspace).
  {
    path: 'projects/trial',
    lazy: async () => ({ Component: (await import('./components/TrialPage')).TrialPage }),
  },
];
