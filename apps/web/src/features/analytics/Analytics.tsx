import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useSignedInUser } from '../../app/user/userContext';
import { setAnalyticsUser, track } from '../../lib/analytics';
import { AnalyticsConsentBanner, useConsentChoice } from './AnalyticsConsentBanner';
import { routePattern } from './routePattern';

/**
 * In the shell of signed-in pages: the consent banner, the user id (the stored e-mail, spec §7) and a page view per
 * route. Records nothing without consent.
 */
export function Analytics() {
  const user = useSignedInUser();
  const choice = useConsentChoice();
  const { pathname } = useLocation();
  useEffect(() => {
    if (choice === 'given') void setAnalyticsUser(user.email, user.identityProvider);
  }, [choice, user.email, user.identityProvider]);
  useEffect(() => {
    if (choice === 'given') track('page viewed', { route: routePattern(pathname) });
  }, [choice, pathname]);
  return <AnalyticsConsentBanner />;
}
