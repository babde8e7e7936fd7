export { users } from './users';
export { sessions, type LoginTransaction } from './sessions';
export { signingReauthentications } from './sessions';
export { notifications } from './notifications';
export { appSettings } from './settings';
export { jobRuns } from './jobs';
export { identityAccounts, oidcPayloads, identitySignups, authAttempts } from './identity';
export { devices, memberships, invitations, onboardingStates, selectedDevices } from './devices';
export { mailOutbox } from './mail';
export { storedFiles } from './files';
export { supportRequests, supportMessages } from './support';
export { cohorts, cohortPatients, pathologyRequests } from './cohorts';
export {
  questionsOfInterest,
  projects,
  projectMembers,
  projectCohorts,
  projectDrafts,
  projectComments,
} from './projects';
export { uploads, deviceVersions, deviceVersionFiles, projectDeviceVersions } from './device-versions';
export { rooms, roomPlacements, roomShares, roomScreenshots } from './rooms';
export { analyses } from './analyses';
export { simulations, simulationParticleNames } from './simulations';
export { analyticsEvents } from './analytics';
export { analyticsUploadWindows } from './analytics';
export { measurementDefinitions, measurementOrders, measurementResults, measurementCorrections } from './measurements';
export { ssms } from './ssms';
export { imagingDatasets } from './imaging';
export { trials, trialPatients } from './trials';
export { trialReports } from './trials';
export { domainEvents } from './domain-events';
export { designHistoryEntries, electronicSignatures } from './design-history';
export { designHistoryExports } from './design-history';
export { designHistoryAttachments } from './design-history';
export { resultSnapshots } from './result-snapshots';
export { eventOutbox } from './event-outbox';
