import { useState } from 'react';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import type { DesignHistoryExport, DesignHistoryFileFormat } from '@insilico/contracts';
import { saveBlob } from '../../analysis';
import { exportDesignHistoryFile } from '../api';

const labels: Record<DesignHistoryFileFormat, { idle: string; busy: string }> = {
  pdf: { idle: 'Export PDF', busy: 'Preparing the PDF…' },
  zip: { idle: 'Export evidence ZIP', busy: 'Preparing the ZIP…' },
};

interface Props {
  deviceId: string;
  /** The project the page shows ('' = every project the user sees). */
  projectId: string;
  /** A refused or failed export, with the server's words (null when an export starts). */
  onError: (message: string | null) => void;
  /** A large history: the file is being made by a job (the page lists it until it can be downloaded). */
  onQueued: (queued: DesignHistoryExport) => void;
}

/**
 * The design history file for sign-off (PDF) and for an inspector (ZIP with the evidence and SHA-256 hashes), of
 * the project the filters show: made by the server, the buttons disabled and the one pressed busy meanwhile. A large
 * history's file is made by a job instead: the page lists it (FileExports) until it can be downloaded.
 */
export function FileExportButtons({ deviceId, projectId, onError, onQueued }: Props) {
  const [exporting, setExporting] = useState<DesignHistoryFileFormat | null>(null);

  const run = async (format: DesignHistoryFileFormat) => {
    setExporting(format);
    onError(null);
    try {
      const answer = await exportDesignHistoryFile(deviceId, { format, ...(projectId ? { projectId } : {}) });
      if (answer.kind === 'queued') onQueued(answer.export);
      else saveBlob(answer.fileName ?? `design-history.${format}`, answer.blob);
    } catch (error) {
      onError(error instanceof Error ? error.message : 'The design history file could not be exported.');
    } finally {
      setExporting(null);
    }
  };

  return (
    <>
      {(['pdf', 'zip'] as const).map((format) => (
        <Button
          key={format}
          onClick={() => void run(format)}
          disabled={exporting !== null}
          aria-busy={exporting === format}
          startIcon={exporting === format ? <CircularProgress size={16} aria-hidden /> : undefined}
        >
          {exporting === format ? labels[format].busy : labels[format].idle}
        </Button>
      ))}
    </>
  );
}
