import { useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { useSWRConfig } from 'swr';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import HourglassTopOutlinedIcon from '@mui/icons-material/HourglassTopOutlined';
import type { DeviceSummary } from '@insilico/contracts';
import { Page } from '../../../components/Page';
import { ApiError } from '../../../lib/apiError';
import { devicesKey, selectDevice, selectedDeviceKey, useDevices } from '../../devices';
import { acceptInvitation } from '../api';

/** How often the waiting page asks whether an admin has accepted the user. */
export const approvalPollMs = 5000;

// One request per token, even when React runs the effect twice (development) or the page remounts.
const accepting = new Map<string, Promise<DeviceSummary>>();

const refusalTitles: Record<string, string> = {
  invitation_invalid: 'This invitation link is not valid',
  invitation_used: 'This invitation has been used already',
  invitation_expired: 'This invitation has expired',
  already_member: 'You are in this device workspace already',
};

function Busy({ text }: { text: string }) {
  return (
    <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center', py: 2 }}>
      <CircularProgress size={22} aria-hidden="true" />
      <Typography color="text.secondary">{text}</Typography>
    </Stack>
  );
}

const toWorkspace = (
  <Button component={RouterLink} to="/" variant="outlined">
    Go to my workspace
  </Button>
);

/** Follows the mailed link: accepts the token, then shows the membership until an admin accepts. */
function Accepting({ token }: { token: string }) {
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const [error, setError] = useState<ApiError | null>(null);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    let pending = accepting.get(token);
    if (!pending) {
      pending = acceptInvitation(token);
      accepting.set(token, pending);
      // A failure may be retried (network); a success must not be sent twice.
      pending.catch(() => accepting.delete(token));
    }
    pending.then(
      async (device) => {
        await mutate(devicesKey);
        // The token leaves the address bar (and the history) once used.
        if (current) void navigate(`?device=${device.deviceId}`, { replace: true });
      },
      (caught: unknown) => {
        if (current)
          setError(
            caught instanceof ApiError
              ? caught
              : new ApiError(0, 'unknown', 'The invitation could not be accepted. Please try again.'),
          );
      },
    );
    return () => {
      current = false;
    };
  }, [token, attempt, mutate, navigate]);

  if (!error) return <Busy text="Accepting your invitation…" />;
  const title = refusalTitles[error.code];
  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      <Alert severity="error" role="alert" sx={{ width: '100%' }}>
        <AlertTitle>{title ?? 'The invitation could not be accepted'}</AlertTitle>
        {error.message}
      </Alert>
      <Stack direction="row" spacing={1.5}>
        {!title && (
          <Button
            variant="contained"
            onClick={() => {
              setError(null);
              setAttempt((count) => count + 1);
            }}
          >
            Try again
          </Button>
        )}
        {toWorkspace}
      </Stack>
    </Stack>
  );
}

/** After accepting: waits (polling) while pending_approval; once ok, selects the workspace and opens it. */
function Membership({ deviceId }: { deviceId: string }) {
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const devices = useDevices();
  const device = devices.data?.items.find((item) => item.deviceId === deviceId);
  const waiting = device?.userStatus === 'pending_approval';
  const [openError, setOpenError] = useState<string | null>(null);

  // The shared device list is asked again only while this page waits.
  useEffect(() => {
    if (!waiting) return undefined;
    const timer = window.setInterval(() => void mutate(devicesKey), approvalPollMs);
    return () => window.clearInterval(timer);
  }, [waiting, mutate]);

  const accepted = device?.userStatus === 'ok';
  useEffect(() => {
    if (!accepted) return;
    let current = true;
    selectDevice(deviceId).then(
      async () => {
        await mutate(selectedDeviceKey);
        if (current) void navigate('/', { replace: true });
      },
      (caught: unknown) => {
        if (current) setOpenError(caught instanceof ApiError ? caught.message : 'The workspace could not be opened.');
      },
    );
    return () => {
      current = false;
    };
  }, [accepted, deviceId, mutate, navigate]);

  if (devices.error && !devices.data)
    return (
      <Alert severity="error">
        Your workspaces could not be loaded. {devices.error.message} This page tries again by itself.
      </Alert>
    );
  if (!devices.data) return <Busy text="Loading your membership…" />;
  if (!device)
    return (
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Alert severity="warning" sx={{ width: '100%' }}>
          <AlertTitle>You are not in this device workspace</AlertTitle>
          An admin declined your request or removed you. Ask your device company admin for a new invitation.
        </Alert>
        {toWorkspace}
      </Stack>
    );
  if (accepted)
    return openError ? (
      <Alert severity="error">{openError}</Alert>
    ) : (
      <Busy text={`You are in. Opening “${device.deviceName}”…`} />
    );
  return (
    <Paper variant="outlined" sx={{ p: { xs: 3, md: 4 }, borderRadius: 3 }}>
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }} role="status" aria-live="polite">
        <HourglassTopOutlinedIcon color="warning" sx={{ fontSize: 44 }} aria-hidden="true" />
        <Typography variant="h3" component="h2">
          Waiting for an admin to accept you
        </Typography>
        <Typography>
          You have joined “{device.deviceName}” as {device.role === 'admin' ? 'an admin' : `a ${device.role}`}. An admin
          of the device workspace still has to accept you. This page opens the workspace by itself once they have.
        </Typography>
      </Stack>
    </Paper>
  );
}

/** /accept-invitation?token=… (the mailed link), then ?device=… while the user waits for approval. */
export function AcceptInvitationPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const deviceId = params.get('device');
  let body;
  if (token) body = <Accepting token={token} />;
  else if (deviceId) body = <Membership deviceId={deviceId} />;
  else
    body = (
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Alert severity="error" role="alert" sx={{ width: '100%' }}>
          <AlertTitle>This invitation link is incomplete</AlertTitle>
          Open the link from the invitation e-mail exactly as it was sent, or ask your device admin for a new
          invitation.
        </Alert>
        {toWorkspace}
      </Stack>
    );
  return (
    <Page title="Invitation" section="Device workspace">
      {body}
    </Page>
  );
}
