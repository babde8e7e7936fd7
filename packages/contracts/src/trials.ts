import { z } from 'zod';
import { endpoint } from './endpoint';
import {
  projectSimulationsParamsSchema,
  simulationKindSchema,
  simulationParametersSchema,
  simulationResolutionSchema,
  simulationStatusSchema,
} from './simulations';
import { text } from './text';
import {
  customOutcomesSchema,
  customOutcomeVersionSchema,
  replaceCustomOutcomesSchema,
  storedCustomOutcomeSchema,
} from './trial-custom-outcomes';

/**
 * In-silico trials (issue 17): one simulation set-up (kind, parameters, resolution, device version, placement rule)
 * applied to every patient of one of the project's cohorts, one durable run per patient, and scalar outcomes per
 * patient. See docs/decisions/trials.md.
 */

export const trialNameMaxLength = 60;
export const trialNameTakenMessage =
  'A trial with this name already exists in this project. Please choose another name.';
export const trialNotFoundMessage = 'This trial does not exist in this project.';

export const trialNameSchema = text()
  .trim()
  .min(1, 'Please give the trial a name.')
  .max(trialNameMaxLength, `A trial name can have at most ${trialNameMaxLength} characters.`);

/** Landmarks a device can be snapped to by rule: the annulus planes (centred and aligned with the plane's normal). */
export const trialLandmarks = ['aortic_annulus', 'mitral_annulus', 'tricuspid_annulus', 'pulmonary_annulus'] as const;
export const trialLandmarkSchema = z.enum(trialLandmarks, {
  error: 'Choose the aortic, mitral, tricuspid or pulmonary annulus.',
});
export type TrialLandmark = z.infer<typeof trialLandmarkSchema>;

/** The depth offset's bounds, mm (along the annulus normal, downstream positive). */
export const trialDepthLimits = { min: -20, max: 20 } as const;

const finite = (message: string) => z.number({ error: message }).refine(Number.isFinite, message);

/**
 * Where the device goes in each patient: snapped to a landmark (its bounding-box centre on the landmark, its +Z along
 * the plane's normal, as the room's "Snap to landmark"), moved `depth_mm` along the normal; optionally only patients
 * whose annulus diameter (the landmark's, mean of major and minor) lies in a size range (the device's sizing chart).
 */
export const placementRuleSchema = z
  .object({
    landmark: trialLandmarkSchema,
    depth_mm: finite('The depth offset must be a number of millimetres.')
      .refine(
        (v) => v >= trialDepthLimits.min && v <= trialDepthLimits.max,
        `The depth offset must lie between ${trialDepthLimits.min} and ${trialDepthLimits.max} mm.`,
      )
      .default(0),
    annulusRange_mm: z
      .object({
        min: finite('The size range needs numbers in millimetres.'),
        max: finite('The size range needs numbers in millimetres.'),
      })
      .refine((r) => r.min > 0 && r.max <= 80, 'The size range must lie between 0 and 80 mm.')
      .refine((r) => r.min <= r.max, 'The smallest annulus size must not exceed the largest.')
      .nullable()
      .default(null),
  })
  .strict();
export type PlacementRule = z.output<typeof placementRuleSchema>;
export type PlacementRuleInput = z.input<typeof placementRuleSchema>;

/** The landmarks as people name them (lower case: they stand inside sentences). */
export const trialLandmarkNames: Record<TrialLandmark, string> = {
  aortic_annulus: 'aortic annulus',
  mitral_annulus: 'mitral annulus',
  tricuspid_annulus: 'tricuspid annulus',
  pulmonary_annulus: 'pulmonary annulus',
};

/** A rule in words, the same on the page, in the CSV and in the report: "aortic annulus, depth 2 mm, annulus 23–29 mm". */
export function placementRuleText(rule: PlacementRule): string {
  const range = rule.annulusRange_mm;
  return (
    `${trialLandmarkNames[rule.landmark]}, depth ${rule.depth_mm} mm` +
    (range ? `, annulus ${range.min}–${range.max} mm` : '')
  );
}

/** Whether two rules place alike (a retry that sends the trial's own rule changes nothing). */
export function samePlacementRule(a: PlacementRule, b: PlacementRule): boolean {
  return (
    a.landmark === b.landmark &&
    a.depth_mm === b.depth_mm &&
    (a.annulusRange_mm === null
      ? b.annulusRange_mm === null
      : b.annulusRange_mm !== null &&
        a.annulusRange_mm.min === b.annulusRange_mm.min &&
        a.annulusRange_mm.max === b.annulusRange_mm.max)
  );
}

