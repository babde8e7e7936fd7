import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import BlockIcon from '@mui/icons-material/Block';
import CheckIcon from '@mui/icons-material/Check';
import FiberNewOutlinedIcon from '@mui/icons-material/FiberNewOutlined';
import {
  BODY_DIMENSIONS,
  BODY_DIMENSION_RANGES,
  BODY_PART_OPTIONS,
  NEW_PATHOLOGY_MAX_LENGTH,
  normalizeNewPathologyName,
  removeNewPathology,
  requestNewPathology,
  setBodyDimensionRange,
  setOriginMode,
  type BodyDimension,
  type CohortCriteria,
  type CriterionOption,
  type OptionStatus,
} from '@insilico/anatomy';
import { ApiError } from '../../../lib/apiError';
import { requestPathology } from '../api';
import {
  clickOption,
  formatRange,
  OPTION_GROUPS,
  optionStateLabel,
  optionStatus,
  requestedPathologies,
  type OptionGroup,
} from '../criteriaState';

interface CriteriaFormProps {
  deviceId: string;
  criteria: CohortCriteria;
  onChange: (criteria: CohortCriteria) => void;
}

const DIMENSION_LABELS: Readonly<Record<BodyDimension, string>> = {
  height: 'Height',
  weight: 'Weight',
  bmi: 'BMI',
  bsa: 'BSA',
};

const groupOf = (group: OptionGroup) => {
  const found = OPTION_GROUPS.find((entry) => entry.group === group);
  if (!found) throw new Error(`unknown option group ${group}`);
  return found;
};

function statusIcon(status: OptionStatus) {
  if (status === 'selected') return <CheckIcon aria-hidden="true" />;
  if (status === 'excluded') return <BlockIcon aria-hidden="true" />;
  if (status === 'new') return <FiberNewOutlinedIcon aria-hidden="true" />;
  return undefined;
}

/** One option as a chip: outlined when untouched, filled when selected, red and struck through when excluded. */
function OptionChip({
  option,
  status,
  onClick,
}: {
  option: CriterionOption<string>;
  status: OptionStatus;
  onClick: () => void;
}) {
  const icon = statusIcon(status);
  return (
    <Chip
      label={option.enabled ? option.label : `${option.label} · not available`}
      aria-label={optionStateLabel(option.label, status, option.enabled)}
      aria-pressed={status === 'selected' || status === 'excluded'}
      {...(icon ? { icon } : {})}
      onClick={option.enabled ? onClick : undefined}
      disabled={!option.enabled}
      aria-disabled={!option.enabled}
      clickable={option.enabled}
      role="button"
      color={status === 'selected' ? 'primary' : status === 'excluded' ? 'error' : 'default'}
      variant={status === 'default' ? 'outlined' : 'filled'}
      sx={status === 'excluded' ? { textDecoration: 'line-through' } : undefined}
    />
  );
}

function OptionGroupField({
  group,
  criteria,
  onChange,
  hint,
}: {
  group: OptionGroup;
  criteria: CohortCriteria;
  onChange: (criteria: CohortCriteria) => void;
  hint?: string;
}) {
  const { label, options } = groupOf(group);
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle2" sx={{ mb: 0.5 }}>
        {label}
      </Typography>
      {hint && (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mb: 1 }}>
          {hint}
        </Typography>
      )}
      <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap' }}>
        {options.map((option) => (
          <OptionChip
            key={option.key}
            option={option}
            status={optionStatus(criteria, group, option.key)}
            onClick={() => onChange(clickOption(criteria, group, option.key))}
          />
        ))}
      </Stack>
    </Box>
  );
}

function RangeField({
  dimension,
  criteria,
  onChange,
}: {
  dimension: BodyDimension;
  criteria: CohortCriteria;
  onChange: (criteria: CohortCriteria) => void;
}) {
  const domain = BODY_DIMENSION_RANGES[dimension];
  const { min, max } = criteria.body_dimensions[dimension];
  const label = DIMENSION_LABELS[dimension];
  const id = `range-${dimension}`;
  return (
    <Box>
      <Stack direction="row" sx={{ justifyContent: 'space-between' }}>
        <Typography id={id} variant="subtitle2">
          {label}
        </Typography>
        <Typography variant="body2" color="text.secondary" aria-live="polite">
          {formatRange(dimension, min, max)}
        </Typography>
      </Stack>
      <Slider
        aria-labelledby={id}
        getAriaLabel={(thumb) => `${label} ${thumb === 0 ? 'minimum' : 'maximum'}`}
        getAriaValueText={(value) => `${value} ${domain.unit.replace('m2', 'm²')}`}
        value={[min, max]}
        min={domain.min}
        max={domain.max}
        step={domain.step}
        disableSwap
        valueLabelDisplay="auto"
        onChange={(_event, value) => {
          const [low, high] = value;
          onChange(setBodyDimensionRange(criteria, dimension, { min: low ?? min, max: high ?? max }));
        }}
      />
    </Box>
  );
}

