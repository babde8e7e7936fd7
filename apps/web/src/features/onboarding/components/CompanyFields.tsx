import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { countries, unitedStatesCode, usStates, type Country } from '@insilico/contracts';
import type { CompanyForm, FieldErrors } from '../steps';

interface CompanyFieldsProps {
  form: CompanyForm;
  errors: FieldErrors<keyof CompanyForm>;
  onChange: (patch: Partial<CompanyForm>) => void;
}

const optionLabel = (option: Country) => `${option.name} (${option.code})`;

/** The company: name, the country from the ISO list (searchable), a state for the United States, address. */
export function CompanyFields({ form, errors, onChange }: CompanyFieldsProps) {
  const text = (field: 'companyName' | 'streetAddress' | 'city' | 'zipCode', label: string, max: number) => (
    <TextField
      label={label}
      required
      value={form[field]}
      onChange={(event) => onChange({ [field]: event.target.value })}
      error={Boolean(errors[field])}
      helperText={errors[field]}
      slotProps={{ htmlInput: { maxLength: max } }}
    />
  );

  const country = countries.find((option) => option.code === form.country) ?? null;
  const usState = usStates.find((option) => option.code === form.state) ?? null;

  return (
    <>
      {text('companyName', 'Company name', 200)}
      <Autocomplete
        options={countries}
        value={country}
        onChange={(_event, option) =>
          onChange({ country: option?.code ?? '', state: option?.code === unitedStatesCode ? form.state : '' })
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
          onChange={(_event, option) => onChange({ state: option?.code ?? '' })}
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
    </>
  );
}
