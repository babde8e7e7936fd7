import { useState } from 'react';
import type { AnalysisReportRequest } from '@insilico/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import { ApiError } from '../../../lib/apiError';
import { downloadAnalysisReport } from '../api';

interface AnalysisReportButtonProps {
  deviceId: string;
  projectId: string;
  analysisId: string;
  /** The reference population to compare with in the report (the representativeness block's). */
  representativeness?: AnalysisReportRequest['representativeness'];
  /** Why the report cannot be made now (e.g. a change is being saved); null: it can. */
  disabledReason?: string | null;
  label?: string;
}

/**
 * Downloads the population analysis report (PDF, issue 23), which the server makes from the saved analysis: busy
 * while it is made, the server's message when it refuses.
 */
export function AnalysisReportButton({
  deviceId,
  projectId,
  analysisId,
  representativeness,
  disabledReason = null,
  label = 'Download report (PDF)',
}: AnalysisReportButtonProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      await downloadAnalysisReport(deviceId, projectId, analysisId, representativeness ? { representativeness } : {});
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The report could not be made. Please try again.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
      <Button
        variant="outlined"
        startIcon={busy ? <CircularProgress size={16} aria-hidden="true" /> : <PictureAsPdfIcon />}
        disabled={busy || disabledReason !== null}
        title={disabledReason ?? undefined}
        onClick={() => void download()}
      >
        {busy ? 'Making the report…' : label}
      </Button>
      {error && (
        <Alert severity="error" onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
    </Stack>
  );
}
