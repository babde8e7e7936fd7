import { useId, useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import PhotoCameraOutlinedIcon from '@mui/icons-material/PhotoCameraOutlined';
import { ApiError } from '../lib/apiError';
import { pictureFileAccept, pictureFileProblem } from '../lib/pictureFile';
import { ConfirmDialog } from './ConfirmDialog';

/** Spec §8 "Upload failure". */
export const uploadFailedMessage = 'Upload failed';

interface PictureUploadProps {
  /** What the picture is, e.g. "Profile picture"; names the buttons and the dialog. */
  label: string;
  /** The current picture (a small size is enough), or null. */
  pictureUrl: string | null;
  /** Shown without a picture: initials or an icon. */
  placeholder: ReactNode;
  variant?: 'circular' | 'rounded';
  /** Side of the preview in pixels. */
  size?: number;
  /** Sends a file that passed the checks; rejects with the server's refusal. Without it: read-only. */
  onUpload?: (file: File) => Promise<void>;
  onRemove?: () => Promise<void>;
}

type Failure = { message: string; retry: File | null };

/** A refusal of the server (its message: spec §5 texts) or a failed transfer (spec §8, with Try again). */
function failureOf(caught: unknown, file: File): Failure {
  if (caught instanceof ApiError && caught.status >= 400 && caught.status < 500)
    return { message: caught.message, retry: null };
  return { message: uploadFailedMessage, retry: file };
}

/**
 * A picture with Upload / Change and Remove (asks first). A chosen file is checked here (size and
 * JPEG/PNG by its bytes, spec §5 messages) before it is sent; the server checks it again.
 */
export function PictureUpload({
  label,
  pictureUrl,
  placeholder,
  variant = 'circular',
  size = 96,
  onUpload,
  onRemove,
}: PictureUploadProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [busy, setBusy] = useState<'upload' | 'remove' | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [removeError, setRemoveError] = useState<string | null>(null);

  async function send(file: File) {
    if (!onUpload) return;
    setFailure(null);
    const problem = await pictureFileProblem(file);
    if (problem) {
      setFailure({ message: problem, retry: null });
      return;
    }
    setBusy('upload');
    try {
      await onUpload(file);
    } catch (caught) {
      setFailure(failureOf(caught, file));
    } finally {
      setBusy(null);
    }
  }

  function chosen(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    // Cleared so that choosing the same file again (after fixing nothing) still reports it.
    event.target.value = '';
    if (file) void send(file);
  }

  async function remove() {
    if (!onRemove) return;
    setBusy('remove');
    setRemoveError(null);
    try {
      await onRemove();
      setConfirming(false);
      setFailure(null);
    } catch (caught) {
      setRemoveError(
        caught instanceof ApiError ? caught.message : 'The picture could not be removed. Please try again.',
      );
    } finally {
      setBusy(null);
    }
  }

  return (
    <Stack spacing={1.5}>
      <Stack direction="row" spacing={2.5} sx={{ alignItems: 'center' }}>
        <Box sx={{ position: 'relative', flexShrink: 0 }} aria-busy={busy !== null}>
          <Avatar
            src={pictureUrl ?? undefined}
            alt={pictureUrl ? label : ''}
            variant={variant}
            sx={{ width: size, height: size, fontSize: size / 3, bgcolor: 'primary.main' }}
          >
            {placeholder}
          </Avatar>
          {busy && (
            <CircularProgress
              size={size + 8}
              aria-label={busy === 'upload' ? 'Uploading the picture' : 'Removing the picture'}
              sx={{ position: 'absolute', top: -4, left: -4 }}
            />
          )}
        </Box>
        {onUpload ? (
          <Stack spacing={1}>
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', rowGap: 1 }}>
              <Button
                variant="outlined"
                startIcon={<PhotoCameraOutlinedIcon aria-hidden="true" />}
                onClick={() => inputRef.current?.click()}
                disabled={busy !== null}
                aria-describedby={hintId}
              >
                {pictureUrl ? 'Change picture' : 'Upload picture'}
              </Button>
              {pictureUrl && onRemove && (
                <Button
                  color="inherit"
                  startIcon={<DeleteOutlineIcon aria-hidden="true" />}
                  onClick={() => {
                    setRemoveError(null);
                    setConfirming(true);
                  }}
                  disabled={busy !== null}
                >
                  Remove
                </Button>
              )}
            </Stack>
            <Typography id={hintId} variant="caption" color="text.secondary">
              JPG, JPEG or PNG, at most 5MB.
            </Typography>
            <input
              ref={inputRef}
              type="file"
              accept={pictureFileAccept}
              aria-label={`Choose a file for the ${label.toLowerCase()}`}
              hidden
              onChange={chosen}
            />
          </Stack>
        ) : (
          <Typography variant="body2" color="text.secondary">
            {pictureUrl ? label : `No ${label.toLowerCase()} yet.`}
          </Typography>
        )}
      </Stack>
      {failure && (
        <Alert
          severity="error"
          onClose={() => setFailure(null)}
          action={
            failure.retry ? (
              <Button color="inherit" size="small" onClick={() => void send(failure.retry!)}>
                Try again
              </Button>
            ) : undefined
          }
        >
          {failure.message}
        </Alert>
      )}
      <ConfirmDialog
        open={confirming}
        title={`Remove the ${label.toLowerCase()}?`}
        message="It is deleted for good; you can upload a new one at any time."
        confirmLabel="Remove"
        busy={busy === 'remove'}
        error={removeError}
        onConfirm={() => void remove()}
        onCancel={() => setConfirming(false)}
      />
    </Stack>
  );
}
