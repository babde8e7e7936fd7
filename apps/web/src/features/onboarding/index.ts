export { onboardingRoutes } from './routes';
export { onboardingKey, useOnboarding } from './api';
export { onboardingTarget } from './steps';
// Add device (features/devices) shows the same steps in its own routes.
export { BodyPartStep } from './components/BodyPartStep';
export { DevelopmentStageStep } from './components/DevelopmentStageStep';
export { DeviceDetailsStep } from './components/DeviceDetailsStep';
export { TeamStep } from './components/TeamStep';
export { OnboardingStepper } from './components/OnboardingFrame';
export { StepFlowContext, type StepFlow } from './stepFlow';
// The form parts settings (/manage-device, /company-info) share with the onboarding steps.
export { DeviceDetailsFields } from './components/DeviceDetailsFields';
export { DevelopmentStageFields, sameStages } from './components/DevelopmentStageFields';
export { CompanyFields } from './components/CompanyFields';
export {
  checkCompany,
  checkDeviceDetails,
  developmentStagesError,
  type CompanyForm,
  type DeviceDetailsForm,
  type FieldErrors,
} from './steps';
