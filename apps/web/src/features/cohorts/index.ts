export { cohortRoutes } from './routes';
// The ordering flow, for the project-creation wizard (spec §2 new-patient-cohort): it holds the state and step.
export { CohortOrderFlow, type CohortOrderFlowProps, type CohortOrderStep } from './components/CohortOrderFlow';
export type { OrderDetails } from './components/OrderDetailsForm';
export { SyntheticLabel } from './components/SyntheticLabel';
export { useCohorts } from './api';
export { cohortPath } from './paths';
