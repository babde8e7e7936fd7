import { useRef, useState, type ChangeEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import {
  attachmentMaxBytes,
  attachmentUploadMaxBytes,
  uploadTooLargeMessage,
  type DesignHistoryAttachment,
} from '@insilico/contracts';
import { ApiError } from '../../../lib/apiError';
import { formatBytes } from '../../device-versions';
import { attachFile, attachUploaded } from '../api';
import { sendResumable } from '../attachmentUpload';

/** Files over the limit are refused here before they are sent (the server refuses them too). */
export function tooBig(file: File): boolean {
  return file.size > attachmentUploadMaxBytes;
}

/** How far the sending of a large file is, as the page shows it. */
export function sendingText(name: string, sent: number, total: number): string {
  return `Sending “${name}”: ${total > 0 ? Math.floor((100 * sent) / total) : 0} %`;
}

/**
 * Attaches the files one after the other; answers the message of the first refusal (the rest are not sent). A file
 * up to the one-request limit goes as one request; a larger one as a resumable upload (its progress reported), which
 * is then attached.
 */
export async function attachFiles(
  deviceId: string,
  entryId: string,
  files: readonly File[],
  onProgress: (text: string | null) => void = () => undefined,
): Promise<string | null> {
  for (const file of files) {
    if (tooBig(file)) return `“${file.name}” was not attached: ${uploadTooLargeMessage}`;
    try {
      if (file.size <= attachmentMaxBytes) await attachFile(deviceId, entryId, file);
      else {
        onProgress(sendingText(file.name, 0, file.size));
        const uploadId = await sendResumable(deviceId, file, (sent, total) =>
          onProgress(sendingText(file.name, sent, total)),
        );
        await attachUploaded(deviceId, entryId, uploadId);
      }
    } catch (cause) {
      const why = cause instanceof ApiError ? cause.message : 'It could not be sent. Try again.';
      return `“${file.name}” was not attached: ${why}`;
    } finally {
      onProgress(null);
    }
  }
  return null;
}

/** One attached file: its name (the download), size and SHA-256. */
function AttachmentLine({ attachment }: { attachment: DesignHistoryAttachment }) {
  return (
    <Typography component="li" variant="body2" data-testid="attachment" sx={{ overflowWrap: 'anywhere' }}>
      <Link href={attachment.download} download={attachment.fileName}>
        {attachment.fileName}
      </Link>{' '}
      <Typography component="span" variant="caption" color="text.secondary">
        {formatBytes(attachment.bytes)} · SHA-256 <code>{attachment.sha256}</code>
      </Typography>
    </Typography>
  );
}

interface Props {
  deviceId: string;
  entryId: string;
  entryTitle: string;
  attachments: DesignHistoryAttachment[];
  /** Files can be attached by whoever may write, while nobody has signed the entry. */
  canAttach: boolean;
  onAttached: () => void;
}

/** An entry's attached files, and "Attach file" while it is not signed. */
export function EntryAttachments({ deviceId, entryId, entryTitle, attachments, canAttach, onAttached }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<string | null>(null);

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    if (files.length === 0) return;
    setBusy(true);
    setError(null);
    const problem = await attachFiles(deviceId, entryId, files, setProgress);
    setBusy(false);
    setError(problem);
    onAttached();
  };

  if (attachments.length === 0 && !canAttach) return null;
  return (
    <Box sx={{ mt: 0.5 }}>
      {attachments.length > 0 && (
        <Box component="ul" aria-label="Attachments" sx={{ pl: 2, m: 0 }}>
          {attachments.map((attachment) => (
            <AttachmentLine key={attachment.id} attachment={attachment} />
          ))}
        </Box>
      )}
      {canAttach && (
        <>
          <input
            ref={input}
            type="file"
            multiple
            hidden
            aria-label={`Files to attach to ${entryTitle}`}
            onChange={(event) => void pick(event)}
          />
          <Button
            size="small"
            onClick={() => input.current?.click()}
            disabled={busy}
            startIcon={busy ? <CircularProgress size={14} color="inherit" aria-hidden="true" /> : undefined}
          >
            {busy ? 'Attaching…' : 'Attach file'}
          </Button>
          {progress && (
            <Typography component="span" variant="caption" role="status" sx={{ ml: 1 }}>
              {progress}
            </Typography>
          )}
        </>
      )}
      {error && (
        <Alert severity="error" role="alert" sx={{ mt: 0.5 }} onClose={() => setError(null)}>
          {error}
        </Alert>
      )}
    </Box>
  );
}
