export { onboardingRoutes, loadOnboardingSteps } from './routes';
export { onboardingKey, useOnboarding } from './api';
export { onboardingTarget } from './steps';
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
