import { useEffect, useRef } from 'react';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { DeviceVersion } from '@insilico/contracts';
import { formatDate } from '../../../lib/formatDate';
import { isProcessing } from '../api';
import { DeleteVersionButton } from './DeleteVersionButton';
import { DeviceVersionStatusChip } from './DeviceVersionStatusChip';
import { VersionFiles } from './VersionFiles';

/**
 * One version on the versions page: status (with progress or the failure and its reasons), projects, files; Delete
 * for those who create versions, once processing has ended.
 */
export function DeviceVersionCard({
  deviceId,
  version,
  highlighted,
  canDelete,
}: {
  deviceId: string;
  version: DeviceVersion;
  highlighted: boolean;
  canDelete: boolean;
}) {
  const ref = useRef<HTMLElement>(null);
  // A link to one version (the notification) brings it into view.
  useEffect(() => {
    if (highlighted) ref.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  }, [highlighted]);
  const headingId = `version-${version.id}`;

  return (
    <Paper
      ref={ref}
      component="article"
      aria-labelledby={headingId}
      variant="outlined"
      sx={{
        p: 3,
        borderRadius: 2,
        borderColor: highlighted ? 'primary.main' : undefined,
        borderWidth: highlighted ? 2 : 1,
      }}
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ justifyContent: 'space-between', mb: 1 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography id={headingId} variant="h3" component="h2">
            {version.name}
          </Typography>
          <DeviceVersionStatusChip status={version.status} />
        </Stack>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography variant="body2" color="text.secondary">
            {formatDate(version.createdAt)}
            {version.createdBy ? ` · ${version.createdBy.fullName}` : ''}
          </Typography>
          {canDelete && !isProcessing(version) && <DeleteVersionButton deviceId={deviceId} version={version} />}
        </Stack>
      </Stack>
      {version.description && (
        <Typography color="text.secondary" sx={{ mb: 1.5, whiteSpace: 'pre-wrap' }}>
          {version.description}
        </Typography>
      )}
      {isProcessing(version) && (
        <Stack spacing={0.5} sx={{ mb: 2 }} role="status">
          <LinearProgress
            variant="determinate"
            value={Math.round(version.progress * 100)}
            aria-label={`Processing of ${version.name}`}
          />
          <Typography variant="body2" color="text.secondary">
            {version.progressMessage ?? 'Waiting to be processed…'} You will get a notification when it is done.
          </Typography>
        </Stack>
      )}
      {version.status === 'failed' && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {version.error}
          <ul style={{ margin: '4px 0 0', paddingLeft: 20 }}>
            {version.files
              .filter((file) => file.status === 'refused')
              .map((file) => (
                <li key={file.id}>
                  <strong>{file.fileName}:</strong> {file.refusal?.message}
                </li>
              ))}
          </ul>
        </Alert>
      )}
      {version.projects.length > 0 && (
        <Stack direction="row" spacing={1} sx={{ mb: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
          <Typography variant="body2" color="text.secondary">
            Used in
          </Typography>
          {version.projects.map((project) => (
            <Chip
              key={project.id}
              size="small"
              label={project.name}
              component={RouterLink}
              to={`/projects/view/stats?project=${project.id}`}
              clickable
            />
          ))}
        </Stack>
      )}
      <VersionFiles files={version.files} versionName={version.name} />
    </Paper>
  );
}
