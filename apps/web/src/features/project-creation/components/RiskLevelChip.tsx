import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';
import type { ModelRiskLevel } from '@insilico/contracts';

const colors: Record<ModelRiskLevel, 'success' | 'info' | 'warning' | 'error'> = {
  1: 'success',
  2: 'success',
  3: 'info',
  4: 'warning',
  5: 'error',
};

/** The ASME V&V 40 model risk level (1 lowest, 5 highest), or "not assessed" while a grade is missing. */
export function RiskLevelChip({ level }: { level: number | null }) {
  if (level === null)
    return (
      <Tooltip title="Give the model influence and the decision consequence to assess the model risk.">
        <Chip size="small" variant="outlined" label="Model risk not assessed" />
      </Tooltip>
    );
  return (
    <Tooltip title="ASME V&V 40 model risk: model influence × decision consequence, 1 (lowest) to 5 (highest).">
      <Chip size="small" color={colors[level as ModelRiskLevel]} label={`Model risk ${level} of 5`} />
    </Tooltip>
  );
}
