import { Link as RouterLink } from 'react-router';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import LockOutlinedIcon from '@mui/icons-material/LockOutlined';
import { Page } from '../../../components/Page';

/**
 * For a signed-in user who may not create a device workspace and belongs to none
 * (docs/decisions/workspaces-who-creates.md): who to contact.
 */
export function NoAccessPage() {
  return (
    <Page title="No access yet" section="Onboarding">
      <Paper variant="outlined" sx={{ p: { xs: 3, md: 4 }, borderRadius: 3, maxWidth: 720 }}>
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <LockOutlinedIcon color="primary" sx={{ fontSize: 40 }} aria-hidden="true" />
          <Typography variant="h3" component="h2">
            You are not in a device workspace yet
          </Typography>
          <Typography>
            Your account may not create a device workspace of its own. To work in one, ask the admin of your company’s
            device workspace to invite you: you will get an e-mail with a link, and after you follow it the admin
            accepts you.
          </Typography>
          <Typography color="text.secondary">
            If you followed an invitation link already, your access waits for the admin’s approval. If you think your
            company should have its own workspace, contact support.
          </Typography>
          <Button component={RouterLink} to="/help" variant="outlined">
            Contact support
          </Button>
        </Stack>
      </Paper>
    </Page>
  );
}
