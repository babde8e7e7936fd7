import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { preload } from 'swr';
import { preloadWorkspaces, useDevices, useSelectedDevice } from '../features/devices';
import { AppProviders } from './AppProviders';
import { appRoutes } from './routes';
import { wasSignedOut } from '../lib/earlyRequests';
import { fetchUser, userProfileKey } from './user/fetchUser';
import { useUser } from './user/userContext';

// The session and the workspaces are asked for in parallel while the first page's code loads (its route is lazy);
// the workspaces only when the last start had a user (else they would answer 401: asked once a user is known).
const signedOutBefore = wasSignedOut();
void preload(userProfileKey, fetchUser);
if (!signedOutBefore) preloadWorkspaces();
const router = createBrowserRouter(appRoutes);

/**
 * Takes over the workspace answers preloaded above as soon as the app mounts: SWR moves a preloaded answer into its
 * cache only once a hook asks for it, and the first page's hooks ask only after its first render (a few hundred ms
 * later on a cold load). With these, the page's first render already knows the selected workspace.
 */
function StartupData() {
  const { user } = useUser();
  return user || (!signedOutBefore && user === undefined) ? <WorkspaceData /> : null;
}

function WorkspaceData() {
  useDevices();
  useSelectedDevice();
  return null;
}

export function App() {
  return (
    <AppProviders>
      <StartupData />
      {/* Route changes render at once rather than as interruptible transitions: the first page's render would
          otherwise be cut into 5 ms slices with the browser's other work in between (a few hundred ms later on
          screen on a cold load). Lazy routes still wait for their code before the page changes, and the lazy parts
          inside pages have their own Suspense fallbacks. */}
      <RouterProvider router={router} useTransitions={false} />
    </AppProviders>
  );
}
