import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { preload } from 'swr';
import { preloadWorkspaces } from '../features/devices';
import { AppProviders } from './AppProviders';
import { appRoutes } from './routes';
import { fetchUser, userProfileKey } from './user/fetchUser';

// The session and the workspaces are asked for in parallel while the first page's code loads (its route is lazy).
void preload(userProfileKey, fetchUser);
preloadWorkspaces();
const router = createBrowserRouter(appRoutes);

export function App() {
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
