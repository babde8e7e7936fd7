import { useState } from 'react';
import { useNavigate, Link as RouterLink } from 'react-router';
import { useSWRConfig } from 'swr';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ApiError } from '../../../lib/apiError';
import { isRoomsChangedKey } from '../../../lib/projectKeys';
import { openRoom } from '../api';
import { formatValue } from '../format';
import type { TrialRun } from '../trialOutcomes';
import { patientAt, type BlockProps } from './blockProps';
import { ExportTable } from './ExportTable';

interface CaseRow {
  patientId: string;
  cluster: number;
  clusterSize: number;
  distance: number;
}

interface ExtremeCasesBlockProps extends Pick<BlockProps, 'outcome' | 'table'> {
  deviceId: string;
  projectId: string;
  cohortId: string;
  /** Whether the cohort is virtual patients or the delivered patients of the user's imaging data. */
  cohortSource: 'virtual' | 'imaging';
  canOpenRooms: boolean;
  /** The patient's completed runs in the trials whose outcomes are analysed (none by default). */
  runsOf?: (patientId: string) => readonly TrialRun[];
}

const noRuns = (): readonly TrialRun[] => [];

/**
 * Up to five multidimensional extreme cases (spec §9; docs/decisions/stats-extreme-cases.md), each with a button
 * that opens a room on that patient in the project (the Rooms API) and, when trial outcomes are analysed, a link to
 * the patient's simulation in each such trial (its room's results page, issue 17).
 */
export function ExtremeCasesBlock({
  outcome,
  table,
  deviceId,
  projectId,
  cohortId,
  cohortSource,
  canOpenRooms,
  runsOf = noRuns,
}: ExtremeCasesBlockProps) {
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const [opening, setOpening] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { extremeCases } = outcome.analysis;
  const rows: CaseRow[] = extremeCases.cases.map((item) => ({
    patientId: patientAt(outcome, table, item.row),
    cluster: item.cluster + 1,
    clusterSize: item.clusterSize,
    distance: item.distance,
  }));
  const roomsTab = `/projects/view/rooms?project=${projectId}`;

  const open = async (patientId: string) => {
    setOpening(patientId);
    setFailure(null);
    try {
      const roomId = await openRoom(deviceId, projectId, { id: cohortId, source: cohortSource }, patientId);
      // A new room (or one opened again): the project's Rooms tab and figures must show it.
      void mutate(isRoomsChangedKey(deviceId, projectId));
      void navigate(`/projects/room?project=${projectId}&room=${roomId}`);
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : 'The room could not be opened.');
      setOpening(null);
    }
  };

  return (
    <Stack spacing={1.5}>
      <Typography color="text.secondary">
        The patient farthest from the population centre in each of up to five clusters (standardised parameters,
        principal components explaining {formatValue(extremeCases.explainedVariance * 100, 0)} % of the variance,
        k-means++ with a fixed seed).
      </Typography>
      {failure && (
        <Alert severity="error">
          {failure} You can also open rooms from the{' '}
          <Link component={RouterLink} to={roomsTab}>
            project’s Rooms tab
          </Link>
          .
        </Alert>
      )}
      <ExportTable
        title="Extreme cases"
        fileName="extreme-cases"
        columns={[
          { header: 'Patient', value: (row: CaseRow) => row.patientId },
          { header: 'Cluster', value: (row) => row.cluster, numeric: true },
          { header: 'Patients in cluster', value: (row) => row.clusterSize, numeric: true },
          { header: 'Distance (SD)', value: (row) => row.distance, decimals: 2, numeric: true },
        ]}
        rows={rows}
        rowKey={(row) => row.patientId}
        emptyText="No extreme cases: the parameters do not vary."
        actions={(row) => (
          <>
            {runsOf(row.patientId).map((run) => (
              <Button
                key={run.simulationId}
                size="small"
                component={RouterLink}
                to={`/projects/room/analyses?${new URLSearchParams({ project: projectId, room: run.roomId, simulation: run.simulationId, device: deviceId }).toString()}`}
              >
                Open simulation ({run.trialName})
              </Button>
            ))}
            {canOpenRooms && (
              <Button size="small" disabled={opening !== null} onClick={() => void open(row.patientId)}>
                {opening === row.patientId ? 'Opening…' : 'Open room'}
              </Button>
            )}
          </>
        )}
      />
    </Stack>
  );
}
