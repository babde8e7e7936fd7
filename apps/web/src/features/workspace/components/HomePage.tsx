import { Link as RouterLink, useLocation } from 'react-router';
import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArrowForwardIcon from '@mui/icons-material/ArrowForward';
import { Page } from '../../../components/Page';
import { useSignedInUser } from '../../../app/user/userContext';
import { useSelectedDevice } from '../../devices';

const sections = [
  {
    to: '/projects/overview',
    title: 'Projects',
    text: 'Development projects per device, grouped by stage: Concept, Animal, Clinical.',
  },
  {
    to: '/patient-cohort/create',
    title: 'Patient cohorts',
    text: 'Virtual patient cohorts (CT-based; heart and thorax) for your projects.',
  },
  {
    to: '/population-analysis/overview',
    title: 'Population analysis',
    text: 'Correlations, extreme cases and the population coverage of a device.',
  },
  { to: '/activity-feed', title: 'Activity feed', text: 'What your team did across the workspace.' },
  { to: '/design-history', title: 'Design history', text: 'The record of your device design decisions.' },
  { to: '/help', title: 'Help', text: 'Reach support by chat or e-mail.' },
] as const;

/** The workspace start page: a greeting and the way into each section. */
export function HomePage() {
  const user = useSignedInUser();
  const firstName = user.fullName.trim().split(/\s+/)[0] || user.fullName;
  const selected = useSelectedDevice().data?.device;
  // Add device's Finish comes here with the new workspace's name (it is the selected one now).
  const { state } = useLocation() as { state: { deviceName?: unknown } | null };
  const created = typeof state?.deviceName === 'string' ? state.deviceName : null;

  return (
    <Page
      title="Home"
      section={selected ? `Workspace · ${selected.deviceName}` : 'Workspace'}
      description={`Welcome, ${firstName}. Test your medical device on virtual patients: build projects, cohorts and simulations from here.`}
    >
      {created && (
        <Alert severity="success" sx={{ mb: 3 }}>
          Your device workspace “{created}” is ready. You are working in it now; switch workspaces in the top bar.
        </Alert>
      )}
      <Grid container spacing={2}>
        {sections.map((item) => (
          <Grid key={item.to} size={{ xs: 12, sm: 6, lg: 4 }}>
            <Card variant="outlined" sx={{ height: '100%', borderRadius: 3 }}>
              <CardActionArea component={RouterLink} to={item.to} sx={{ height: '100%', p: 0.5 }}>
                <CardContent>
                  <Stack direction="row" sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
                    <Typography variant="h4" component="h2">
                      {item.title}
                    </Typography>
                    <ArrowForwardIcon fontSize="small" color="primary" aria-hidden="true" />
                  </Stack>
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                    {item.text}
                  </Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          </Grid>
        ))}
      </Grid>
    </Page>
  );
}
