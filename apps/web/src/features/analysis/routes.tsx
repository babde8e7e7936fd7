import type { RouteObject } from 'react-router';
import { placeholderRoute } from '../../components/placeholderRoute';

export const analysisRoutes: RouteObject[] = [
  placeholderRoute('population-analysis/overview', {
    section: 'Population analysis',
    title: 'Population analysis',
    description: 'Statistics of a virtual population and how well your device fits it.',
    upcoming: [
      'Find correlated anatomical parameters and outliers.',
      'See the probability density of each parameter and the extreme cases.',
      'Check the population coverage of your device (device fit).',
      'Filter parameters and exclude patients; the analysis recalculates. At least 20 patients are needed.',
    ],
  }),
];
