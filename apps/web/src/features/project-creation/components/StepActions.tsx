import type { ReactNode } from 'react';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';

interface StepActionsProps {
  onBack?: () => void;
  backLabel?: string;
  onNext: () => void;
  nextLabel?: string;
  nextDisabled?: boolean;
  /** Shows a spinner on Next and disables both buttons. */
  busy?: boolean;
  /** Extra actions between Back and Next. */
  children?: ReactNode;
}

/** Back and Next of a wizard page (Next is the main action, at the right). */
export function StepActions({
  onBack,
  backLabel = 'Back',
  onNext,
  nextLabel = 'Next',
  nextDisabled,
  busy = false,
  children,
}: StepActionsProps) {
  return (
    <Stack direction="row" spacing={2} sx={{ justifyContent: 'space-between', alignItems: 'center', mt: 4 }}>
      <div>
        {onBack && (
          <Button onClick={onBack} disabled={busy}>
            {backLabel}
          </Button>
        )}
      </div>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        {children}
        <Button
          variant="contained"
          size="large"
          onClick={onNext}
          disabled={busy || nextDisabled}
          startIcon={busy ? <CircularProgress size={18} color="inherit" aria-hidden="true" /> : undefined}
        >
          {nextLabel}
        </Button>
      </Stack>
    </Stack>
  );
}
