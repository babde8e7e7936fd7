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
  uploadFailedMessage,
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

/** Why files were not attached: what the page says, and the files Try again sends (null after a refusal). */
export interface AttachFailure {
  message: string;
  retry: File[] | null;
  /** How many of the files, before the one that failed, were attached. */
  attached: number;
}

/**
 * A refusal of the server (its message; sending the same file again would be refused again) or a failed transfer:
 * the connection broke for longer than the automatic retries, or the browser went offline (no retry then), which
 * Try again repeats — a large file continues from the offset the server holds (its upload is found again by its
 * fingerprint).
 */
function failureOf(cause: unknown, files: readonly File[], index: number): AttachFailure {
  const name = files[index]!.name;
  if (cause instanceof ApiError && cause.status >= 400 && cause.status < 500)
    return { message: `“${name}” was not attached: ${cause.message}`, retry: null, attached: index };
  return { message: `“${name}” was not attached: ${uploadFailedMessage}.`, retry: files.slice(index), attached: index };
}

/**
 * Attaches the files one after the other; answers the first failure (the rest are not sent). A file up to the
 * one-request limit goes as one request; a larger one as a resumable upload (its progress reported), which is then
 * attached.
 */
export async function attachFiles(
  deviceId: string,
  entryId: string,
  files: readonly File[],
  onProgress: (text: string | null) => void = () => undefined,
): Promise<AttachFailure | null> {
  for (const [index, file] of files.entries()) {
    if (tooBig(file))
      return { message: `“${file.name}” was not attached: ${uploadTooLargeMessage}`, retry: null, attached: index };
    try {
      if (file.size <= attachmentMaxBytes) await attachFile(deviceId, entryId, file);
      else {
        // No "0 %" before tus reports: a file sent again continues from the server's offset, which it reports first.
        const uploadId = await sendResumable(deviceId, file, (sent, total) =>
          onProgress(sendingText(file.name, sent, total)),
        );
        await attachUploaded(deviceId, entryId, uploadId);
      }
    } catch (cause) {
      return failureOf(cause, files, index);
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
  const [failure, setFailure] = useState<AttachFailure | null>(null);
  const [progress, setProgress] = useState<string | null>(null);

  const send = async (files: File[]) => {
    setBusy(true);
    setFailure(null);
    const problem = await attachFiles(deviceId, entryId, files, setProgress);
    setBusy(false);
    setFailure(problem);
    // Read again only when a file was attached: after a failure the connection may be gone, and a failed reading
    // would replace the timeline (and this Try again) with its error.
    if (!problem || problem.attached > 0) onAttached();
  };

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    if (files.length > 0) void send(files);
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
            onChange={pick}
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
      {failure && (
        <Alert
          severity="error"
          role="alert"
          sx={{ mt: 0.5 }}
          onClose={() => setFailure(null)}
          action={
            failure.retry && canAttach ? (
              <Button color="inherit" size="small" disabled={busy} onClick={() => void send(failure.retry!)}>
                Try again
              </Button>
            ) : undefined
          }
        >
          {failure.message}
        </Alert>
      )}
    </Box>
  );
}
