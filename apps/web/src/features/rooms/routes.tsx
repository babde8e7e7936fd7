import type { RouteObject } from 'react-router';
import { placeholderRoute } from '../../components/placeholderRoute';
import { RoomScenePage } from './components/RoomScenePage';

export const roomRoutes: RouteObject[] = [
  // A room's scene: `?project=<uuid>&room=<uuid>` (and `&device=` from a notification's link).
  { path: 'projects/room', element: <RoomScenePage /> },
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
