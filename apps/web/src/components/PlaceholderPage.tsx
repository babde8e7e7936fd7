import type { ReactNode } from 'react';
import Paper from '@mui/material/Paper';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import { NotAvailableYet } from './NotAvailableYet';
import { Page } from './Page';

export interface PlaceholderPageProps {
  title: string;
  section: string;
  description?: ReactNode;
  /** What the page will offer once its feature ships. */
  upcoming: readonly string[];
  /** For pages inside a linear flow: the flow's step names and this page's place (0-based; = length when done). */
  steps?: { labels: readonly string[]; active: number };
}

/** A registered route whose feature arrives in a later release: page title plus an honest "not available yet". */
export function PlaceholderPage({ title, section, description, upcoming, steps }: PlaceholderPageProps) {
  return (
    <Page title={title} section={section} description={description}>
      {steps && (
        <Paper variant="outlined" sx={{ p: 2, mb: 3, borderRadius: 3, overflowX: 'auto' }}>
          <Stepper activeStep={steps.active} alternativeLabel aria-label={`${section} steps`}>
            {steps.labels.map((label) => (
              <Step key={label}>
                <StepLabel>{label}</StepLabel>
              </Step>
            ))}
          </Stepper>
        </Paper>
      )}
      <NotAvailableYet upcoming={upcoming} />
    </Page>
  );
}
