import type { RouteObject } from 'react-router';
import { placeholderRoute } from '../../components/placeholderRoute';

export const roomRoutes: RouteObject[] = [
  // A room's scene: `?project=<uuid>&room=<uuid>` (and `&device=` from a notification's link).
  {
    path: 'projects/room',
    lazy: async () => ({ Component: (await import('./components/RoomScenePage')).RoomScenePage }),
  },
  placeholderRoute('projects/room/analyses', {
    section: 'Room',
    title: 'Simulation analyses',
    description: 'Analyse the output of a room’s simulations.',
    upcoming: [
      'Run solid, fluid and particle simulations on a patient or a shape model.',
      'Analyse the output with line graphs, histograms and heatmaps.',
      'Take screenshots, browse the gallery, and download results as CSV.',
    ],
  }),
];

/** The Rooms tab of the project view (mounted by features/projects on /projects/view/rooms), loaded on first visit. */
export const projectRoomsTab = async () => ({
  Component: (await import('./components/ProjectRoomsTab')).ProjectRoomsTab,
});