/** `POST …/projects/:projectId/trials`. */
export const createTrialSchema = z
  .object({
    name: trialNameSchema,
    /**
     * One of the two: a cohort of the project (a virtual cohort, or an imaging cohort by its dataset's id: its
     * delivered patients), or an SSM of it (its named instances are the patients).
     */
    cohortId: z.uuid({ error: 'Choose one of the project’s cohorts.' }).optional(),
    ssmId: z.uuid({ error: 'Choose one of the project’s shape models.' }).optional(),
    versionId: z.uuid({ error: 'Choose a device version of the project.' }),
    kind: simulationKindSchema,
    resolution: simulationResolutionSchema,
    parameters: simulationParametersSchema.optional(),
    placement: placementRuleSchema,
    /** Outcomes of the user's own, read from every patient's run beside the kind's (`trial-custom-outcomes.ts`). */
    customOutcomes: customOutcomesSchema.default([]),
  })
  .strict();
export type CreateTrial = z.input<typeof createTrialSchema>;
export type CreateTrialBody = z.output<typeof createTrialSchema>;

/** `POST …/trials/:trialId/retry`: a corrected placement rule may come with it (it then applies to the retried). */
export const retryTrialSchema = z.object({ placement: placementRuleSchema.optional() }).strict();
export type RetryTrial = z.input<typeof retryTrialSchema>;

/** `POST …/trials/:trialId/rerun`: the same set-up on another device version (device CI), compared on the page. */
export const rerunTrialSchema = z
  .object({ versionId: z.uuid({ error: 'Choose a device version of the project.' }), name: trialNameSchema })
  .strict();
export type RerunTrial = z.input<typeof rerunTrialSchema>;

export const trialParamsSchema = projectSimulationsParamsSchema.extend({ trialId: z.uuid() });

/**
 * An acceptance criterion on one outcome: the value passes when it lies in [min, max] (bounds inclusive, either may be
 * open), e.g. "pressure drop ≤ 20 mmHg" is `{ min: null, max: 20 }`.
 */
export const trialCriterionSchema = z
  .object({
    min: finite('An acceptance bound must be a number.').nullable(),
    max: finite('An acceptance bound must be a number.').nullable(),
  })
  .strict()
  .refine((c) => c.min !== null || c.max !== null, 'Give an acceptance criterion a lower or an upper bound.')
  .refine((c) => c.min === null || c.max === null || c.min <= c.max, 'The lower bound must not exceed the upper one.');
export type TrialCriterion = z.infer<typeof trialCriterionSchema>;

/** Outcome key → criterion; outcomes without one are not judged. */
export const trialAcceptanceSchema = z.record(text(), trialCriterionSchema);
export type TrialAcceptance = z.infer<typeof trialAcceptanceSchema>;

/** `PATCH …/trials/:trialId`: the acceptance criteria and whether the trial re-runs on each new device version. */
export const updateTrialSchema = z
  .object({ acceptance: trialAcceptanceSchema.optional(), autoRerun: z.boolean().optional() })
  .strict()
  .refine((b) => b.acceptance !== undefined || b.autoRerun !== undefined, 'Send the acceptance criteria or autoRerun.');
export type UpdateTrial = z.input<typeof updateTrialSchema>;

/** Whether an outcome value meets its criterion: null when there is no value or no criterion (not judged). */
export function meetsCriterion(
  value: number | null | undefined,
  criterion: TrialCriterion | undefined,
): boolean | null {
  if (value === null || value === undefined || !Number.isFinite(value) || !criterion) return null;
  return (criterion.min === null || value >= criterion.min) && (criterion.max === null || value <= criterion.max);
}

/** A criterion as people write it: "≤ 20 mmHg", "≥ 1.2 cm²", "1.2–3 cm²". */
export function criterionText(criterion: TrialCriterion, unit: string): string {
  const u = unit ? ` ${unit}` : '';
  if (criterion.min !== null && criterion.max !== null) return `${criterion.min}–${criterion.max}${u}`;
  return criterion.min !== null ? `≥ ${criterion.min}${u}` : `≤ ${criterion.max}${u}`;
}

