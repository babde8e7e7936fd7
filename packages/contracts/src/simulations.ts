import { z } from 'zod';
import { endpoint } from './endpoint';
import { text } from './text';

/**
 * Simulations of a room (issue 16): set-up defaults and estimates, create, the simulation list per room and per
 * project, rename, cancel, retry, delete, and the stored results (the engine's manifest, frames, monitors.csv).
 * See docs/decisions/simulations.md.
 */

export const simulationKinds = ['solid', 'fluid', 'particle'] as const;
export const simulationKindSchema = z.enum(simulationKinds, { error: 'Choose Solid, Fluid or Particle.' });
export type SimulationKindName = z.infer<typeof simulationKindSchema>;

/**
 * 'test' finishes in seconds (CI and journeys): refused unless an operator turned it on for the workspace
 * (`setup.testResolution`); people choose coarse, standard or fine.
 */
export const simulationResolutions = ['test', 'coarse', 'standard', 'fine'] as const;
export const simulationResolutionMessage = 'Choose the coarse, standard or fine resolution.';
export const simulationResolutionSchema = z.enum(simulationResolutions, { error: simulationResolutionMessage });
export type SimulationResolution = z.infer<typeof simulationResolutionSchema>;

export const simulationStatuses = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export const simulationStatusSchema = z.enum(simulationStatuses);
export type SimulationStatus = z.infer<typeof simulationStatusSchema>;

/** Spec §8 "Simulation help": what the set-up offers for anything its templates do not cover. */
export const simulationHelpMessage = 'Please reach out to us and we will help you set up your simulation.';

export const simulationNameMaxLength = 100;
/** A name another simulation of the room has (spec §5 "Rename": the field shows it as its error). */
export const simulationNameTakenMessage =
  'A simulation with this name already exists in this room. Please choose another name.';
export const simulationNotFoundMessage = 'This simulation does not exist in this project.';

export const simulationNameSchema = text()
  .trim()
  .min(1, 'Please give the simulation a name.')
  .max(simulationNameMaxLength, `A simulation name can have at most ${simulationNameMaxLength} characters.`);

export const roomSimulationsParamsSchema = z.object({ deviceId: z.uuid(), projectId: z.uuid(), roomId: z.uuid() });
export const projectSimulationsParamsSchema = z.object({ deviceId: z.uuid(), projectId: z.uuid() });
export const simulationParamsSchema = projectSimulationsParamsSchema.extend({ simulationId: z.uuid() });
/** A frame of one object at one saved timestep (zero-based). */
export const simulationFrameParamsSchema = simulationParamsSchema.extend({
  object: text().regex(/^[A-Za-z0-9_-]{1,64}$/, 'Unknown object.'),
  timestep: z.coerce.number().int().min(0).max(1_000_000),
});

/** A frame as a download for people: CSV (units in the headers) or VTP for ParaView. */
export const simulationExportParamsSchema = simulationFrameParamsSchema.extend({
  format: z.enum(['csv', 'vtp'], { error: 'Choose CSV or VTP.' }),
});

/** Parameter values as sent: numbers, the material id, the shear-thinning switch. Checked by the server. */
const parameterValueSchema = z.union([z.number(), z.boolean(), text().max(40)]);
export const simulationParametersSchema = z.record(text().max(40), parameterValueSchema);

/** `GET …/rooms/:roomId/simulations/setup?kind=`: defaults for the room's patient and the choices. */
export const simulationSetupQuerySchema = z.object({ kind: simulationKindSchema });

export const simulationEstimateSchema = z.object({
  resolution: simulationResolutionSchema,
  /** Particle spacing, mm. */
  dp_mm: z.number(),
  particles: z.number().int(),
  /** Simulated time, s. */
  endTime_s: z.number(),
  steps: z.number().int(),
  /** Estimated run time on one core, s. */
  seconds: z.number(),
});
export type SimulationEstimate = z.infer<typeof simulationEstimateSchema>;

const planeSchema = z.object({
  centre: z.tuple([z.number(), z.number(), z.number()]),
  normal: z.tuple([z.number(), z.number(), z.number()]),
  radius: z.number(),
});

