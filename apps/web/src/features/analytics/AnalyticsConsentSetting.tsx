import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { setAnalyticsConsent } from '../../lib/analytics';
import { useConsentChoice } from './AnalyticsConsentBanner';

/** My account: the analytics consent as a switch; off removes the cookie and stops sending at once. */
export function AnalyticsConsentSetting() {
  const given = useConsentChoice() === 'given';
  return (
    <Stack spacing={1} component="section" aria-labelledby="analytics-consent-title">
      <Typography id="analytics-consent-title" variant="h6" component="h2">
        Product analytics
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Counts of product actions with ids only (never names, patients or files), sent to this workspace’s own server.
      </Typography>
      <FormControlLabel
        control={<Switch checked={given} onChange={(_event, checked) => setAnalyticsConsent(checked)} />}
        label="Share product analytics"
      />
    </Stack>
  );
}