/** A patient's state in the trial: preparing counts as queued, an outcome still being read as running. */
export const trialPatientStatuses = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export const trialPatientStatusSchema = z.enum(trialPatientStatuses);
export type TrialPatientStatus = z.infer<typeof trialPatientStatusSchema>;

/** A scalar outcome a kind defines (docs/decisions/trials.md says how each is computed). */
export const trialOutcomeDefinitionSchema = z.object({
  key: text(),
  label: text(),
  unit: text(),
  description: text(),
});
export type TrialOutcomeDefinition = z.infer<typeof trialOutcomeDefinitionSchema>;

export const trialPatientSchema = z.object({
  /** The cohort's patient id, or for a trial on an SSM the named instance's room id. */
  patientId: text(),
  /** An SSM instance's name and saved shape (`mean`, `2,0,-1.5`); null for a cohort's patient. */
  instance: z.object({ name: text(), shape: text() }).nullable(),
  status: trialPatientStatusSchema,
  /** Why the patient failed: the placement rule, the case building, the run, or reading the outcomes. */
  error: text().nullable(),
  stage: z.enum(['placement', 'setup', 'run', 'outcomes']).nullable(),
  /**
   * The rule the patient was placed by (or failed by): the trial's rule when it was placed, which a retry with a
   * corrected rule may have changed since; null while the patient waits for its placement.
   */
  placement: placementRuleSchema.nullable(),
  roomId: z.uuid().nullable(),
  simulationId: z.uuid().nullable(),
  simulationStatus: simulationStatusSchema.nullable(),
  progress: z.number(),
  etaSeconds: z.number().nullable(),
  /** Outcome key → value (null: not defined for this run, with a reason in `outcomeNotes`). */
  outcomes: z.record(text(), z.number().nullable()).nullable(),
  outcomeNotes: z.record(text(), text()),
  /** The definition version each value of a user outcome came from (the trial's `customOutcomeHistory`). */
  outcomeVersions: z.record(text(), z.number().int()),
  /** Values of earlier definitions (changed or removed since), kept as they were read: key, version, value. */
  earlierOutcomes: z.array(z.object({ key: text(), version: z.number().int(), value: z.number().nullable() })),
});
export type TrialPatient = z.infer<typeof trialPatientSchema>;

export const trialCountsSchema = z.object({
  total: z.number().int(),
  done: z.number().int(),
  running: z.number().int(),
  queued: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
});
export type TrialCounts = z.infer<typeof trialCountsSchema>;

/** Where a trial's cohort comes from: the virtual population, or the user's own imaging data (never "synthetic"). */
export const trialCohortSourceSchema = z.enum(['virtual', 'imaging']);

export const trialSchema = z.object({
  id: z.uuid(),
  projectId: z.uuid(),
  name: text(),
  /**
   * The cohort the trial runs on — virtual, or the user's own imaging data (`id` the dataset's, its delivered
   * patients) — or (one of the two) the SSM whose named instances are its patients.
   */
  cohort: z.object({ id: z.uuid(), name: text(), source: trialCohortSourceSchema }).nullable(),
  ssm: z.object({ id: z.uuid(), name: text() }).nullable(),
  deviceVersion: z.object({ id: z.uuid().nullable(), name: text() }),
  kind: simulationKindSchema,
  resolution: simulationResolutionSchema,
  parameters: simulationParametersSchema,
  placement: placementRuleSchema,
  status: z.enum(['running', 'completed', 'cancelled']),
  counts: trialCountsSchema,
  /** Seconds left at the trial's throughput so far (null before the first patient is done). */
  etaSeconds: z.number().nullable(),
  outcomes: z.array(trialOutcomeDefinitionSchema),
  /** The trial this one re-runs on another device version (its outcomes are compared per patient). */
  basedOnTrialId: z.uuid().nullable(),
  createdBy: z.object({ id: z.uuid(), name: text() }).nullable(),
  createdAt: text(),
  cancelledAt: text().nullable(),
  /** Acceptance criteria per outcome (pass/fail, pass fraction, the pass → fail list of device CI, the report). */
  acceptance: trialAcceptanceSchema,
  /** Device CI: re-run on each new ready device version of the project. */
  autoRerun: z.boolean(),
  /** The outcomes of the user's own now, with their keys and definition versions (the page edits them). */
  customOutcomes: z.array(storedCustomOutcomeSchema),
  /** Every version of every user outcome the trial has had, removed ones included. */
  customOutcomeHistory: z.array(customOutcomeVersionSchema),
  /** The last reading again of finished patients' outcomes after a change of definitions (null: none yet). */
  outcomeRefresh: z
    .object({
      status: z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']),
      progress: z.number(),
      message: text().nullable(),
    })
    .nullable(),
  canRun: z.boolean(),
});
export type Trial = z.infer<typeof trialSchema>;

