import { useState } from 'react';
import type { AnalysisParameter, AnalysisSettings } from '@insilico/contracts';
import Autocomplete from '@mui/material/Autocomplete';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { NumberField } from './NumberField';

interface ParameterFilterBlockProps {
  parameters: readonly AnalysisParameter[];
  chosen: readonly string[];
  settings: AnalysisSettings;
  canEdit: boolean;
  onParameters: (keys: string[]) => void;
  onSettings: (settings: AnalysisSettings) => void;
}

/** "5, 50, 95" → [5, 50, 95]; null when a part is not a number. */
export function parsePercentiles(text: string): number[] | null {
  const parts = text.split(/[,;\s]+/).filter((part) => part !== '');
  const values = parts.map(Number);
  return values.length > 0 && values.every(Number.isFinite) ? values : null;
}

/**
 * The parameter filter (spec §2): which anatomical parameters are analysed, and the statistical settings (spec §9
 * defaults: percentiles 5/50/95, correlation 0.9, alpha 0.001). At least one parameter stays chosen.
 */
const groupLabels = {
  body: 'Body',
  cardiac: 'Heart',
  outcome: 'Trial outcomes',
  measurement: 'Measurements',
} as const;

export function ParameterFilterBlock({
  parameters,
  chosen,
  settings,
  canEdit,
  onParameters,
  onSettings,
}: ParameterFilterBlockProps) {
  const byKey = new Map(parameters.map((parameter) => [parameter.key, parameter]));
  const value = chosen.flatMap((key) => byKey.get(key) ?? []);
  // The text being typed; null shows the stored percentiles (after moving, spec §5).
  const [percentiles, setPercentiles] = useState<string | null>(null);
  const commitPercentiles = () => {
    if (percentiles === null) return;
    const parsed = parsePercentiles(percentiles);
    setPercentiles(null);
    // Out-of-range values are moved to the closest valid one by the state (spec §5); text that is no number reverts.
    if (parsed && parsed.length <= 9) onSettings({ ...settings, percentiles: parsed });
  };
  return (
    <Stack spacing={2}>
      <Autocomplete
        multiple
        options={parameters}
        groupBy={(option) => groupLabels[option.group]}
        getOptionLabel={(option) => `${option.label} (${option.unit})`}
        isOptionEqualToValue={(option, selected) => option.key === selected.key}
        value={value}
        disabled={!canEdit}
        disableClearable
        onChange={(_event, next) => next.length > 0 && onParameters(next.map((option) => option.key))}
        renderInput={(params) => (
          <TextField {...params} label="Parameters" helperText="The analysis uses these parameters." />
        )}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          size="small"
          label="Percentiles"
          value={percentiles ?? settings.percentiles.join(', ')}
          disabled={!canEdit}
          onChange={(event) => setPercentiles(event.target.value)}
          onBlur={commitPercentiles}
          onKeyDown={(event) => event.key === 'Enter' && commitPercentiles()}
          helperText="Comma-separated; moved into 0–100"
        />
        <NumberField
          label="Correlation threshold"
          value={settings.correlationThreshold}
          step={0.05}
          min={0}
          max={1}
          disabled={!canEdit}
          onCommit={(v) => v !== null && onSettings({ ...settings, correlationThreshold: Math.min(1, Math.max(0, v)) })}
          helperText="|r| from 0 to 1"
          width={180}
        />
        <NumberField
          label="Alpha"
          value={settings.alpha}
          step={0.001}
          disabled={!canEdit}
          onCommit={(v) => v !== null && v > 0 && v < 1 && onSettings({ ...settings, alpha: v })}
          helperText="Between 0 and 1"
        />
      </Stack>
    </Stack>
  );
}
