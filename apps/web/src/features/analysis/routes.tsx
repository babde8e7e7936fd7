import type { RouteObject } from 'react-router';
import { PopulationAnalysisPage } from './components/PopulationAnalysisPage';

export const analysisRoutes: RouteObject[] = [
  {
    path: 'population-analysis/overview',
    element: <PopulationAnalysisPage />,
    handle: { title: 'Population analysis' },
  },
];