export const trialDetailSchema = trialSchema.extend({ patients: z.array(trialPatientSchema) });
export type TrialDetail = z.infer<typeof trialDetailSchema>;

export const trialListSchema = z.object({ items: z.array(trialSchema), canRun: z.boolean() });
export type TrialList = z.infer<typeof trialListSchema>;

/**
 * One outcome over an SSM trial's instances (`GET …/trials/:id/outcomes`, docs/decisions/trials-on-ssm-population.md):
 * its summary over the instances with a value, the extreme instances (by id), the instances meeting its criterion (no
 * interval: the instances are chosen shapes, not a sample) and Pearson's r with each mode's score (null: fewer than 3
 * instances with a value, or the mode or the outcome constant among them).
 */
export const trialInstanceOutcomeSchema = z.object({
  key: text(),
  missing: z.number().int(),
  summary: z
    .object({
      n: z.number().int(),
      mean: z.number(),
      sd: z.number().nullable(),
      min: z.number(),
      q1: z.number(),
      median: z.number(),
      q3: z.number(),
      max: z.number(),
    })
    .nullable(),
  lowest: z.object({ id: text(), value: z.number() }).nullable(),
  highest: z.object({ id: text(), value: z.number() }).nullable(),
  pass: z.object({ count: z.number().int(), n: z.number().int() }).nullable(),
  modeCorrelations: z.array(z.number().nullable()),
});
export type TrialInstanceOutcome = z.infer<typeof trialInstanceOutcomeSchema>;

/** An SSM trial's instances as a population: the model, each instance's mode scores (SD) and each outcome's figures. */
export const trialInstancePopulationSchema = z.object({
  ssm: z.object({ id: z.uuid(), name: text(), modeCount: z.number().int() }),
  /** The modes any instance moves (1 … modes), each instance's score on them in SD (0: not moved). */
  modes: z.array(z.number().int()),
  instances: z.array(z.object({ id: text(), name: text(), shape: text(), modeScores: z.array(z.number()) })),
  outcomes: z.array(trialInstanceOutcomeSchema),
});
export type TrialInstancePopulation = z.infer<typeof trialInstancePopulationSchema>;

/**
 * A trial's outcomes as population parameters of its subject (one nullable value per patient): a cohort's patients
 * in the cohort's order (`cohortId` set, they join the population analysis), or an SSM trial's named instances by
 * room id in the trial's order (`instances` set: its population view on the trial page).
 */
export const trialOutcomeColumnsSchema = z.object({
  trialId: z.uuid(),
  trialName: text(),
  cohortId: z.uuid().nullable(),
  ids: z.array(text()),
  outcomes: z.array(trialOutcomeDefinitionSchema.extend({ parameter: text() })),
  values: z.array(z.array(z.number().nullable())),
  /**
   * Per id (in `ids`' order) the patient's completed run in the trial — its room and simulation, for "Open
   * simulation" in the population analysis's extreme cases — or null (no run, or not completed).
   */
  runs: z.array(z.object({ roomId: z.uuid(), simulationId: z.uuid() }).nullable()),
  instances: trialInstancePopulationSchema.nullable(),
});
export type TrialOutcomeColumns = z.infer<typeof trialOutcomeColumnsSchema>;

/**
 * The scalar outcomes each kind computes from a run's stored outputs (monitors.csv and frames) and, for the solid
 * kind's paravalvular gap, the patient's anatomy (docs/decisions/trials.md).
 */
