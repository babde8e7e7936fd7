import { lazy } from 'react';

/**
 * The 3D preview of a patient's anatomy, loaded on first render (three.js is large): for pages of other features
 * that show a patient's meshes, such as an imaging patient's (issue 19). Render it inside a Suspense boundary.
 */
export const LazyAnatomyViewer = lazy(() =>
  import('./AnatomyViewer').then((module) => ({ default: module.AnatomyViewer })),
);
