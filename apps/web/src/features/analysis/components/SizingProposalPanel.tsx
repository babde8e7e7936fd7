import type { AnalysisParameter, AnalysisSettings } from '@insilico/contracts';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { formatPercent, formatValue, parameterLabel } from '../format';
import type { AnalysisOutcome } from '../worker/analysisProtocol';
import { ExportTable } from './ExportTable';
import { NumberField } from './NumberField';
import { noVersion } from './SizingWindowsEditor';

interface SizingProposalPanelProps {
  outcome: AnalysisOutcome;
  settings: AnalysisSettings;
  setSettings: (settings: AnalysisSettings) => void;
  parameterOf: ReadonlyMap<string, AnalysisParameter>;
  canEdit: boolean;
}

/**
 * The sizing proposal (from the seed percentile, the narrowest window holding the target coverage) and the size-set
 * proposal (the fewest windows of a given width reaching the target) on one analysed parameter.
 */
export function SizingProposalPanel({
  outcome,
  settings,
  setSettings,
  parameterOf,
  canEdit,
}: SizingProposalPanelProps) {
  const sizing = outcome.analysis.sizing;
  const sizingKey = settings.sizingParameter;
  const sizingDecimals = sizingKey ? (parameterOf.get(sizingKey)?.decimals ?? 1) : 1;

  return (
    <Stack spacing={2}>
      <Typography variant="subtitle1" component="h4" sx={{ fontWeight: 700 }}>
        Sizing proposal
      </Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <TextField
          select
          size="small"
          label="Parameter"
          value={sizingKey ?? noVersion}
          disabled={!canEdit}
          onChange={(event) =>
            setSettings({ ...settings, sizingParameter: event.target.value === noVersion ? null : event.target.value })
          }
          sx={{ minWidth: 260 }}
        >
          <MenuItem value={noVersion}>No proposal</MenuItem>
          {outcome.parameters.map((key) => (
            <MenuItem key={key} value={key}>
              {parameterLabel(parameterOf.get(key), key)}
            </MenuItem>
          ))}
        </TextField>
        <NumberField
          label="Seed percentile"
          value={settings.seedPercentile}
          disabled={!canEdit}
          onCommit={(v) => v !== null && setSettings({ ...settings, seedPercentile: v })}
          helperText="Moved into 0–100"
        />
        <NumberField
          label="Target coverage (%)"
          value={settings.targetCoveragePercent}
          disabled={!canEdit}
          onCommit={(v) =>
            v !== null && setSettings({ ...settings, targetCoveragePercent: Math.min(100, Math.max(1, v)) })
          }
          helperText="1–100"
        />
        <NumberField
          label="Size-set window width"
          value={settings.sizeSetWidth}
          allowEmpty
          disabled={!canEdit || sizingKey === null}
          onCommit={(v) => setSettings({ ...settings, sizeSetWidth: v !== null && v > 0 ? v : null })}
          helperText={
            sizingKey ? `In ${parameterOf.get(sizingKey)?.unit ?? 'its unit'}; empty: none` : 'Choose a parameter'
          }
          width={200}
        />
      </Stack>
      {sizing && sizingKey && (
        <Typography>
          From the P{formatValue(settings.seedPercentile, 0)} value {formatValue(sizing.seedValue, sizingDecimals)}, the
          narrowest window holding {settings.targetCoveragePercent} % of the patients is{' '}
          <strong>
            {formatValue(sizing.min, sizingDecimals)}–{formatValue(sizing.max, sizingDecimals)}{' '}
            {parameterOf.get(sizingKey)?.unit}
          </strong>
          : {sizing.coverage.count} of {sizing.coverage.n} patients ({formatPercent(sizing.coverage.fraction)}, 95 % CI{' '}
          {formatPercent(sizing.coverage.lower)}–{formatPercent(sizing.coverage.upper)}).
        </Typography>
      )}
      {outcome.sizeSet && sizingKey && (
        <ExportTable
          title={`Size-set proposal: ${outcome.sizeSet.windows.length} size${outcome.sizeSet.windows.length === 1 ? '' : 's'} covering ${formatPercent(outcome.sizeSet.coverage.fraction)}${outcome.sizeSet.reached ? '' : ' (target not reached)'}`}
          fileName="size-set-proposal"
          columns={[
            {
              header: `Min (${parameterOf.get(sizingKey)?.unit ?? ''})`,
              value: (row: { min: number; max: number; count: number }) => row.min,
              decimals: sizingDecimals,
              numeric: true,
            },
            {
              header: `Max (${parameterOf.get(sizingKey)?.unit ?? ''})`,
              value: (row) => row.max,
              decimals: sizingDecimals,
              numeric: true,
            },
            { header: 'Patients', value: (row) => row.count, numeric: true },
          ]}
          rows={outcome.sizeSet.windows}
          rowKey={(row) => `${row.min}`}
          emptyText="No window is needed for this target."
        />
      )}
    </Stack>
  );
}
