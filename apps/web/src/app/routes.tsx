import type { RouteObject } from 'react-router';
import { analysisRoutes } from '../features/analysis';
import { analyticsRoutes } from '../features/analytics';
import { cohortRoutes } from '../features/cohorts';
import { deviceVersionRoutes } from '../features/device-versions';
import { deviceRoutes } from '../features/devices';
import { measurementRoutes } from '../features/measurements';
import { activityRoutes } from '../features/activity';
import { designHistoryRoutes } from '../features/design-history';
import { onboardingRoutes } from '../features/onboarding';
import { projectCreationRoutes } from '../features/project-creation';
import { projectRoutes } from '../features/projects';
import { roomRoutes } from '../features/rooms';
import { settingsRoutes } from '../features/settings';
import { ssmRoutes } from '../features/ssm';
import { supportRoutes } from '../features/support';
import { teamRoutes } from '../features/team';
import { trialRoutes } from '../features/trials';
import { uploadRoutes } from '../features/uploads';
import { imagingPatientRoutes } from '../features/imaging-patients';
import { workspaceRoutes } from '../features/workspace';
import { AppShell } from './layout/AppShell';
import { NotFoundPage } from './layout/NotFoundPage';
import { RouteErrorPage } from './layout/RouteErrorPage';
import { RequireUser } from './user/RequireUser';

function NoFallback() {
  return null;
}

/**
 * Every route of spec §2, each feature contributing its own. All of them, the 404 page included,
 * sit behind `RequireUser`: the only public page is the server's static /maintenance.html.
 */
export const appRoutes: RouteObject[] = [
  {
    path: '/',
    element: (
      <RequireUser>
        <AppShell />
      </RequireUser>
    ),
    errorElement: <RouteErrorPage />,
    // While the first page's lazy code loads nothing is drawn, as before; named, so the router does not warn about
    // a missing fallback on every load (issue 14).
    HydrateFallback: NoFallback,
    children: [
      ...workspaceRoutes,
      ...deviceRoutes,
      ...onboardingRoutes,
      ...cohortRoutes,
      ...deviceVersionRoutes,
      ...measurementRoutes,
      ...activityRoutes,
      ...designHistoryRoutes,
      ...projectRoutes,
      ...projectCreationRoutes,
      ...roomRoutes,
      ...ssmRoutes,
      ...settingsRoutes,
      ...supportRoutes,
      ...teamRoutes,
      ...analysisRoutes,
      ...trialRoutes,
      ...uploadRoutes,
      ...imagingPatientRoutes,
      ...analyticsRoutes,
      { path: '*', element: <NotFoundPage />, handle: { title: 'Page not found' } },
    ],
  },
];
