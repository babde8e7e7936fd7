import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import {
  samePlacementRule,
  trialDepthLimits,
  trialLandmarks,
  type PlacementRule,
  type TrialLandmark,
} from '@insilico/contracts';

const landmarkLabels: Record<TrialLandmark, string> = {
  aortic_annulus: 'Aortic annulus',
  mitral_annulus: 'Mitral annulus',
  tricuspid_annulus: 'Tricuspid annulus',
  pulmonary_annulus: 'Pulmonary annulus',
};

/** The size range's two ends, as the fields name them. */
const sizeFields = [
  { key: 'min', label: 'Smallest annulus (mm)' },
  { key: 'max', label: 'Largest annulus (mm)' },
] as const;

/** A placement rule as typed: the numbers stay text until sent (the server checks them and words its refusal). */
export interface PlacementRuleDraft {
  landmark: TrialLandmark;
  depth: string;
  ranged: boolean;
  min: string;
  max: string;
}

/** The fields' start: a trial's rule (a retry corrects it), or the aortic annulus at depth 0 without a size range. */
export function placementRuleDraft(rule?: PlacementRule): PlacementRuleDraft {
  return {
    landmark: rule?.landmark ?? 'aortic_annulus',
    depth: String(rule?.depth_mm ?? 0),
    ranged: Boolean(rule?.annulusRange_mm),
    min: rule?.annulusRange_mm ? String(rule.annulusRange_mm.min) : '',
    max: rule?.annulusRange_mm ? String(rule.annulusRange_mm.max) : '',
  };
}

/** An empty field is no number (sent as null, which the server refuses in words), never a silent 0. */
const millimetres = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

/** The rule to send. */
export function placementRuleOf(draft: PlacementRuleDraft): PlacementRule {
  return {
    landmark: draft.landmark,
    depth_mm: millimetres(draft.depth),
    annulusRange_mm: draft.ranged ? { min: millimetres(draft.min), max: millimetres(draft.max) } : null,
  };
}

/** Whether the draft places as `rule` does (a retry then sends no rule). */
export function draftMatches(draft: PlacementRuleDraft, rule: PlacementRule): boolean {
  return samePlacementRule(placementRuleOf(draft), rule);
}

/**
 * A trial's placement rule (snap to an annulus with a depth offset, optionally only patients in a size range): the
 * New trial dialog's and the retry dialog's, which corrects the rule the failed patients are placed again by.
 */
export function PlacementRuleFields(props: {
  value: PlacementRuleDraft;
  onChange: (next: PlacementRuleDraft) => void;
  disabled?: boolean;
}) {
  const { value, disabled = false } = props;
  const set = (patch: Partial<PlacementRuleDraft>) => props.onChange({ ...value, ...patch });
  return (
    <>
      <Stack direction="row" spacing={2}>
        <TextField
          select
          fullWidth
          label="Snap to landmark"
          value={value.landmark}
          disabled={disabled}
          onChange={(event) => set({ landmark: event.target.value as TrialLandmark })}
          helperText="Centred on the landmark, the device’s axis along its plane’s normal"
        >
          {trialLandmarks.map((l) => (
            <MenuItem key={l} value={l}>
              {landmarkLabels[l]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          fullWidth
          label="Depth offset (mm)"
          type="number"
          value={value.depth}
          disabled={disabled}
          onChange={(event) => set({ depth: event.target.value })}
          helperText={`Along the normal, ${trialDepthLimits.min} to ${trialDepthLimits.max} mm`}
          slotProps={{ htmlInput: { step: 0.5, min: trialDepthLimits.min, max: trialDepthLimits.max } }}
        />
      </Stack>
      <FormControlLabel
        control={
          <Checkbox
            checked={value.ranged}
            disabled={disabled}
            onChange={(event) => set({ ranged: event.target.checked })}
          />
        }
        label="Only patients whose annulus fits the device’s size range"
      />
      {value.ranged && (
        <Stack direction="row" spacing={2}>
          {sizeFields.map(({ key, label }) => (
            <TextField
              key={key}
              fullWidth
              label={label}
              type="number"
              value={value[key]}
              disabled={disabled}
              onChange={(event) => set({ [key]: event.target.value })}
            />
          ))}
        </Stack>
      )}
    </>
  );
}
