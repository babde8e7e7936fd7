import type { Simulation } from '@insilico/contracts';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useRefreshSimulations } from '../api';
import { SimulationList } from './SimulationList';
import { SimulationSetupPanel, type SimulationSetupPanelProps } from './SimulationSetupPanel';

/** The set-up's inputs; the panel itself refreshes the lists when a run starts. */
export type RoomSimulationsProps = Omit<SimulationSetupPanelProps, 'onStarted'>;

/** The Simulations panel of a room's scene: set up a new run, and the room's simulation list. */
export function RoomSimulations(props: RoomSimulationsProps) {
  const { deviceId, projectId, roomId } = props;
  const refresh = useRefreshSimulations();
  const started = async (_created: Simulation) => {
    await refresh(deviceId, projectId);
  };
  return (
    <Paper variant="outlined" component="section" aria-labelledby="room-simulations-title" sx={{ p: 2 }}>
      <Stack spacing={2}>
        <Typography id="room-simulations-title" variant="h5" component="h2">
          Simulations
        </Typography>
        <SimulationSetupPanel {...props} onStarted={started} />
        <Divider />
        <SimulationList scope={{ deviceId, projectId, roomId }} title="Simulations of this room" />
      </Stack>
    </Paper>
  );
}
