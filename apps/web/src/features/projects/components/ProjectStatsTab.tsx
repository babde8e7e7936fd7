import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ProjectStats } from '@insilico/contracts';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { labelOf } from '../../../lib/labels';
import { PatientOriginLabel } from '../../../components/PatientOriginLabel';
import { imagingPatientPath, useImagingCohorts } from '../../imaging-patients';
import { imagingStatusLabels, useImagingDatasets } from '../../uploads';
import { useProject, useProjectStats } from '../api';
import { useProjectLocation } from '../hooks/useProjectLocation';
import { projectViewPath } from '../paths';
import { ProjectTeamPanel } from './ProjectTeamPanel';

function Section({
  title,
  figure,
  action,
  children,
}: {
  title: string;
  figure?: ReactNode;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 2.5, borderRadius: 2 }}>
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'baseline', mb: 1.5 }}>
        <Typography variant="h3" component="h2" sx={{ fontSize: 18 }}>
          {title}
        </Typography>
        {figure !== undefined && (
          <Typography sx={{ fontSize: 28, fontWeight: 700 }} aria-label={`${title}: ${String(figure)}`}>
            {figure}
          </Typography>
        )}
      </Stack>
      {children}
      {action && <Box sx={{ mt: 1.5 }}>{action}</Box>}
    </Paper>
  );
}

const none = (text: string) => (
  <Typography color="text.secondary" sx={{ fontSize: 14 }}>
    {text}
  </Typography>
);

function Cohorts({ stats }: { stats: ProjectStats }) {
  return (
    <Section title="Patients" figure={stats.patients}>
      {stats.cohorts.length === 0 ? (
        none('No patient cohorts on this project yet.')
      ) : (
        <Stack spacing={1}>
          <Box>
            <PatientOriginLabel origin="synthetic" />
          </Box>
          {stats.cohorts.map((cohort) => (
            <Stack key={cohort.id} direction="row" spacing={1} sx={{ justifyContent: 'space-between' }}>
              <Typography sx={{ fontSize: 14 }}>{cohort.name}</Typography>
              <Typography sx={{ fontSize: 14 }} color="text.secondary">
                {cohort.status === 'ready'
                  ? `${cohort.patients} patients`
                  : cohort.status === 'in_progress'
                    ? `${cohort.size} patients being prepared`
                    : 'Order failed'}
              </Typography>
            </Stack>
          ))}
        </Stack>
      )}
    </Section>
  );
}

function Versions({ stats }: { stats: ProjectStats }) {
  const { items, byStatus } = stats.deviceVersions;
  return (
    <Section title="Device versions" figure={items.length}>
      {items.length === 0 ? (
        none('No device versions on this project yet.')
      ) : (
        <Stack spacing={1}>
          <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
            {Object.entries(byStatus).map(([status, count]) => (
              <Chip key={status} size="small" label={`${labelOf(status)}: ${count}`} />
            ))}
          </Stack>
          {items.map((version) => (
            <Stack key={version.id} direction="row" spacing={1} sx={{ justifyContent: 'space-between' }}>
              <Typography sx={{ fontSize: 14 }}>{version.name}</Typography>
              <Typography sx={{ fontSize: 14 }} color="text.secondary">
                {labelOf(version.status)}
              </Typography>
            </Stack>
          ))}
        </Stack>
      )}
    </Section>
  );
}

/** Imaging cohorts of the project (issue 19): its de-identified datasets; none shown to guests (the API refuses). */
function ImagingCohorts({ deviceId, projectId }: { deviceId: string; projectId: string }) {
  const datasets = useImagingDatasets(deviceId);
  const cohorts = useImagingCohorts(deviceId, projectId);
  const mine = (datasets.data?.items ?? []).filter((dataset) => dataset.projectId === projectId);
  if (mine.length === 0) return null;
  const patientsOf = (datasetId: string) =>
    cohorts.data?.items.find((cohort) => cohort.datasetId === datasetId)?.patients ?? [];
  return (
    <Section title="Imaging cohorts" figure={mine.length}>
      <Stack spacing={1}>
        {mine.map((dataset) => (
          <Box key={dataset.id}>
            <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between' }}>
              <Link component={RouterLink} to={`/upload-images/success?dataset=${dataset.id}`} sx={{ fontSize: 14 }}>
                {dataset.name}
              </Link>
              <Typography sx={{ fontSize: 14 }} color="text.secondary">
                {dataset.counts ? `${dataset.counts.patients} patients · ` : ''}
                {imagingStatusLabels[dataset.status]}
              </Typography>
            </Stack>
            {patientsOf(dataset.id).length > 0 && (
              <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', alignItems: 'center', mt: 0.5 }}>
                <PatientOriginLabel origin="imaging" />
                {patientsOf(dataset.id).map((patient) => (
                  <Link
                    key={patient.id}
                    component={RouterLink}
                    to={imagingPatientPath(deviceId, projectId, dataset.id, patient.id)}
                    sx={{ fontSize: 14 }}
                  >
                    {patient.id}
                  </Link>
                ))}
              </Stack>
            )}
          </Box>
        ))}
      </Stack>
    </Section>
  );
}

/** `/projects/view/stats`: cohorts and patients, device versions, rooms, simulations by status, and the team. */
export function ProjectStatsTab() {
  const { deviceId, projectId, namedDeviceId } = useProjectLocation();
  const project = useProject(deviceId, projectId);
  const stats = useProjectStats(deviceId, projectId);

  let body;
  if (stats.error && !stats.data)
    body = <LoadFailure what="The project’s figures" error={stats.error} retry={() => void stats.mutate()} />;
  else if (!stats.data || !project.data || !deviceId || !projectId) body = <Loading what="the project’s figures" />;
  else
    body = (
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' },
        }}
      >
        <Cohorts stats={stats.data} />
        <ImagingCohorts deviceId={deviceId} projectId={projectId} />
        <Versions stats={stats.data} />
        <Section
          title="Rooms"
          figure={stats.data.rooms.total}
          action={
            <Link component={RouterLink} to={projectViewPath(projectId, 'rooms', namedDeviceId)}>
              Open the rooms
            </Link>
          }
        >
          {stats.data.rooms.total === 0 ? none('No rooms yet.') : none('Saved rooms on the project’s patients.')}
        </Section>
        <Section title="Simulations" figure={stats.data.simulations.total}>
          {stats.data.simulations.total === 0 ? (
            none('No simulations have been run in this project yet.')
          ) : (
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
              {Object.entries(stats.data.simulations.byStatus).map(([status, count]) => (
                <Chip key={status} size="small" label={`${labelOf(status)}: ${count}`} />
              ))}
            </Stack>
          )}
        </Section>
        <Box sx={{ gridColumn: { lg: 'span 2' } }}>
          <Section title="Team" figure={stats.data.team.length}>
            <ProjectTeamPanel
              deviceId={deviceId}
              projectId={projectId}
              team={stats.data.team}
              canManage={project.data.canManage}
            />
          </Section>
        </Box>
      </Box>
    );

  return (
    <Container maxWidth="lg" sx={{ py: 3 }}>
      {body}
    </Container>
  );
}
