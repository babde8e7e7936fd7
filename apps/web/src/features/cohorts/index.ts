export { cohortRoutes } from './routes';
// The ordering flow, for the project-creation wizard (spec §2 new-patient-cohort): it holds the state and step.
export { CohortOrderFlow, type CohortOrderFlowProps, type CohortOrderStep } from './components/CohortOrderFlow';
export type { OrderDetails } from './components/OrderDetailsForm';
export { ParameterTable } from './components/ParameterTable';
export { FactList } from './components/FactList';
export { CohortStatusChip } from './components/CohortStatusChip';
export { useCohortPatients, useCohorts } from './api';
// A patient's meshes and 3D view with surface picking, for measurement points (issue 23).
export { cohortUrls, useCohortPatient } from './api';
// The 3D scene of a patient's organs (three.js; import it only from lazily loaded modules), for the room scene.
export { AnatomyScene } from './anatomyScene';
export { LazyAnatomyViewer } from './components/LazyAnatomyViewer';
export { ORGAN_LABELS, phaseTitle } from './labels';
export { cohortPath } from './paths';
export { CohortWorkspace } from './components/CohortWorkspace';