export const simulationSetupSchema = z.object({
  kind: simulationKindSchema,
  /** The heart-cycle phase simulated (the room's phase, or the patient's first). */
  phase: text(),
  parameters: simulationParametersSchema,
  fields: z.array(
    z.object({
      key: text(),
      label: text(),
      unit: text(),
      min: z.number(),
      max: z.number(),
      integer: z.boolean(),
    }),
  ),
  materials: z.array(
    z.object({
      id: text(),
      name: text(),
      youngsModulus_GPa: z.number(),
      poissonRatio: z.number(),
      density_kg_m3: z.number(),
      source: text(),
    }),
  ),
  /** The simulated device (the first placed in the room), if any. */
  device: z.object({ versionId: text(), name: text() }).nullable(),
  /** Estimates per resolution (null where the room cannot run this kind; `problems` says why). */
  estimates: z.array(simulationEstimateSchema).nullable(),
  /** Inlet and outlet planes of the flow kinds (mm, patient frame), to draw in the scene. */
  planes: z.object({ inlet: planeSchema, outlet: planeSchema }).nullable(),
  /** Why this room cannot run this kind as it is (e.g. no device for the solid kind). */
  problems: z.array(text()),
  /**
   * Whether every problem is about a value of the form (e.g. the device still touching the anatomy at the patient's
   * default crimped diameter): the form stays open and the estimate checks each changed set-up.
   */
  problemsAdjustable: z.boolean(),
  helpMessage: text(),
  /** Whether the caller may start runs (project.work). */
  canRun: z.boolean(),
  particleCap: z.number().int(),
  /** Whether an operator turned the seconds-long 'test' resolution on for this workspace (journeys). */
  testResolution: z.boolean(),
});
export type SimulationSetup = z.infer<typeof simulationSetupSchema>;

/** `POST …/rooms/:roomId/simulations` (and `…/estimate` without the name). */
export const createSimulationSchema = z.object({
  kind: simulationKindSchema,
  /** Without a name: `<Kind> <n>`. */
  name: simulationNameSchema.optional(),
  resolution: simulationResolutionSchema,
  parameters: simulationParametersSchema.default({}),
});
export type CreateSimulation = z.input<typeof createSimulationSchema>;

const personSchema = z.object({ id: text(), name: text() });

export const simulationSchema = z.object({
  id: text(),
  projectId: text(),
  roomId: text(),
  roomName: text(),
  name: text(),
  kind: simulationKindSchema,
  resolution: simulationResolutionSchema,
  phase: text(),
  status: simulationStatusSchema,
  /** 0..1. */
  progress: z.number(),
  /** Simulated time reached and the end time, s. */
  simulatedTime: z.number(),
  endTime: z.number(),
  /** Estimated seconds left while running. */
  etaSeconds: z.number().nullable(),
  error: text().nullable(),
  deviceVersion: z.object({ id: text().nullable(), name: text() }).nullable(),
  parameters: simulationParametersSchema,
  estimate: simulationEstimateSchema,
  scenarioVersion: text(),
  createdBy: personSchema.nullable(),
  createdAt: text(),
  finishedAt: text().nullable(),
});
export type Simulation = z.infer<typeof simulationSchema>;

export const simulationPageSizes = [10, 25, 50, 100] as const;
export const simulationListQuerySchema = z.object({
  search: text().trim().max(100).default(''),
  sort: z.enum(['name', 'createdAt', 'status', 'progress']).default('createdAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine(
      (size) => (simulationPageSizes as readonly number[]).includes(size),
      'Choose 10, 25, 50 or 100 simulations per page.',
    )
    .default(25),
});
export type SimulationListQuery = z.infer<typeof simulationListQuerySchema>;