export const trialOutcomeDefinitions = {
  fluid: [
    {
      key: 'pressure_drop',
      label: 'Pressure drop',
      unit: 'mmHg',
      description: 'Largest mean-pressure difference between the planes just upstream and downstream of the device.',
    },
    {
      key: 'peak_velocity',
      label: 'Peak velocity',
      unit: 'm/s',
      description: 'Largest blood particle speed over every saved timestep.',
    },
    {
      key: 'effective_orifice_area',
      label: 'Effective orifice area',
      unit: 'cm²',
      description:
        'Gorlin’s formula of ISO 5840: RMS forward flow / (51.6 √(mean pressure drop / density)) over the forward-flow timesteps.',
    },
    {
      key: 'max_wall_shear_stress',
      label: 'Maximum wall shear stress',
      unit: 'Pa',
      description: 'Largest wall shear stress on the vessel wall over every saved timestep.',
    },
  ],
  solid: [
    {
      key: 'peak_von_mises_stress',
      label: 'Peak von Mises stress',
      unit: 'MPa',
      description:
        'Largest von Mises stress in the device over every saved timestep, the crimp included (a solid device crimped in a linear-elastic model carries its largest stress there).',
    },
    {
      key: 'final_von_mises_stress',
      label: 'Final von Mises stress',
      unit: 'MPa',
      description: 'Largest von Mises stress in the device at the last saved timestep: the device implanted.',
    },
    {
      key: 'peak_von_mises_strain',
      label: 'Peak von Mises strain',
      unit: 'mm/mm',
      description: 'Largest von Mises strain in the device over every saved timestep.',
    },
    {
      key: 'max_displacement',
      label: 'Maximum displacement',
      unit: 'mm',
      description: 'Largest displacement of a device particle over every saved timestep.',
    },
    {
      key: 'peak_contact_pressure',
      label: 'Peak contact pressure',
      unit: 'mmHg',
      description: 'Largest contact pressure of the device on the anatomy over every saved timestep.',
    },
    {
      key: 'peak_line_load',
      label: 'Peak line load',
      unit: 'N/mm',
      description:
        'Largest over every saved timestep of the contact force on the anatomy per length of the contact line around the device (a particle’s peak pressure depends on the resolution; the line load does not).',
    },
    {
      key: 'final_device_diameter',
      label: 'Final device diameter',
      unit: 'mm',
      description: 'Mean over the measuring planes of the expanded device’s outer diameter at the last saved timestep.',
    },
    {
      key: 'final_ovality',
      label: 'Final ovality',
      unit: '%',
      description:
        'Largest over the measuring planes of (largest − smallest diameter) / mean diameter at the last saved timestep.',
    },
    {
      key: 'device_migration',
      label: 'Device migration',
      unit: 'mm',
      description: 'Axial displacement of the device under the pressure load at the last saved timestep.',
    },
    {
      key: 'paravalvular_gap_area',
      label: 'Paravalvular gap area',
      unit: 'mm²',
      description:
        'Area in the aortic annulus plane inside the lumen and outside the expanded device at the last saved timestep, where blood can pass around the device.',
    },
  ],
  particle: [
    {
      key: 'captured_fraction',
      label: 'Captured fraction',
      unit: '%',
      description: 'Share of the released particles captured by the walls or the device at the end of the run.',
    },
    {
      key: 'mean_residence_time',
      label: 'Mean residence time',
      unit: 's',
      description:
        'Mean age of the blood crossing the downstream plane, averaged over the timesteps where blood crossed.',
    },
  ],
} as const satisfies Record<'fluid' | 'solid' | 'particle', readonly TrialOutcomeDefinition[]>;
export type TrialOutcomeKey = (typeof trialOutcomeDefinitions)[keyof typeof trialOutcomeDefinitions][number]['key'];

/** The parameter key of a trial's outcome in the population analysis (`trial.<trialId>.<outcome>`). */
export function trialOutcomeParameter(trialId: string, outcome: string): string {
  return `trial.${trialId}.${outcome}`;
}
export const trialOutcomeParameterPattern = /^trial\.([0-9a-f-]{36})\.([a-z0-9_]+)$/;

/** `GET …/trials/setup`: what a new trial can be set up with (the project's ready cohorts and device versions). */
export const trialSetupSchema = z.object({
  /** Virtual cohorts, then the project's ready imaging cohorts (`id` the dataset's: their delivered patients). */
  cohorts: z.array(
    z.object({ id: z.uuid(), name: text(), patients: z.number().int(), source: trialCohortSourceSchema }),
  ),
  /** The project's ready SSMs with their named instances (rooms on a saved shape): a trial's other subject. */
  ssms: z.array(z.object({ id: z.uuid(), name: text(), instances: z.number().int() })),
  versions: z.array(z.object({ id: z.uuid(), name: text() })),
  /** Whether the operator turned the seconds-long 'test' resolution on for the workspace. */
  testResolution: z.boolean(),
  canRun: z.boolean(),
});
export type TrialSetup = z.infer<typeof trialSetupSchema>;

