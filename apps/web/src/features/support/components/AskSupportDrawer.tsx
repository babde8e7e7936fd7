import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import { useSWRConfig } from 'swr';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Drawer from '@mui/material/Drawer';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddPhotoAlternateOutlinedIcon from '@mui/icons-material/AddPhotoAlternateOutlined';
import CheckCircleOutlineIcon from '@mui/icons-material/CheckCircleOutline';
import CloseIcon from '@mui/icons-material/Close';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import { supportMessageMaxLength, supportSubjectMaxLength } from '@insilico/contracts';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ApiError } from '../../../lib/apiError';
import { pictureFileAccept, pictureFileProblem } from '../../../lib/pictureFile';
import { discardScreenshot, myRequestsKey, sendRequest, uploadScreenshot } from '../api';
import type { AskSupportPrefill } from '../useAskSupport';

interface AskSupportDrawerProps {
  open: boolean;
  onClose: () => void;
  /** Text a page asks support about (the simulation set-up's help): fills empty fields when the drawer opens. */
  prefill?: AskSupportPrefill | null;
}

interface Attached {
  screenshotId: string;
  /** A local preview of the chosen file. */
  previewUrl: string;
  name: string;
}

const refusal = (caught: unknown, fallback: string) => (caught instanceof ApiError ? caught.message : fallback);

/**
 * The ask-support drawer (spec §2 side panels): subject, message and an optional screenshot. The
 * screenshot is sent to the server as soon as it is chosen, so its checks (jpg/png, at most 5 MB)
 * answer before the request is sent. Closing with unsent text asks first.
 */