export const simulationPageSchema = z.object({
  items: z.array(simulationSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  canRun: z.boolean(),
});
export type SimulationPage = z.infer<typeof simulationPageSchema>;

export const renameSimulationSchema = z.object({ name: simulationNameSchema });

/** `POST /api/operator/simulation-test-resolution` (loopback operator route): the test resolution of a workspace. */
export const simulationTestResolutionSchema = z.object({ deviceId: z.uuid(), enabled: z.boolean() });

/** One column of a frame (the engine's manifest): units per spec §9. */
const columnSchema = z.object({
  name: text(),
  label: text(),
  unit: text(),
  type: z.enum(['float32', 'int32']),
  components: z.number().int(),
  offset: z.number().int(),
  byteLength: z.number().int(),
});

/** `GET …/simulations/:id/results`: the engine's manifest and where to fetch frames and monitors. */
export const simulationResultsSchema = z.object({
  simulationId: text(),
  status: simulationStatusSchema,
  manifest: z.object({
    format: text(),
    version: z.number(),
    endianness: text(),
    timesteps: z.array(
      z.object({
        index: z.number().int(),
        time: z.number(),
        particleCounts: z.record(text(), z.number().int()).optional(),
      }),
    ),
    objects: z.array(
      z.object({
        name: text(),
        /** The engine's bodies, and `wall`: a flow run's wall surface particles with their wall shear stress. */
        kind: z.enum(['fluid', 'solid', 'particles', 'wall']),
        particleCount: z.number().int(),
        frameFile: text(),
        columns: z.array(columnSchema),
      }),
    ),
  }),
  /** `…/frames/{object}/{timestep}`: the binary columnar frame (application/octet-stream). */
  frameUrlTemplate: text(),
  /** `…/exports/{object}/{timestep}/{format}` with format csv or vtp: the frame as a download. */
  exportUrlTemplate: text(),
  /** monitors.csv (flow rate, pressure drop, wall shear stress, capture …), or null when the kind has none. */
  monitorsUrl: text().nullable(),
  /** `…/heatmap?objects=…&output=…&start=…&end=…&binCount=…` (or `binSize`): a Range heatmap binned on the server. */
  heatmapUrl: text(),
  /**
   * Per object and timeline scalar (vectors as magnitudes, `position_x` …) its minimum and maximum over every stored
   * timestep (the colour bar's range over the run); null for a result stored before these were kept.
   */
  ranges: z.record(text(), z.record(text(), z.object({ min: z.number(), max: z.number() }))).nullable(),
});
export type SimulationResults = z.infer<typeof simulationResultsSchema>;

/** Spec §5 "Rename": the particle message. */
export const particleNameTakenMessage = 'Particle name already exists';
export const particleNameMaxLength = 60;

/** One particle of an object of a result: its stable `particle_id` (frames keep ids across timesteps). */
export const simulationParticleParamsSchema = simulationParamsSchema.extend({
  object: simulationFrameParamsSchema.shape.object,
  particle: z.coerce.number().int().min(0, 'Unknown particle.').max(2_147_483_647, 'Unknown particle.'),
});

export const renameParticleSchema = z.object({
  name: text()
    .trim()
    .min(1, 'Please give the particle a name.')
    .max(particleNameMaxLength, `A particle name can have at most ${particleNameMaxLength} characters.`),
});

/** A particle's name: the one a person gave it, or "Particle <id>". */
export const simulationParticleSchema = z.object({ object: text(), particle: z.number().int(), name: text() });
export type SimulationParticle = z.infer<typeof simulationParticleSchema>;
export const simulationParticleListSchema = z.object({ items: z.array(simulationParticleSchema) });
export type SimulationParticleList = z.infer<typeof simulationParticleListSchema>;

/** The default name of a particle nobody renamed. */
export function defaultParticleName(particle: number): string {
  return `Particle ${particle}`;
}

/** Most particles one timeline request may follow (the line-graph card draws a line each). */
export const timelineParticleLimit = 50;

/** `GET …/timeline/:object?particles=3,17`: per-timestep statistics of every output and the chosen particles' values. */
export const simulationTimelineParamsSchema = simulationParamsSchema.extend({
  object: simulationFrameParamsSchema.shape.object,
});
export const simulationTimelineQuerySchema = z.object({
  particles: text()
    .max(2000)
    .default('')
    .transform((value, ctx) => {
      const parts = value.split(',').filter((part) => part.trim() !== '');
      const ids = parts.map((part) => Number(part));
      if (ids.some((id) => !Number.isInteger(id) || id < 0 || id > 2_147_483_647)) {
        ctx.addIssue({ code: 'custom', message: 'Particles are given as ids separated by commas.' });
        return z.NEVER;
      }
      if (ids.length > timelineParticleLimit) {
        ctx.addIssue({ code: 'custom', message: `Follow at most ${timelineParticleLimit} particles at once.` });
        return z.NEVER;
      }
      return [...new Set(ids)];
    }),
});

const timelineOutputSchema = z.object({ name: text(), label: text(), unit: text() });
export const simulationTimelineSchema = z.object({
  object: text(),
  /** Simulated time of each saved timestep, s. */
  times: z.array(z.number()),
  /** Scalar outputs (vectors as their magnitude; the position as its three components, mm). */
  outputs: z.array(timelineOutputSchema),
  /** Per output name: minimum, maximum and mean over the object's particles at each timestep (null: no particle). */
  stats: z.record(
    text(),
    z.object({
      min: z.array(z.number().nullable()),
      max: z.array(z.number().nullable()),
      mean: z.array(z.number().nullable()),
    }),
  ),
  /** The chosen particles: per output name a value per timestep (null where the particle is not in that frame). */
  particles: z.array(
    z.object({
      particle: z.number().int(),
      name: text(),
      values: z.record(text(), z.array(z.number().nullable())),
    }),
  ),
});
export type SimulationTimeline = z.infer<typeof simulationTimelineSchema>;

/**
 * `GET …/heatmap`: the histogram/heatmap card's Range mode binned next to the stored frames (spec §3 "Heatmap plot
 * data"; the bins of `@insilico/contracts/binning`): the chosen objects' output over timesteps `start`…`end`.
 */
export const simulationHeatmapQuerySchema = z
  .object({
    objects: text()
      .max(500)
      .regex(/^[A-Za-z0-9_-]+(,[A-Za-z0-9_-]+)*$/, 'Objects are names separated by commas.')
      .transform((value) => [...new Set(value.split(','))]),
    output: text().regex(/^[a-z0-9_]{1,64}$/, 'Unknown output.'),
    start: z.coerce.number().int().min(0).max(1_000_000),
    end: z.coerce.number().int().min(0).max(1_000_000),
    binCount: z.coerce.number().optional(),
    binSize: z.coerce.number().optional(),
  })
  .refine((q) => (q.binCount === undefined) !== (q.binSize === undefined), {
    message: 'Give either an amount of bins or a bin size.',
    path: ['binCount'],
  });
export type SimulationHeatmapQuery = z.infer<typeof simulationHeatmapQuerySchema>;
export const simulationHeatmapSchema = z.object({
  data: z.array(z.array(z.number().int())),
  min: z.number(),
  max: z.number(),
  binSize: z.number(),
  timerange: z.object({ start: z.number().int(), end: z.number().int() }),
});

/** `…/frames/:object/:timestep?columns=position,pressure`: only these columns, back to back in the manifest's order. */
export const simulationFrameQuerySchema = z.object({
  columns: text()
    .max(500)
    .regex(/^[a-z0-9_,]*$/, 'Columns are output names separated by commas.')
    .optional(),
});

/** A column of a frame as the manifest lists it (its offset is that of the manifest's particle count). */
export interface FrameColumn {
  name: string;
  type: 'float32' | 'int32';
  components: number;
  offset: number;
  byteLength: number;
}

/**
 * The columns of a frame of `count` particles: the manifest's columns in their order, offsets and lengths for that
 * count (with inlets and outlets each timestep has its own count, spec of the engine's `frameLayout`).
 */
export function frameColumnsAt<C extends FrameColumn>(columns: readonly C[], count: number): C[] {
  let offset = 0;
  return columns.map((column) => {
    const byteLength = 4 * count * column.components;
    const placed = { ...column, offset, byteLength };
    offset += byteLength;
    return placed;
  });
}

const roomSimulationsPath = '/api/devices/:deviceId/projects/:projectId/rooms/:roomId/simulations';
const simulationsPath = '/api/devices/:deviceId/projects/:projectId/simulations';
const simulationPath = `${simulationsPath}/:simulationId` as const;

/**
 * The simulation API of a project (docs/decisions/simulations.md, docs/decisions/endpoints-in-contracts.md): set-up
 * and estimate per room, the lists per room and per project, one run's changes, and its results (manifest, frames,
 * exports, particles, timelines, heatmap, monitors.csv).
 */
export const simulationEndpoints = {
  setup: endpoint({
    method: 'GET',
    path: `${roomSimulationsPath}/setup`,
    params: roomSimulationsParamsSchema,
    query: simulationSetupQuerySchema,
    response: { 200: simulationSetupSchema },
  }),
  estimate: endpoint({
    method: 'POST',
    path: `${roomSimulationsPath}/estimate`,
    params: roomSimulationsParamsSchema,
    body: createSimulationSchema,
    response: { 200: simulationEstimateSchema },
  }),
  roomList: endpoint({
    method: 'GET',
    path: roomSimulationsPath,
    params: roomSimulationsParamsSchema,
    query: simulationListQuerySchema,
    response: { 200: simulationPageSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: roomSimulationsPath,
    params: roomSimulationsParamsSchema,
    body: createSimulationSchema,
    response: { 201: simulationSchema },
  }),
  list: endpoint({
    method: 'GET',
    path: simulationsPath,
    params: projectSimulationsParamsSchema,
    query: simulationListQuerySchema,
    response: { 200: simulationPageSchema },
  }),
  get: endpoint({
    method: 'GET',
    path: simulationPath,
    params: simulationParamsSchema,
    response: { 200: simulationSchema },
  }),
  rename: endpoint({
    method: 'PATCH',
    path: simulationPath,
    params: simulationParamsSchema,
    body: renameSimulationSchema,
    response: { 200: simulationSchema },
  }),
  cancel: endpoint({
    method: 'POST',
    path: `${simulationPath}/cancel`,
    params: simulationParamsSchema,
    response: { 200: simulationSchema },
  }),
  retry: endpoint({
    method: 'POST',
    path: `${simulationPath}/retry`,
    params: simulationParamsSchema,
    response: { 200: simulationSchema },
  }),
  remove: endpoint({ method: 'DELETE', path: simulationPath, params: simulationParamsSchema }),
  results: endpoint({
    method: 'GET',
    path: `${simulationPath}/results`,
    params: simulationParamsSchema,
    response: { 200: simulationResultsSchema },
  }),
  /** A binary frame (or some of its columns, `?columns=`). */
  frame: endpoint({
    method: 'GET',
    path: `${simulationPath}/frames/:object/:timestep`,
    params: simulationFrameParamsSchema,
    query: simulationFrameQuerySchema,
  }),
  /** A frame as CSV or VTP, as a file. */
  export: endpoint({
    method: 'GET',
    path: `${simulationPath}/exports/:object/:timestep/:format`,
    params: simulationExportParamsSchema,
  }),
  particles: endpoint({
    method: 'GET',
    path: `${simulationPath}/particles`,
    params: simulationParamsSchema,
    response: { 200: simulationParticleListSchema },
  }),
  renameParticle: endpoint({
    method: 'PUT',
    path: `${simulationPath}/particles/:object/:particle`,
    params: simulationParticleParamsSchema,
    body: renameParticleSchema,
    response: { 200: simulationParticleSchema },
  }),
  timeline: endpoint({
    method: 'GET',
    path: `${simulationPath}/timeline/:object`,
    params: simulationTimelineParamsSchema,
    query: simulationTimelineQuerySchema,
    response: { 200: simulationTimelineSchema },
  }),
  heatmap: endpoint({
    method: 'GET',
    path: `${simulationPath}/heatmap`,
    params: simulationParamsSchema,
    query: simulationHeatmapQuerySchema,
    response: { 200: simulationHeatmapSchema },
  }),
  /** The run's monitors as CSV text. */
  monitors: endpoint({ method: 'GET', path: `${simulationPath}/monitors.csv`, params: simulationParamsSchema }),
};
