// The onboarding steps that add-device (features/devices) shows in its own frame; loaded lazily via
// `loadOnboardingSteps`.
export { BodyPartStep } from './components/BodyPartStep';
export { DevelopmentStageStep } from './components/DevelopmentStageStep';
export { DeviceDetailsStep } from './components/DeviceDetailsStep';
export { TeamStep } from './components/TeamStep';
