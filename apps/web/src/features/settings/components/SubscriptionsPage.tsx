import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { seatsFullMessage, subscriptionPlanLabels, type DeviceSummary, type Subscription } from '@insilico/contracts';
import { Page } from '../../../components/Page';
import { useSelectedDevice } from '../../devices';
import { useAskSupport } from '../../support';
import { useSubscription } from '../useSubscription';

function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="dt">
        {label}
      </Typography>
      <Typography variant="h3" component="dd" sx={{ m: 0 }}>
        {value}
      </Typography>
    </Box>
  );
}

function SubscriptionCard({ subscription }: { subscription: Subscription }) {
  const drawer = useAskSupport();
  const { seats, seatsUsed, seatsAvailable, usage } = subscription;
  const full = seatsAvailable === 0;
  return (
    <Stack spacing={3}>
      <Paper variant="outlined" sx={{ p: { xs: 2.5, md: 4 }, borderRadius: 3 }}>
        <Typography variant="overline" color="text.secondary" component="p">
          {subscription.deviceName}
        </Typography>
        <Typography variant="h2" component="h2" sx={{ mb: 3 }}>
          {subscriptionPlanLabels[subscription.plan]} plan
        </Typography>
        <Box
          component="dl"
          sx={{ m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(3, 1fr)' } }}
        >
          <Figure label="Seats" value={seats} />
          <Figure label="Seats used" value={seatsUsed} />
          <Figure label="Seats available" value={seatsAvailable} />
        </Box>
        <LinearProgress
          variant="determinate"
          value={Math.min(100, (seatsUsed / Math.max(1, seats)) * 100)}
          color={full ? 'warning' : 'primary'}
          aria-label={`${seatsUsed} of ${seats} seats used`}
          sx={{ mt: 3, height: 8, borderRadius: 4 }}
        />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          A seat is taken by each member ({usage.members}), each person waiting for approval ({usage.pendingApproval})
          and each open invitation ({usage.openInvitations}). Revoking an invitation or removing a member frees a seat.
        </Typography>
      </Paper>
      {full && (
        <Alert
          severity="warning"
          action={
            <Button color="inherit" size="small" onClick={drawer.open}>
              Contact support
            </Button>
          }
        >
          {seatsFullMessage(seats)}
        </Alert>
      )}
      <Typography variant="body2" color="text.secondary">
        To change your plan or the number of seats,{' '}
        <Button size="small" onClick={drawer.open} sx={{ verticalAlign: 'baseline', p: 0, minWidth: 0 }}>
          ask support
        </Button>
        .
      </Typography>
    </Stack>
  );
}

function SubscriptionOf({ device }: { device: DeviceSummary }) {
  const subscription = useSubscription(device.deviceId);
  if (subscription.data) return <SubscriptionCard subscription={subscription.data} />;
  if (subscription.error)
    return subscription.error.status === 403 ? (
      <Alert severity="warning">{subscription.error.message}</Alert>
    ) : (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void subscription.mutate()}>
            Retry
          </Button>
        }
      >
        The subscription could not be loaded. {subscription.error.message}
      </Alert>
    );
  return (
    <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center', py: 2 }}>
      <CircularProgress size={22} aria-hidden="true" />
      <Typography color="text.secondary">Loading the subscription…</Typography>
    </Stack>
  );
}

/** `/subscriptions`: the selected workspace's plan, its seats, those used and those available. */
export function SubscriptionsPage() {
  const selected = useSelectedDevice();
  let body;
  if (selected.data?.device)
    body = <SubscriptionOf key={selected.data.device.deviceId} device={selected.data.device} />;
  else if (selected.error && !selected.data)
    body = <Alert severity="error">Your workspace could not be loaded. {selected.error.message}</Alert>;
  else if (!selected.data)
    body = (
      <Stack direction="row" spacing={1.5} role="status" sx={{ alignItems: 'center', py: 2 }}>
        <CircularProgress size={22} aria-hidden="true" />
        <Typography color="text.secondary">Loading your workspace…</Typography>
      </Stack>
    );
  else
    body = (
      <Alert
        severity="info"
        action={
          <Button component={RouterLink} to="/devices/setup" color="inherit" size="small">
            Set up a device
          </Button>
        }
      >
        You have no device workspace yet (or an admin still has to accept you).
      </Alert>
    );
  return (
    <Page title="Subscriptions" section="Settings">
      {body}
    </Page>
  );
}
