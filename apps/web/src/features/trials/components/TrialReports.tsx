import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { TrialDetail } from '@insilico/contracts';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { ApiError } from '../../../lib/apiError';
import { formatDate } from '../../../lib/formatDate';
import { requestTrialReport, useTrialReports } from '../api';

/**
 * The trial's reports (PDF): each is made by a job from the trial as it stood when asked for, stored, and downloads the
 * same later (its SHA-256 is shown). Whoever sees the trial may ask for one.
 */
export function TrialReports({ deviceId, trial }: { deviceId: string; trial: TrialDetail }) {
  const reports = useTrialReports(deviceId, trial.projectId, trial.id);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const request = async () => {
    setBusy(true);
    setError(null);
    try {
      const report = await requestTrialReport(deviceId, trial.projectId, trial.id);
      await reports.mutate((list) => ({ items: [report, ...(list?.items ?? [])] }), { revalidate: false });
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'That did not work. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper variant="outlined" sx={{ p: 2, mt: 2 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          Reports
        </Typography>
        <Button variant="outlined" disabled={busy} onClick={() => void request()}>
          Create report (PDF)
        </Button>
      </Stack>
      <Typography color="text.secondary">
        {trial.ssm
          ? 'Set-up, the shape model and its instances’ mode scores, outcome distributions, pass counts, extreme instances, solver settings and provenance, as the trial stands when you ask.'
          : 'Set-up, cohort, outcome distributions, pass fractions, extreme patients, solver settings and provenance, as the trial stands when you ask.'}
      </Typography>
      {error && (
        <Alert severity="error" role="alert" sx={{ mt: 1 }}>
          {error}
        </Alert>
      )}
      {reports.error ? (
        <LoadFailure what="The reports" error={reports.error} retry={() => void reports.mutate()} />
      ) : !reports.data ? (
        <Loading what="the reports" />
      ) : reports.data.items.length === 0 ? (
        <Typography sx={{ mt: 1 }}>No report yet.</Typography>
      ) : (
        <List dense aria-label="Reports">
          {reports.data.items.map((r) => (
            <ListItem key={r.id} disableGutters>
              <ListItemText
                primary={
                  r.status === 'ready' && r.url ? (
                    <Link href={r.url} download>
                      Report of {formatDate(r.createdAt)}
                    </Link>
                  ) : (
                    `Report of ${formatDate(r.createdAt)}: ${r.status === 'queued' ? 'being made…' : (r.error ?? 'failed')}`
                  )
                }
                secondary={[
                  r.createdBy ? `asked for by ${r.createdBy.name}` : null,
                  r.bytes !== null ? `${Math.max(1, Math.round(r.bytes / 1024))} KB` : null,
                  r.sha256 ? `SHA-256 ${r.sha256.slice(0, 16)}…` : null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Paper>
  );
}
