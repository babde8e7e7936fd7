export { Analytics } from './Analytics';
export { AnalyticsConsentSetting } from './AnalyticsConsentSetting';
export { useTrackOnce } from './useTrackOnce';
