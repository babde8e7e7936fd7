export { users } from './users';
export { sessions, type LoginTransaction } from './sessions';
export { notifications } from './notifications';
export { appSettings } from './settings';
export { jobRuns } from './jobs';
export { identityAccounts, oidcPayloads } from './identity';
export { devices, memberships, invitations, onboardingStates, selectedDevices } from './devices';
export { mailOutbox } from './mail';
