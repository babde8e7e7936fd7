import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardActions from '@mui/material/CardActions';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import AddCircleOutlineIcon from '@mui/icons-material/AddCircleOutline';
import GroupAddOutlinedIcon from '@mui/icons-material/GroupAddOutlined';
import { LoadFailure, Loading } from '../../../components/LoadState';
import { Page } from '../../../components/Page';
import { useOnboarding } from '../../onboarding';
import { useDevices } from '../api';
import { addDevicePages, addDeviceTarget } from '../addDeviceFlow';

/** /add-device: a further device workspace — create a new one, or how to join a colleague's. */
export function AddDevicePage() {
  const devices = useDevices();
  const onboarding = useOnboarding();
  const error = devices.error ?? onboarding.error;

  let body;
  if (error && (!devices.data || !onboarding.data)) {
    const retry = () => {
      void devices.mutate();
      void onboarding.mutate();
    };
    body = <LoadFailure what="Your workspaces" error={error} retry={retry} />;
  } else if (!devices.data || !onboarding.data) {
    body = <Loading what="your workspaces" />;
  } else if (!devices.data.items.some((device) => device.userStatus === 'ok')) {
    body = (
      <Alert
        severity="info"
        action={
          <Button component={RouterLink} to="/devices/setup" color="inherit" size="small">
            Set up your first device
          </Button>
        }
      >
        Add device creates a further workspace next to one you work in. Set up your first device workspace through the
        onboarding, or wait until an admin accepts you into theirs.
      </Alert>
    );
  } else if (!onboarding.data.mayCreateWorkspace) {
    body = <Alert severity="info">You may not create a device workspace. Ask your device company admin.</Alert>;
  } else {
    const started = onboarding.data.state.stepActive > 1;
    const start = started ? addDeviceTarget(onboarding.data.state) : addDevicePages[0].path;
    body = (
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 6 }}>
          <Card variant="outlined" sx={{ height: '100%', borderRadius: 3, display: 'flex', flexDirection: 'column' }}>
            <CardContent sx={{ flex: 1 }}>
              <AddCircleOutlineIcon color="primary" sx={{ fontSize: 36 }} aria-hidden="true" />
              <Typography variant="h4" component="h2" sx={{ mt: 1 }}>
                Create a new device
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                Set up a workspace for another device in four steps: body part, development stage, device details and
                your team. You become its admin, and it becomes the workspace you work in.
              </Typography>
            </CardContent>
            <CardActions sx={{ px: 2, pb: 2 }}>
              <Button component={RouterLink} to={start} variant="contained">
                {started ? 'Continue where you left off' : 'Create new'}
              </Button>
            </CardActions>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Card variant="outlined" sx={{ height: '100%', borderRadius: 3 }}>
            <CardContent>
              <GroupAddOutlinedIcon color="primary" sx={{ fontSize: 36 }} aria-hidden="true" />
              <Typography variant="h4" component="h2" sx={{ mt: 1 }}>
                Join a colleague’s device
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                Ask an admin of that device workspace to invite you under Manage team. You get an e-mail with a link;
                once the admin has accepted you, the workspace appears in the workspace switcher.
              </Typography>
            </CardContent>
          </Card>
        </Grid>
      </Grid>
    );
  }

  return (
    <Page
      title="Add device"
      section="Add device"
      description="Each device has its own workspace: projects, patient cohorts, device versions and team."
    >
      {body}
    </Page>
  );
}
