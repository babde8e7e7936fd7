export { Analytics } from './Analytics';
export { AnalyticsConsentSetting } from './AnalyticsConsentSetting';
export { useTrackOnce } from './useTrackOnce';
export { analyticsRoutes } from './routes';
export { AnalyticsMenuItem } from './operator/AnalyticsMenuItem';
