import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import { developmentStages, type DevelopmentStage } from '@insilico/contracts';
import { labelOf } from '../steps';

/** Whether two choices hold the same stages (in any order). */
export function sameStages(a: readonly DevelopmentStage[], b: readonly DevelopmentStage[]): boolean {
  return a.length === b.length && a.every((stage) => b.includes(stage));
}

interface DevelopmentStageFieldsProps {
  value: readonly DevelopmentStage[];
  problem: string | null;
  onChange: (value: DevelopmentStage[]) => void;
  legend?: string;
}

/** The development stages as checkboxes (in the spec's order); animal testing is shown as not available. */
export function DevelopmentStageFields({
  value,
  problem,
  onChange,
  legend = 'In which development stage is your device? Choose one or more.',
}: DevelopmentStageFieldsProps) {
  function toggle(stage: DevelopmentStage, checked: boolean) {
    onChange(
      checked
        ? developmentStages.map((known) => known.key).filter((key) => key === stage || value.includes(key))
        : value.filter((key) => key !== stage),
    );
  }

  return (
    <FormControl component="fieldset" error={problem !== null}>
      <FormLabel component="legend">{legend}</FormLabel>
      <FormGroup>
        {developmentStages.map((stage) => (
          <FormControlLabel
            key={stage.key}
            disabled={!stage.available}
            control={
              <Checkbox
                checked={value.includes(stage.key)}
                onChange={(event) => toggle(stage.key, event.target.checked)}
              />
            }
            label={stage.available ? labelOf(stage.key) : `${labelOf(stage.key)} (not available)`}
          />
        ))}
      </FormGroup>
      {problem && <FormHelperText>{problem}</FormHelperText>}
    </FormControl>
  );
}
