import { useState, type FormEvent } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { countries, unitedStatesCode, usStates, type Country, type Onboarding } from '@insilico/contracts';
import { useLeaveConfirmation } from '../../../components/useLeaveConfirmation';
import { checkCompany, type CompanyForm, type FieldErrors } from '../steps';
import { useSaveStep } from '../useSaveStep';
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

const optionLabel = (option: Country) => `${option.name} (${option.code})`;

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

  const text = (field: 'companyName' | 'streetAddress' | 'city' | 'zipCode', label: string, max: number) => (
    <TextField
      label={label}
      required
      value={form[field]}
      onChange={(event) => set({ [field]: event.target.value })}
      error={Boolean(errors[field])}
      helperText={errors[field]}
      slotProps={{ htmlInput: { maxLength: max } }}
    />
  );

  const country = countries.find((option) => option.code === form.country) ?? null;
  const usState = usStates.find((option) => option.code === form.state) ?? null;

  return (
    <form onSubmit={submit} noValidate>
      <Stack spacing={2.5} sx={{ maxWidth: 560 }}>
        {text('companyName', 'Company name', 200)}
        <Autocomplete
          options={countries}
          value={country}
          onChange={(_event, option) =>
            set({ country: option?.code ?? '', state: option?.code === unitedStatesCode ? form.state : '' })
          }
          getOptionLabel={optionLabel}
          isOptionEqualToValue={(option, selected) => option.code === selected.code}
          autoHighlight
          renderInput={(params) => (
            <TextField
              {...params}
              label="Country"
              required
              error={Boolean(errors.country)}
              helperText={errors.country ?? 'Type to search by name or ISO code.'}
            />
          )}
        />
        {form.country === unitedStatesCode && (
          <Autocomplete
            options={usStates}
            value={usState}
            onChange={(_event, option) => set({ state: option?.code ?? '' })}
            getOptionLabel={optionLabel}
            isOptionEqualToValue={(option, selected) => option.code === selected.code}
            autoHighlight
            renderInput={(params) => (
              <TextField {...params} label="State" required error={Boolean(errors.state)} helperText={errors.state} />
            )}
          />
        )}
        {text('streetAddress', 'Street address', 200)}
        {text('city', 'City', 100)}
        {text('zipCode', 'Zip code', 20)}
      </Stack>
      <StepActions step={step} saving={saving} error={error} />
      {leave.dialog}
    </form>
  );
}
