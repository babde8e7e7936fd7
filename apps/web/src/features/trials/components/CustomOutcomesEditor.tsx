import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import {
  customOutcomeCatalogue,
  customOutcomeLabelMaxLength,
  customOutcomeLimit,
  customOutcomePlaneQuantities,
  customOutcomePlaneQuantityInfo,
  customOutcomePlanes,
  type CustomOutcome,
  type SimulationKindName,
} from '@insilico/contracts';

const overLabels: Record<CustomOutcome['over'], string> = {
  max: 'Largest over the run',
  min: 'Smallest over the run',
  mean: 'Mean over the run',
  last: 'At the end of the run',
};
const particleLabels = { max: 'Largest', min: 'Smallest', mean: 'Mean' } as const;

/** The source of a definition as one select value: `object:<field>` or `plane:<plane>:<quantity>`. */
function sourceValue(outcome: CustomOutcome): string {
  return outcome.source === 'object' ? `object:${outcome.field}` : `plane:${outcome.plane}:${outcome.quantity}`;
}

/** The sources a kind offers, as select options. */
export function sourceOptions(kind: SimulationKindName): { value: string; label: string }[] {
  const catalogue = customOutcomeCatalogue[kind];
  const fields = catalogue.fields.map((f) => ({ value: `object:${f.field}`, label: `${f.label} (${f.unit})` }));
  const planes = catalogue.planes
    ? customOutcomePlanes.flatMap((plane) =>
        customOutcomePlaneQuantities.map((quantity) => ({
          value: `plane:${plane}:${quantity}`,
          label: `${customOutcomePlaneQuantityInfo[quantity].label} ${plane} of the device (${customOutcomePlaneQuantityInfo[quantity].unit})`,
        })),
      )
    : [];
  return [...fields, ...planes];
}

/** A definition with the source of a select value, keeping its name and reduction over the run. */
export function withSource(outcome: CustomOutcome, value: string): CustomOutcome {
  const [source, a, b] = value.split(':');
  const common = { label: outcome.label, over: outcome.over };
  if (source === 'plane')
    return {
      ...common,
      source: 'plane',
      plane: a as (typeof customOutcomePlanes)[number],
      quantity: b as (typeof customOutcomePlaneQuantities)[number],
    };
  return { ...common, source: 'object', field: a!, particles: outcome.source === 'object' ? outcome.particles : 'max' };
}

/** The definitions kept valid for another kind: a source the kind lacks becomes its first. */
export function forKind(outcomes: readonly CustomOutcome[], kind: SimulationKindName): CustomOutcome[] {
  const options = sourceOptions(kind).map((o) => o.value);
  return outcomes.map((o) => (options.includes(sourceValue(o)) ? o : withSource(o, options[0]!)));
}

/**
 * The trial's outcomes of the user's own (issue 17): each a name, a source from the kind's catalogue (a field of the
 * simulated object, or a quantity on a monitor plane) and its reductions. Definitions, never formulas: the server
 * checks them again and computes them from every patient's stored outputs.
 */
export function CustomOutcomesEditor({
  kind,
  value,
  onChange,
}: {
  kind: SimulationKindName;
  value: readonly CustomOutcome[];
  /** The next list; `removed`: the index taken out, when one was (a trial's page keeps its outcomes' keys by it). */
  onChange: (next: CustomOutcome[], removed?: number) => void;
}) {
  const options = sourceOptions(kind);
  const set = (index: number, next: CustomOutcome) => onChange(value.map((o, i) => (i === index ? next : o)));
  const add = () =>
    onChange([
      ...value,
      withSource({ source: 'object', label: '', field: '', particles: 'max', over: 'max' }, options[0]!.value),
    ]);
  return (
    <Stack spacing={1.5} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
      <Typography component="legend" variant="subtitle2">
        Outcomes of your own
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Besides the kind’s outcomes, read from every patient’s saved outputs.
      </Typography>
      {value.map((outcome, index) => (
        <Stack key={index} direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
          <TextField
            size="small"
            label={`Outcome ${index + 1} name`}
            value={outcome.label}
            onChange={(event) => set(index, { ...outcome, label: event.target.value })}
            slotProps={{ htmlInput: { maxLength: customOutcomeLabelMaxLength } }}
          />
          <TextField
            select
            size="small"
            label={`Outcome ${index + 1} from`}
            value={sourceValue(outcome)}
            onChange={(event) => set(index, withSource(outcome, event.target.value))}
            sx={{ minWidth: 200 }}
          >
            {options.map((o) => (
              <MenuItem key={o.value} value={o.value}>
                {o.label}
              </MenuItem>
            ))}
          </TextField>
          {outcome.source === 'object' && (
            <TextField
              select
              size="small"
              label={`Outcome ${index + 1} over the particles`}
              value={outcome.particles}
              onChange={(event) =>
                set(index, { ...outcome, particles: event.target.value as typeof outcome.particles })
              }
            >
              {Object.entries(particleLabels).map(([key, label]) => (
                <MenuItem key={key} value={key}>
                  {label}
                </MenuItem>
              ))}
            </TextField>
          )}
          <TextField
            select
            size="small"
            label={`Outcome ${index + 1} over the run`}
            value={outcome.over}
            onChange={(event) => set(index, { ...outcome, over: event.target.value as CustomOutcome['over'] })}
          >
            {Object.entries(overLabels).map(([key, label]) => (
              <MenuItem key={key} value={key}>
                {label}
              </MenuItem>
            ))}
          </TextField>
          <IconButton
            aria-label={`Remove outcome ${index + 1}`}
            onClick={() =>
              onChange(
                value.filter((_, i) => i !== index),
                index,
              )
            }
          >
            <DeleteOutlineIcon />
          </IconButton>
        </Stack>
      ))}
      <div>
        <Button startIcon={<AddIcon />} onClick={add} disabled={value.length >= customOutcomeLimit}>
          Add an outcome
        </Button>
      </div>
    </Stack>
  );
}
