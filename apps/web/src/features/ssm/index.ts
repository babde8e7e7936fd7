export { ssmRoutes, ssmCreationRoutes } from './routes';
// For other features: where an SSM and its creation open.
export { ssmListPath, ssmPagePath, ssmStepPath } from './paths';
// For the rooms' New room dialog (a room is created on a patient or an SSM) and measurement orders on an SSM (a
// shape's mesh for picking points on it).
export { ssmUrls, useSsm, useSsms } from './api';
// For the project wizard (issue 18): the SSM steps run in its draft through a host of its own.
export { SsmFlowHostContext, type SsmFlowHost, type SsmCohortChoice } from './flowHost';
export { emptySsmDraft } from './ssmDraft';
// For a room on an SSM (issue 18 item 6): the shape it shows, moved along the first modes.
export { SsmRoomShape } from './components/SsmModeSliders';
