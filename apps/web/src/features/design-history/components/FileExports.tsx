import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  designHistoryExportRetentionDays,
  type DesignHistoryExport,
  type DesignHistoryExportList,
} from '@insilico/contracts';
import { formatDate, formatDateTime } from '../../../lib/formatDate';

const formatNames = { pdf: 'PDF', zip: 'evidence ZIP' } as const;

interface Props {
  exports: DesignHistoryExportList | undefined;
  /** The projects' names, for the scope of each file. */
  projectName: (projectId: string) => string | undefined;
  /** The export a notification links to (`?export=`): shown first and marked. */
  highlighted: string | null;
}

function scopeOf(item: DesignHistoryExport, projectName: Props['projectName']): string {
  if (!item.projectId) return 'all projects';
  return projectName(item.projectId) ?? 'a project';
}

function ExportLine({ item, projectName }: { item: DesignHistoryExport; projectName: Props['projectName'] }) {
  const what = `The ${formatNames[item.format]} of ${scopeOf(item, projectName)}, asked for ${formatDateTime(item.requestedAt)}`;
  switch (item.status) {
    case 'queued':
      return (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status">
          <CircularProgress size={16} aria-hidden />
          <Typography variant="body2">{what}: being made. You will be notified when it can be downloaded.</Typography>
        </Stack>
      );
    case 'ready':
      return (
        <Box>
          <Typography variant="body2">
            {what}: ready.{' '}
            <Link href={item.download ?? undefined} download={item.fileName ?? true}>
              Download {item.fileName}
            </Link>
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
            SHA-256 {item.sha256} (recorded in the audit trail). Kept until{' '}
            {item.expiresAt ? formatDate(item.expiresAt) : '—'}, then removed.
          </Typography>
        </Box>
      );
    case 'failed':
      return (
        <Typography variant="body2" color="error">
          {what}: {item.error ?? 'it could not be made.'} Please export it again.
        </Typography>
      );
    case 'expired':
      return (
        <Typography variant="body2" color="text.secondary">
          {what}: removed {designHistoryExportRetentionDays} days after it was made. Export it again if you need it.
        </Typography>
      );
  }
}

/**
 * The design history files a job made (or is making) for the user: in progress with a spinner, then the download
 * with the file's SHA-256 and how long it is kept. Shown only when there is one.
 */
export function FileExports({ exports, projectName, highlighted }: Props) {
  const items = [...(exports?.items ?? [])].sort((a, b) => Number(b.id === highlighted) - Number(a.id === highlighted));
  if (items.length === 0) return null;
  return (
    <Paper
      component="section"
      variant="outlined"
      sx={{ borderRadius: 3, p: 2, mb: 2 }}
      aria-label="Design history files"
    >
      <Typography variant="subtitle2" component="h2" sx={{ mb: 1 }}>
        Design history files
      </Typography>
      <Stack spacing={1.5}>
        {items.map((item) =>
          item.id === highlighted ? (
            <Alert key={item.id} severity={item.status === 'failed' ? 'error' : 'info'} icon={false}>
              <ExportLine item={item} projectName={projectName} />
            </Alert>
          ) : (
            <ExportLine key={item.id} item={item} projectName={projectName} />
          ),
        )}
      </Stack>
    </Paper>
  );
}
