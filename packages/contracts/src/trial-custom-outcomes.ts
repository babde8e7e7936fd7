import { z } from 'zod';
import type { SimulationKindName } from './simulations';
import { text } from './text';

/**
 * Outcomes a user adds to a trial (issue 17 item 2: "computed from saved outputs — a plane, an object, an
 * aggregate"). A definition is data, never code: a source from a fixed catalogue per kind (a field of the kind's
 * simulated object, or a quantity on one of the monitor planes around the device) and how it is reduced — over the
 * object's particles at each saved timestep, then over the saved timesteps. The server checks it against the
 * catalogue and evaluates it from the run's stored outputs (docs/decisions/trials.md, "User-defined outcomes").
 */

export const customOutcomeLimit = 6;
export const customOutcomeLabelMaxLength = 60;

/** Reductions over the saved timesteps: the largest, the smallest, the mean, or the last value. */
export const customOutcomeTimeAggregates = ['max', 'min', 'mean', 'last'] as const;
/** Reductions over an object's particles at one timestep. */
export const customOutcomeParticleAggregates = ['max', 'min', 'mean'] as const;
export const customOutcomePlanes = ['upstream', 'downstream'] as const;
export const customOutcomePlaneQuantities = ['flow_rate', 'pressure'] as const;

/** A field of the kind's simulated object (its frames' scalar: a vector's magnitude), with its stored unit. */
interface ObjectField {
  readonly field: string;
  readonly label: string;
  readonly unit: string;
}

/** The catalogue: the fields of each kind's object, and whether the kind has the monitor planes (blood flows). */
export const customOutcomeCatalogue: Readonly<
  Record<
    SimulationKindName,
    { readonly object: string; readonly fields: readonly ObjectField[]; readonly planes: boolean }
  >
> = {
  fluid: {
    object: 'blood',
    fields: [
      { field: 'velocity', label: 'blood speed', unit: 'm/s' },
      { field: 'pressure', label: 'blood pressure', unit: 'Pa' },
    ],
    planes: true,
  },
  solid: {
    object: 'device',
    fields: [
      { field: 'von_mises_stress', label: 'von Mises stress in the device', unit: 'MPa' },
      { field: 'von_mises_strain', label: 'von Mises strain in the device', unit: 'mm/mm' },
      { field: 'displacement', label: 'displacement of the device', unit: 'mm' },
      { field: 'velocity', label: 'speed of the device', unit: 'm/s' },
    ],
    planes: false,
  },
  particle: {
    object: 'particles',
    fields: [{ field: 'velocity', label: 'particle speed', unit: 'm/s' }],
    planes: true,
  },
};

/** The monitor planes' quantities, with the unit of their `monitors.csv` column. */
export const customOutcomePlaneQuantityInfo = {
  flow_rate: { label: 'flow rate', unit: 'L/min' },
  pressure: { label: 'mean pressure', unit: 'mmHg' },
} as const;

const labelSchema = text()
  .trim()
  .min(1, 'Give the outcome a name.')
  .max(customOutcomeLabelMaxLength, `An outcome name can have at most ${customOutcomeLabelMaxLength} characters.`);
const overSchema = z.enum(customOutcomeTimeAggregates, { error: 'Choose max, min, mean or last over the run.' });

export const customOutcomeSchema = z.discriminatedUnion(
  'source',
  [
    z
      .object({
        source: z.literal('object'),
        label: labelSchema,
        field: text().min(1).max(40),
        particles: z.enum(customOutcomeParticleAggregates, { error: 'Choose max, min or mean over the particles.' }),
        over: overSchema,
      })
      .strict(),
    z
      .object({
        source: z.literal('plane'),
        label: labelSchema,
        plane: z.enum(customOutcomePlanes, { error: 'Choose the plane upstream or downstream of the device.' }),
        quantity: z.enum(customOutcomePlaneQuantities, { error: 'Choose the flow rate or the mean pressure.' }),
        over: overSchema,
      })
      .strict(),
  ],
  { error: 'An outcome is computed from a field of the simulated object or from a monitor plane.' },
);
export type CustomOutcome = z.infer<typeof customOutcomeSchema>;

export const customOutcomesSchema = z
  .array(customOutcomeSchema)
  .max(customOutcomeLimit, `A trial can have at most ${customOutcomeLimit} outcomes of your own.`);

/** The key of the n-th (from 0) user-defined outcome of a trial: `user_1`, `user_2`, … */
export const customOutcomeKey = (index: number) => `user_${index + 1}`;
export const customOutcomeKeyPattern = /^user_[1-9][0-9]{0,3}$/;
const keySchema = text().regex(customOutcomeKeyPattern, 'An outcome of your own has a key user_1, user_2, …');

