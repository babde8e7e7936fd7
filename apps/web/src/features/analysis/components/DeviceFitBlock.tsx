import type { AnalysisSettings, DeviceSize, ProjectDeviceVersion } from '@insilico/contracts';
import Stack from '@mui/material/Stack';
import { patientAt, type BlockProps } from './blockProps';
import { CoverageResults } from './CoverageResults';
import { SizingDisagreementNote } from './SizingDisagreementNote';
import { SizingProposalPanel } from './SizingProposalPanel';
import { SizingWindowsEditor } from './SizingWindowsEditor';

interface DeviceFitBlockProps extends Pick<BlockProps, 'outcome' | 'table' | 'draft' | 'parameterOf' | 'canEdit'> {
  versions: readonly ProjectDeviceVersion[];
  setSettings: (settings: AnalysisSettings) => void;
}

/**
 * Device fit: sizing windows per device version and parameter, the coverage of each size and of their union with a
 * Wilson 95 % interval, the sizing proposal from the seed percentile to the target coverage, and the size-set
 * proposal (fewest windows of a given width).
 */
export function DeviceFitBlock({
  outcome,
  table,
  draft,
  parameterOf,
  canEdit,
  versions,
  setSettings,
}: DeviceFitBlockProps) {
  const { settings } = draft;
  const firstKey = settings.sizingParameter ?? outcome.parameters[0] ?? table.parameters[0]?.key ?? '';

  /** A new size starts on the middle half of the population (quartiles) of its parameter. */
  const newSize = (count: number): DeviceSize => {
    const summary = outcome.analysis.parameters[outcome.parameters.indexOf(firstKey)]?.summary;
    const round = (v: number) => Number(v.toFixed(parameterOf.get(firstKey)?.decimals ?? 1));
    return {
      name: `Size ${count + 1}`,
      ranges: [{ parameter: firstKey, min: summary ? round(summary.q1) : 0, max: summary ? round(summary.q3) : 1 }],
    };
  };

  return (
    <Stack spacing={2}>
      <SizingWindowsEditor
        fits={settings.deviceFits}
        setFits={(deviceFits) => setSettings({ ...settings, deviceFits })}
        versions={versions}
        parameters={table.parameters}
        parameterOf={parameterOf}
        canEdit={canEdit}
        newSize={newSize}
      />
      <CoverageResults fits={outcome.fits} />
      <SizingDisagreementNote fits={outcome.fits} table={table} patientOf={(row) => patientAt(outcome, table, row)} />
      <SizingProposalPanel
        outcome={outcome}
        settings={settings}
        setSettings={setSettings}
        parameterOf={parameterOf}
        canEdit={canEdit}
      />
    </Stack>
  );
}