export function AskSupportDrawer({ open, onClose, prefill = null }: AskSupportDrawerProps) {
  const { mutate } = useSWRConfig();
  const fileInput = useRef<HTMLInputElement>(null);
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [attached, setAttached] = useState<Attached | null>(null);
  const [uploading, setUploading] = useState(false);
  const [screenshotError, setScreenshotError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<{ subject?: string; message?: string }>({});
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const [confirmDiscard, setConfirmDiscard] = useState(false);

  // A prefilled request (set while rendering, React's way to derive state from new props) fills what is still empty.
  const [prefilled, setPrefilled] = useState<AskSupportPrefill | null>(null);
  if (open && prefill && prefill !== prefilled) {
    setPrefilled(prefill);
    if (!subject.trim()) setSubject(prefill.subject);
    if (!message.trim()) setMessage(prefill.message);
  }

  // The local preview is released when it is replaced or the drawer goes away.
  useEffect(() => () => (attached ? URL.revokeObjectURL(attached.previewUrl) : undefined), [attached]);

  // Text as prefilled is not the user's: closing it asks nothing.
  const dirty =
    !sent &&
    (subject.trim() !== (prefill?.subject.trim() ?? '') ||
      message.trim() !== (prefill?.message.trim() ?? '') ||
      attached !== null);

  function reset() {
    setSubject('');
    setMessage('');
    setAttached(null);
    setScreenshotError(null);
    setFieldErrors({});
    setError(null);
    setSent(false);
  }

  function finish() {
    if (attached && !sent) void discardScreenshot().catch(() => undefined);
    reset();
    setConfirmDiscard(false);
    onClose();
  }

  function requestClose() {
    if (sending || uploading) return;
    if (dirty) setConfirmDiscard(true);
    else finish();
  }

  async function chooseScreenshot(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setScreenshotError(null);
    const problem = await pictureFileProblem(file);
    if (problem) return setScreenshotError(problem);
    setUploading(true);
    try {
      const uploaded = await uploadScreenshot(file);
      setAttached({ screenshotId: uploaded.screenshotId, previewUrl: URL.createObjectURL(file), name: file.name });
    } catch (caught) {
      setScreenshotError(refusal(caught, 'Upload failed'));
    } finally {
      setUploading(false);
    }
  }

  async function removeScreenshot() {
    setAttached(null);
    setScreenshotError(null);
    await discardScreenshot().catch(() => undefined);
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const errors = {
      ...(subject.trim() ? {} : { subject: 'Please enter a subject.' }),
      ...(message.trim() ? {} : { message: 'Please enter a message.' }),
    };
    setFieldErrors(errors);
    if (Object.keys(errors).length > 0) return;
    setSending(true);
    setError(null);
    try {
      await sendRequest({
        subject: subject.trim(),
        message: message.trim(),
        screenshotId: attached?.screenshotId ?? null,
      });
      setSent(true);
      void mutate(myRequestsKey);
    } catch (caught) {
      setError(refusal(caught, 'Your request could not be sent. Please try again.'));
    } finally {
      setSending(false);
    }
  }

  return (
    <Drawer
      anchor="right"
      open={open}
      onClose={requestClose}
      slotProps={{ paper: { sx: { width: { xs: '100%', sm: 460 } }, 'aria-labelledby': 'ask-support-title' } }}
    >
      <Box sx={{ p: 3 }}>
        <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center', mb: 1 }}>
          <Typography id="ask-support-title" variant="h3" component="h2">
            Ask support
          </Typography>
          <IconButton aria-label="Close" onClick={requestClose} disabled={sending || uploading}>
            <CloseIcon />
          </IconButton>
        </Stack>
        {sent ? (
          <Stack spacing={2} role="status" sx={{ alignItems: 'flex-start', mt: 2 }}>
            <CheckCircleOutlineIcon color="success" sx={{ fontSize: 40 }} aria-hidden="true" />
            <Typography variant="h4" component="p">
              Your request was sent
            </Typography>
            <Typography color="text.secondary">
              Our support team answers by e-mail and here in the workspace; you get a notification when they do.
            </Typography>
            <Stack direction="row" spacing={1.5}>
              <Button component={RouterLink} to="/help#your-requests" onClick={finish} variant="outlined">
                See your requests
              </Button>
              <Button onClick={finish}>Close</Button>
            </Stack>
          </Stack>
        ) : (
          <Box component="form" onSubmit={(event) => void submit(event)} noValidate>
            <Typography variant="body2" color="text.secondary" sx={{ mb: 3 }}>
              Describe what you need or what went wrong. A screenshot often helps us help you faster.
            </Typography>
            <Stack spacing={2.5}>
              <TextField
                label="Subject"
                required
                autoFocus
                value={subject}
                onChange={(event) => {
                  setSubject(event.target.value);
                  setFieldErrors((current) => ({ ...current, subject: undefined }));
                }}
                error={Boolean(fieldErrors.subject)}
                helperText={fieldErrors.subject}
                slotProps={{ htmlInput: { maxLength: supportSubjectMaxLength } }}
              />
              <TextField
                label="Message"
                required
                multiline
                minRows={6}
                value={message}
                onChange={(event) => {
                  setMessage(event.target.value);
                  setFieldErrors((current) => ({ ...current, message: undefined }));
                }}
                error={Boolean(fieldErrors.message)}
                helperText={fieldErrors.message}
                slotProps={{ htmlInput: { maxLength: supportMessageMaxLength } }}
              />
              <Box>
                <input
                  ref={fileInput}
                  type="file"
                  accept={pictureFileAccept}
                  hidden
                  aria-label="Screenshot file"
                  onChange={(event) => void chooseScreenshot(event)}
                />
                {attached ? (
                  <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
                    <Box
                      component="img"
                      src={attached.previewUrl}
                      alt="Attached screenshot"
                      sx={{
                        width: 96,
                        height: 64,
                        objectFit: 'cover',
                        borderRadius: 1,
                        border: 1,
                        borderColor: 'divider',
                      }}
                    />
                    <Typography variant="body2" sx={{ flex: 1, overflowWrap: 'anywhere' }}>
                      {attached.name}
                    </Typography>
                    <Button
                      color="inherit"
                      startIcon={<DeleteOutlineIcon />}
                      onClick={() => void removeScreenshot()}
                      disabled={sending}
                    >
                      Remove
                    </Button>
                  </Stack>
                ) : (
                  <Button
                    variant="outlined"
                    startIcon={
                      uploading ? <CircularProgress size={16} aria-hidden="true" /> : <AddPhotoAlternateOutlinedIcon />
                    }
                    onClick={() => fileInput.current?.click()}
                    disabled={uploading || sending}
                  >
                    {uploading ? 'Attaching…' : 'Attach screenshot'}
                  </Button>
                )}
                <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 1 }}>
                  Optional: jpg, jpeg or png, at most 5 MB.
                </Typography>
                {screenshotError && (
                  <Alert severity="error" role="alert" sx={{ mt: 1 }}>
                    {screenshotError}
                  </Alert>
                )}
              </Box>
              {error && (
                <Alert severity="error" role="alert">
                  {error}
                </Alert>
              )}
              <Stack direction="row" spacing={1.5} sx={{ justifyContent: 'flex-end' }}>
                <Button onClick={requestClose} disabled={sending || uploading}>
                  Cancel
                </Button>
                <Button
                  type="submit"
                  variant="contained"
                  disabled={sending || uploading}
                  startIcon={sending ? <CircularProgress size={16} color="inherit" aria-hidden="true" /> : undefined}
                >
                  {sending ? 'Sending…' : 'Send request'}
                </Button>
              </Stack>
            </Stack>
          </Box>
        )}
      </Box>
      <ConfirmDialog
        open={confirmDiscard}
        title="Discard your request?"
        message="What you wrote (and the attached screenshot) will be lost."
        confirmLabel="Discard"
        onConfirm={finish}
        onCancel={() => setConfirmDiscard(false)}
      />
    </Drawer>
  );
}