/**
 * A user outcome as the trial stores it: its key (given once, never reused: the population analysis and acceptance
 * criteria name it) and the version of its definition (1, then one more at each change of the definition).
 */
export const storedCustomOutcomeSchema = z.object({
  key: keySchema,
  version: z.number().int().min(1),
  definition: customOutcomeSchema,
});
export type StoredCustomOutcome = z.infer<typeof storedCustomOutcomeSchema>;

/**
 * One version of a user outcome's definition in the trial's record: when it took effect and, once changed or
 * removed, when it stopped (the values a patient keeps name the version they came from).
 */
export const customOutcomeVersionSchema = storedCustomOutcomeSchema.extend({
  since: text(),
  until: text().nullable(),
  /** Who set it (null: the person was deleted, or the trial's creation before the record kept it). */
  by: z.uuid().nullable(),
});
export type CustomOutcomeVersion = z.infer<typeof customOutcomeVersionSchema>;

/**
 * `PUT …/trials/:trialId/custom-outcomes`: the trial's outcomes of the user's own as they should be from now on, in
 * order. An entry with the key of one of them keeps that outcome (a changed definition becomes its next version); an
 * entry without a key is a new outcome; an outcome left out is removed. Finished patients' values of new and changed
 * definitions are read again from their saved outputs in a job; nothing is simulated again.
 */
export const replaceCustomOutcomesSchema = z
  .object({
    outcomes: z
      .array(z.object({ key: keySchema.nullable(), definition: customOutcomeSchema }).strict())
      .max(customOutcomeLimit, `A trial can have at most ${customOutcomeLimit} outcomes of your own.`),
  })
  .strict();
export type ReplaceCustomOutcomes = z.input<typeof replaceCustomOutcomesSchema>;

/** Whether two definitions compute the same thing (the name aside): a change of these is a new version. */
export function sameComputation(a: CustomOutcome, b: CustomOutcome): boolean {
  const { label: _a, ...restA } = a;
  const { label: _b, ...restB } = b;
  return JSON.stringify(restA, Object.keys(restA).sort()) === JSON.stringify(restB, Object.keys(restB).sort());
}

const overWords = { max: 'Largest', min: 'Smallest', mean: 'Mean' } as const;
const particleWords = { max: 'largest', min: 'smallest', mean: 'mean' } as const;

/**
 * Why a definition cannot be computed for a kind (a field its object does not have, planes the kind has not, a name
 * taken by another outcome of the trial), or null. `taken`: the labels of the trial's other outcomes.
 */
export function customOutcomeProblem(
  kind: SimulationKindName,
  outcome: CustomOutcome,
  taken: readonly string[],
): string | null {
  const catalogue = customOutcomeCatalogue[kind];
  if (taken.some((label) => label.toLowerCase() === outcome.label.toLowerCase()))
    return `The trial already has an outcome named ${outcome.label}.`;
  if (outcome.source === 'object' && !catalogue.fields.some((f) => f.field === outcome.field))
    return `A ${kind} simulation stores no field ${outcome.field}. Choose one of: ${catalogue.fields.map((f) => f.field).join(', ')}.`;
  if (outcome.source === 'plane' && !catalogue.planes)
    return `A ${kind} simulation has no monitor planes: choose a field of the ${catalogue.object}.`;
  return null;
}

/** What a (checked) definition reads, as the trial's outcome list shows it: unit and description. */
export function customOutcomeDefinition(
  kind: SimulationKindName,
  outcome: CustomOutcome,
  index: number | string,
  /** The definition's version: a changed outcome says which (values of earlier versions are kept apart). */
  version = 1,
): { key: string; label: string; unit: string; description: string } {
  const key = typeof index === 'string' ? index : customOutcomeKey(index);
  const yours = version > 1 ? `(your outcome, version ${version}).` : '(your outcome).';
  // "Largest over the saved timesteps of …", or "At the last saved timestep, …".
  const lead = (what: string) =>
    outcome.over === 'last'
      ? `At the last saved timestep, ${what}`
      : `${overWords[outcome.over]} over the saved timesteps of ${what}`;
  if (outcome.source === 'object') {
    const field = customOutcomeCatalogue[kind].fields.find((f) => f.field === outcome.field);
    return {
      key,
      label: outcome.label,
      unit: field?.unit ?? '',
      description: `${lead(`the ${particleWords[outcome.particles]} ${field?.label ?? outcome.field} over its particles`)} ${yours}`,
    };
  }
  const quantity = customOutcomePlaneQuantityInfo[outcome.quantity];
  return {
    key,
    label: outcome.label,
    unit: quantity.unit,
    description: `${lead(`the ${quantity.label} on the plane just ${outcome.plane} of the device`)} ${yours}`,
  };
}
