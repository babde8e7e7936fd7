import { useSyncExternalStore } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { consentChoice, setAnalyticsConsent, subscribeConsent } from '../../lib/analytics';

export const consentQuestion =
  'May we count how the workspace is used? We record product actions (such as “project created”) with ids only, never names, patients or files. You can change this at any time in My account.';

/** The current consent choice, re-rendered when it changes in this tab. */
export function useConsentChoice() {
  return useSyncExternalStore(subscribeConsent, consentChoice, () => 'unset' as const);
}

/**
 * Consent first (issue 21): asked once, in the page's flow (it covers nothing), until a choice is made. Nothing is
 * recorded before "Allow analytics".
 */
export function AnalyticsConsentBanner() {
  const choice = useConsentChoice();
  if (choice !== 'unset') return null;
  return (
    <Alert
      severity="info"
      role="region"
      aria-label="Analytics consent"
      sx={{ borderRadius: 0 }}
      action={
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Button color="inherit" size="small" onClick={() => setAnalyticsConsent(false)}>
            No, thanks
          </Button>
          <Button variant="contained" size="small" onClick={() => setAnalyticsConsent(true)}>
            Allow analytics
          </Button>
        </Stack>
      }
    >
      {consentQuestion}
    </Alert>
  );
}
