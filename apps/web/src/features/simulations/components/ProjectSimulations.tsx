import Paper from '@mui/material/Paper';
import { SimulationList } from './SimulationList';

/**
 * Every simulation of the project, with its room, at the foot of the project's Rooms tab
 * (docs/decisions/simulations-pages.md).
 */
export function ProjectSimulations({ deviceId, projectId }: { deviceId: string; projectId: string }) {
  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <SimulationList scope={{ deviceId, projectId, roomId: null }} title="Simulations of the project" />
    </Paper>
  );
}