export const trialReportParamsSchema = trialParamsSchema.extend({ reportId: z.uuid() });

/** A stored trial report (PDF): made by a job from the trial as it stood then, never changed afterwards. */
export const trialReportSchema = z.object({
  id: z.uuid(),
  status: z.enum(['queued', 'ready', 'failed']),
  error: text().nullable(),
  bytes: z.number().int().nullable(),
  /** SHA-256 of the stored PDF (hex): the same file tomorrow. */
  sha256: text().nullable(),
  createdBy: z.object({ id: z.uuid(), name: text() }).nullable(),
  createdAt: text(),
  finishedAt: text().nullable(),
  /** The PDF's address once ready. */
  url: text().nullable(),
});
export type TrialReport = z.infer<typeof trialReportSchema>;
export const trialReportListSchema = z.object({ items: z.array(trialReportSchema) });
export type TrialReportList = z.infer<typeof trialReportListSchema>;

const trialsPath = '/api/devices/:deviceId/projects/:projectId/trials';
const trialPath = `${trialsPath}/:trialId` as const;

/** The trial API of a project (docs/decisions/trials.md, docs/decisions/endpoints-in-contracts.md). */
export const trialEndpoints = {
  list: endpoint({
    method: 'GET',
    path: trialsPath,
    params: projectSimulationsParamsSchema,
    response: { 200: trialListSchema },
  }),
  setup: endpoint({
    method: 'GET',
    path: `${trialsPath}/setup`,
    params: projectSimulationsParamsSchema,
    response: { 200: trialSetupSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: trialsPath,
    params: projectSimulationsParamsSchema,
    body: createTrialSchema,
    response: { 201: trialDetailSchema },
  }),
  get: endpoint({ method: 'GET', path: trialPath, params: trialParamsSchema, response: { 200: trialDetailSchema } }),
  update: endpoint({
    method: 'PATCH',
    path: trialPath,
    params: trialParamsSchema,
    body: updateTrialSchema,
    response: { 200: trialDetailSchema },
  }),
  remove: endpoint({ method: 'DELETE', path: trialPath, params: trialParamsSchema }),
  reports: endpoint({
    method: 'GET',
    path: `${trialPath}/reports`,
    params: trialParamsSchema,
    response: { 200: trialReportListSchema },
  }),
  requestReport: endpoint({
    method: 'POST',
    path: `${trialPath}/reports`,
    params: trialParamsSchema,
    response: { 202: trialReportSchema },
  }),
  /** A ready report's PDF. */
  reportPdf: endpoint({ method: 'GET', path: `${trialPath}/reports/:reportId/pdf`, params: trialReportParamsSchema }),
  cancel: endpoint({
    method: 'POST',
    path: `${trialPath}/cancel`,
    params: trialParamsSchema,
    response: { 200: trialDetailSchema },
  }),
  retry: endpoint({
    method: 'POST',
    path: `${trialPath}/retry`,
    params: trialParamsSchema,
    body: retryTrialSchema,
    response: { 200: trialDetailSchema },
  }),
  rerun: endpoint({
    method: 'POST',
    path: `${trialPath}/rerun`,
    params: trialParamsSchema,
    body: rerunTrialSchema,
    response: { 201: trialDetailSchema },
  }),
  replaceCustomOutcomes: endpoint({
    method: 'PUT',
    path: `${trialPath}/custom-outcomes`,
    params: trialParamsSchema,
    body: replaceCustomOutcomesSchema,
    response: { 200: trialDetailSchema },
  }),
  /** The patients' outcomes as a CSV file. */
  outcomesCsv: endpoint({ method: 'GET', path: `${trialPath}/outcomes.csv`, params: trialParamsSchema }),
  outcomes: endpoint({
    method: 'GET',
    path: `${trialPath}/outcomes`,
    params: trialParamsSchema,
    response: { 200: trialOutcomeColumnsSchema },
  }),
};
