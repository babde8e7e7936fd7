import type { RouteObject } from 'react-router';

export const roomRoutes: RouteObject[] = [
  // A room's scene: `?project=<uuid>&room=<uuid>` (and `&device=` from a notification's link).
  {
    path: 'projects/room',
    lazy: async () => ({ Component: (await import('./components/RoomScenePage')).RoomScenePage }),
  },
  // A simulation's results in its room: `?project=&room=&simulation=` (issue 16 item 5).
  {
    path: 'projects/room/analyses',
    lazy: async () => ({ Component: (await import('./components/RoomAnalysesPage')).RoomAnalysesPage }),
  },
];

/** The Rooms tab of the project view (mounted by features/projects on /projects/view/rooms), loaded on first visit. */
export const projectRoomsTab = async () => ({
  Component: (await import('./components/ProjectRoomsTab')).ProjectRoomsTab,
});
