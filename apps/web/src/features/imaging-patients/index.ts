// Patients of a project's imaging cohorts (issue 19): the user's own data, used like virtual patients.
export { imagingPatientRoutes } from './routes';
export { imagingPatientPath } from './paths';
export { useImagingCohorts } from './api';
