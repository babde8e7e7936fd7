import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';

const steps = ['Patient cohort', 'Define', 'Order'] as const;

/** Where the user is in select cohort → define → order. */
export function MeasurementSteps({ active }: { active: 0 | 1 | 2 }) {
  return (
    <Stepper activeStep={active} sx={{ mb: 3 }}>
      {steps.map((label) => (
        <Step key={label}>
          <StepLabel>{label}</StepLabel>
        </Step>
      ))}
    </Stepper>
  );
}