/** A pathology the list lacks: sent to support at once and kept in the criteria with status `new`. */
function RequestPathology({ deviceId, criteria, onChange }: CriteriaFormProps) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const requested = requestedPathologies(criteria);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const name = normalizeNewPathologyName(text);
    if (name === null) {
      setError('Name a pathology the list does not offer yet (at most 100 characters).');
      return;
    }
    setSending(true);
    setError(null);
    try {
      await requestPathology(deviceId, name);
      onChange(requestNewPathology(criteria, name));
      setSent(name);
      setText('');
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The request could not be sent. Please try again.');
    } finally {
      setSending(false);
    }
  }

  return (
    <Box>
      {requested.length > 0 && (
        <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap', mb: 1 }}>
          {requested.map((name) => (
            <Chip
              key={name}
              icon={<FiberNewOutlinedIcon aria-hidden="true" />}
              label={`${name} · requested`}
              color="secondary"
              onDelete={() => onChange(removeNewPathology(criteria, name))}
              aria-label={`${name}: requested`}
            />
          ))}
        </Stack>
      )}
      <Stack
        component="form"
        onSubmit={(event) => void submit(event)}
        direction={{ xs: 'column', sm: 'row' }}
        spacing={1}
        sx={{ alignItems: { sm: 'flex-start' } }}
        noValidate
      >
        <TextField
          size="small"
          label="Request a new pathology"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setError(null);
            setSent(null);
          }}
          error={error !== null}
          helperText={
            error ??
            (sent
              ? `Sent to our support team: ${sent}. It does not filter patients yet.`
              : 'Our support team adds pathologies on request; a requested one does not filter patients yet.')
          }
          slotProps={{ htmlInput: { maxLength: NEW_PATHOLOGY_MAX_LENGTH } }}
          sx={{ flex: 1 }}
        />
        <Button type="submit" variant="outlined" startIcon={<AddIcon aria-hidden="true" />} disabled={sending}>
          Request
        </Button>
      </Stack>
    </Box>
  );
}

/** The criteria of spec §3 with the statuses default / selected / excluded / new. */
export function CriteriaForm({ deviceId, criteria, onChange }: CriteriaFormProps) {
  const originGroup: OptionGroup = criteria.origin.by === 'location' ? 'origin.location' : 'origin.ethnicity';
  return (
    <Stack spacing={2.5}>
      <Paper variant="outlined" sx={{ p: 2.5, borderRadius: 2 }}>
        <Stack spacing={2.5}>
          <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
            <Typography component="legend" variant="subtitle2" sx={{ mb: 0.5 }}>
              Body part
            </Typography>
            <Stack direction="row" useFlexGap spacing={1} sx={{ flexWrap: 'wrap' }}>
              {BODY_PART_OPTIONS.map((option) => (
                <OptionChip
                  key={option.key}
                  option={option}
                  status={criteria.body_part === option.key ? 'selected' : 'default'}
                  onClick={() => undefined}
                />
              ))}
            </Stack>
          </Box>
          <OptionGroupField
            group="pathology"
            criteria={criteria}
            onChange={onChange}
            hint="Click once to select (patients with it), twice to exclude (patients without it), a third time to clear."
          />
          <RequestPathology deviceId={deviceId} criteria={criteria} onChange={onChange} />
        </Stack>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2.5, borderRadius: 2 }}>
        <Stack spacing={2.5}>
          <OptionGroupField group="sex" criteria={criteria} onChange={onChange} />
          <OptionGroupField group="age_group" criteria={criteria} onChange={onChange} />
          <Box>
            <Typography variant="subtitle2" id="origin-mode" sx={{ mb: 1 }}>
              Origin
            </Typography>
            <ToggleButtonGroup
              exclusive
              size="small"
              value={criteria.origin.by}
              aria-labelledby="origin-mode"
              onChange={(_event, by: 'location' | 'ethnicity' | null) => {
                if (by) onChange(setOriginMode(criteria, by));
              }}
              sx={{ mb: 1.5 }}
            >
              <ToggleButton value="location">By location</ToggleButton>
              <ToggleButton value="ethnicity">By race/ethnicity</ToggleButton>
            </ToggleButtonGroup>
            <OptionGroupField group={originGroup} criteria={criteria} onChange={onChange} />
          </Box>
          <OptionGroupField
            group="phases"
            criteria={criteria}
            onChange={onChange}
            hint="Cine CT includes end-systole and end-diastole."
          />
        </Stack>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2.5, borderRadius: 2 }}>
        <Typography variant="subtitle1" component="h2" sx={{ mb: 1 }}>
          Body dimensions
        </Typography>
        <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          {BODY_DIMENSIONS.map((dimension) => (
            <RangeField key={dimension} dimension={dimension} criteria={criteria} onChange={onChange} />
          ))}
        </Box>
      </Paper>
      <Alert severity="info" variant="outlined">
        All patients of the built-in database are <strong>synthetic</strong>: generated from published reference
        statistics, not taken from real people.
      </Alert>
    </Stack>
  );
}
