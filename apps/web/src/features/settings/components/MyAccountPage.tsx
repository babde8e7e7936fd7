import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import LogoutIcon from '@mui/icons-material/Logout';
import { NotAvailableYet } from '../../../components/NotAvailableYet';
import { Page } from '../../../components/Page';
import { initialsOf } from '../../../lib/initials';
import { formatDate } from '../../../lib/formatDate';
import { useSignedInUser } from '../../../app/user/userContext';

function Field({ label, value }: { label: string; value: string }) {
  return (
    <Box>
      <Typography variant="caption" color="text.secondary" component="dt">
        {label}
      </Typography>
      <Typography variant="body1" component="dd" sx={{ m: 0, fontWeight: 600 }}>
        {value}
      </Typography>
    </Box>
  );
}

/** The signed-in user's profile as the server knows it; editing arrives with the settings feature. */
export function MyAccountPage() {
  const user = useSignedInUser();

  return (
    <Page title="My account" section="Settings">
      <Stack spacing={3}>
        <Paper variant="outlined" sx={{ p: { xs: 2.5, md: 4 }, borderRadius: 3 }}>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={3} sx={{ alignItems: { sm: 'center' } }}>
            <Avatar
              src={user.pictureUrl ?? undefined}
              alt=""
              sx={{ width: 72, height: 72, fontSize: 24, bgcolor: 'primary.main' }}
            >
              {initialsOf(user.fullName)}
            </Avatar>
            <Box
              component="dl"
              sx={{ m: 0, flex: 1, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}
            >
              <Field label="Full name" value={user.fullName} />
              <Field label="E-mail" value={user.email} />
              <Field label="Job title" value={user.jobTitle ?? 'Not set'} />
              <Field label="Member since" value={formatDate(user.createdAt)} />
            </Box>
          </Stack>
          <Divider sx={{ my: 3 }} />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            {user.passwordChangeUrl && (
              <Button variant="outlined" href={user.passwordChangeUrl}>
                Change password
              </Button>
            )}
            <Button variant="outlined" color="inherit" href="/api/auth/logout" startIcon={<LogoutIcon />}>
              Sign out
            </Button>
          </Stack>
        </Paper>
        <NotAvailableYet
          upcoming={['Change your profile picture (jpg or png, at most 5 MB), full name and job title, and save them.']}
        />
      </Stack>
    </Page>
  );
}
