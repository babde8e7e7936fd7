import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { summarizeCriteria, type CohortCriteria } from '@insilico/anatomy';
import type { Cohort } from '@insilico/contracts';
import { useLiveCount } from '../hooks/useLiveCount';
import { CriteriaForm } from './CriteriaForm';
import { LiveCountBanner } from './LiveCountBanner';
import { OrderDetailsForm, type OrderDetails } from './OrderDetailsForm';

export type CohortOrderStep = 'criteria' | 'order';

export interface CohortOrderFlowProps {
  deviceId: string;
  step: CohortOrderStep;
  criteria: CohortCriteria;
  onCriteriaChange: (criteria: CohortCriteria) => void;
  details: OrderDetails;
  onDetailsChange: (details: Partial<OrderDetails>) => void;
  /** From criteria to the order details. */
  onNext: () => void;
  /** From the order details back to the criteria. */
  onBack: () => void;
  onOrdered: (cohort: Cohort) => void;
}

/**
 * Ordering a patient cohort in two steps: criteria with the live count, then size, name and description. The
 * caller holds the state and the step, so the same flow serves /patient-cohort/* and the project wizard.
 */
export function CohortOrderFlow(props: CohortOrderFlowProps) {
  const { deviceId, step, criteria, onCriteriaChange, details, onDetailsChange, onNext, onBack, onOrdered } = props;
  const count = useLiveCount(deviceId, criteria);
  const none = count.matching === 0;

  if (step === 'criteria')
    return (
      <Stack spacing={2.5}>
        <CriteriaForm deviceId={deviceId} criteria={criteria} onChange={onCriteriaChange} />
        <Stack
          direction={{ xs: 'column', sm: 'row' }}
          spacing={2}
          sx={{ position: 'sticky', bottom: 0, py: 1.5, bgcolor: 'background.default', alignItems: { sm: 'center' } }}
        >
          <div style={{ flex: 1 }}>
            <LiveCountBanner count={count} />
          </div>
          <Button variant="contained" size="large" onClick={onNext} disabled={none || count.error !== null}>
            Next
          </Button>
        </Stack>
        {none && <Alert severity="warning">No patient matches these criteria. Widen them to order a cohort.</Alert>}
      </Stack>
    );

  return (
    <Stack spacing={2.5}>
      <Paper variant="outlined" sx={{ p: 2, borderRadius: 2 }}>
        <Typography variant="subtitle2">Criteria</Typography>
        <Typography variant="body2" color="text.secondary">
          {summarizeCriteria(criteria)}
        </Typography>
      </Paper>
      <LiveCountBanner count={count} />
      <OrderDetailsForm
        deviceId={deviceId}
        criteria={criteria}
        matching={count.matching}
        details={details}
        onDetailsChange={onDetailsChange}
        onOrdered={onOrdered}
        onBack={onBack}
      />
    </Stack>
  );
}
