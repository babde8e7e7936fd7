import { authEndpoints, pathOf } from '@insilico/contracts';

/** The main sections of the top navigation, and the path prefixes that make each one current. */
export const mainSections = [
  { label: 'Projects', to: '/projects/overview', prefixes: ['/projects'] },
  { label: 'Patient cohorts', to: '/patient-cohort', prefixes: ['/patient-cohort', '/measurement'] },
  { label: 'Device versions', to: '/device-versions', prefixes: ['/device-versions'] },
  { label: 'Population analysis', to: '/population-analysis/overview', prefixes: ['/population-analysis'] },
  { label: 'Activity feed', to: '/activity-feed', prefixes: ['/activity-feed'] },
  { label: 'Design history', to: '/design-history', prefixes: ['/design-history'] },
] as const;

export type MainSection = (typeof mainSections)[number];

export function isCurrentSection(section: MainSection, pathname: string): boolean {
  return section.prefixes.some((prefix) => pathname === prefix || pathname.startsWith(prefix + '/'));
}

/** Settings pages reached from the account menu. */
export const settingsLinks = [
  { label: 'My account', to: '/my-account' },
  { label: 'Manage device', to: '/manage-device' },
  { label: 'Manage team', to: '/manage-team' },
  { label: 'Company info', to: '/company-info' },
  { label: 'Subscriptions', to: '/subscriptions' },
  { label: 'Help', to: '/help' },
] as const;

/** Where the sign-out form posts. */
export const logoutUrl = pathOf(authEndpoints.logout, {});
