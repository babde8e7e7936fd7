import { Link as RouterLink, useLocation } from 'react-router';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import TravelExploreOutlinedIcon from '@mui/icons-material/TravelExploreOutlined';
import { Page } from '../../components/Page';

/** Any path the workspace does not know. */
export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <Page title="Page not found">
      <Paper variant="outlined" sx={{ p: { xs: 3, md: 5 }, borderRadius: 3 }}>
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <TravelExploreOutlinedIcon color="primary" sx={{ fontSize: 40 }} aria-hidden="true" />
          <Typography variant="body1">
            There is no page at <code>{pathname}</code>. The link may be out of date, or the address mistyped.
          </Typography>
          <Button variant="contained" component={RouterLink} to="/">
            Go to the start page
          </Button>
        </Stack>
      </Paper>
    </Page>
  );
}
