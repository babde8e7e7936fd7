export { track, trackAfter, setAnalyticsUser, forgetAnalyticsUser } from './browser';
export {
  consentChoice,
  hasAnalyticsConsent,
  setAnalyticsConsent,
  subscribeConsent,
  type ConsentChoice,
} from './consent';
