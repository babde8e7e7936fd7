import { useState, type FormEvent } from 'react';
import Stack from '@mui/material/Stack';
import type { Onboarding } from '@insilico/contracts';
import { useLeaveConfirmation } from '../../../components/useLeaveConfirmation';
import { checkCompany, type CompanyForm, type FieldErrors } from '../steps';
import { useSaveStep } from '../useSaveStep';
import { CompanyFields } from './CompanyFields';
import { StepActions } from './StepActions';

const step = 4;

function initialForm(onboarding: Onboarding): CompanyForm {
  const company = onboarding.state.yourCompany;
  return {
    companyName: company?.companyName ?? '',
    country: company?.country ?? '',
    state: company?.state ?? '',
    streetAddress: company?.streetAddress ?? '',
    city: company?.city ?? '',
    zipCode: company?.zipCode ?? '',
  };
}

/** Step 4: the company; the country from the ISO list (searchable), a state for the United States. */
export function CompanyStep({ onboarding }: { onboarding: Onboarding }) {
  const [saved] = useState(() => initialForm(onboarding));
  const [form, setForm] = useState(saved);
  const [errors, setErrors] = useState<FieldErrors<keyof CompanyForm>>({});
  const dirty = (Object.keys(form) as (keyof CompanyForm)[]).some((key) => form[key] !== saved[key]);
  const leave = useLeaveConfirmation(dirty);
  const { save, saving, error } = useSaveStep(step, onboarding, leave.allowNextNavigation);

  const set = (patch: Partial<CompanyForm>) => {
    setForm((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(patch) as (keyof CompanyForm)[]) delete next[key];
      return next;
    });
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkCompany(form);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    void save({ yourCompany: checked.value });
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack spacing={2.5} sx={{ maxWidth: 560 }}>
        <CompanyFields form={form} errors={errors} onChange={set} />
      </Stack>
      <StepActions step={step} saving={saving} error={error} />
      {leave.dialog}
    </form>
  );
}
