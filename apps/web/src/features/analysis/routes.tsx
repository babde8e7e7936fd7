import type { RouteObject } from 'react-router';

export const analysisRoutes: RouteObject[] = [
  {
    path: 'population-analysis/overview',
    lazy: async () => ({ Component: (await import('./components/PopulationAnalysisPage')).PopulationAnalysisPage }),
    handle: { title: 'Population analysis' },
  },
];
