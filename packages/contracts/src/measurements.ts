import { z } from 'zod';
import type { SubscriptionPlan } from './subscriptions';
import { text } from './text';
import { reasonSchema } from './audit';
import { ssmInstancePattern, ssmParamsSchema } from './ssm';
import { cohortParamsSchema } from './cohorts';
import { deviceParamsSchema } from './devices';
import { endpoint } from './endpoint';

/**
 * Anatomical measurements (issue 23): definitions on the anatomy's landmarks (versioned), orders on a cohort,
 * results per patient × measurement with the failure reason and hand corrections. The geometry mirrors
 * `MeasurementGeometry` of @insilico/measure (landmark and organ names are checked by the server against the
 * anatomy's lists). See docs/decisions/measurements.md.
 */

/** Spec §8: where a workspace's plan does not include measurements. */
export const measurementsDisabledMessage = 'Please send us a message to request measurements.';
/** The plans that include measurements (docs/decisions/measurements.md); the trial does not. */
export const measurementPlans: readonly SubscriptionPlan[] = ['team', 'enterprise'];
/** The error code of a measurement call in a workspace whose plan lacks them (403, with the spec's message). */
export const measurementsNotInPlanCode = 'measurements_not_in_plan';

const finite = z.number().refine(Number.isFinite, 'Enter a finite number.');
const name = text().trim().min(1, 'Enter a landmark or organ name.').max(60);
export const vec3Schema = z.tuple([finite, finite, finite]);

/** A patient of a cohort of the workspace: where a surface point was picked. */
export const patientPickSourceSchema = z
  .object({
    cohortId: z.uuid('Not a cohort id.'),
    patientId: text().regex(/^SYN-\d{6}$/, 'Not a patient id.'),
  })
  .strict();
export type PatientPickSource = z.infer<typeof patientPickSourceSchema>;

/**
 * A shape of a statistical shape model of a project of the workspace (issue 18): the mean or standard deviations
 * per mode (`2,0,-1.5`), in the model's frame (mm); the model is built at one phase, the definition's.
 */
export const ssmPickSourceSchema = z
  .object({
    projectId: z.uuid('Not a project id.'),
    ssmId: z.uuid('Not a shape model id.'),
    instance: text().regex(
      ssmInstancePattern,
      'Name a shape as "mean" or as standard deviations per mode, e.g. 2,0,-1.5.',
    ),
  })
  .strict();
export type SsmPickSource = z.infer<typeof ssmPickSourceSchema>;

/** Where the surface points of a definition were picked: a patient of a cohort, or a shape of an SSM. */
export const surfacePointSourceSchema = z.union([patientPickSourceSchema, ssmPickSourceSchema]);
export type SurfacePointSource = z.infer<typeof surfacePointSourceSchema>;

/**
 * A point picked on an organ's surface of one patient at the definition's phase (patient frame, mm), or of a shape
 * of an SSM built at that phase (the model's frame, mm). The server
 * checks it lies on that surface and stores with it the frame of four nearby landmarks that carries it to every
 * patient of an order (`frame`: set by the server, any sent is replaced). See docs/decisions/measurement-surface-points.md.
 */
export const surfacePointSchema = z
  .object({
    organ: name,
    position: vec3Schema,
    source: surfacePointSourceSchema,
    frame: z
      .object({ landmarks: z.tuple([name, name, name, name]), coordinates: vec3Schema })
      .strict()
      .optional(),
  })
  .strict();
export type SurfacePointBody = z.infer<typeof surfacePointSchema>;

export const pointRefSchema = z.union([
  z.object({ landmark: name }).strict(),
  z.object({ position: vec3Schema }).strict(),
  z.object({ surface: surfacePointSchema }).strict(),
]);
export type PointRefBody = z.infer<typeof pointRefSchema>;

const offset = finite.refine((v) => Math.abs(v) <= 200, 'An offset is at most 200 mm.').optional();
export const planeRefSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('landmark'), landmark: name, offset_mm: offset }).strict(),
  z
    .object({
      kind: z.literal('three-points'),
      points: z.tuple([pointRefSchema, pointRefSchema, pointRefSchema]),
      offset_mm: offset,
    })
    .strict(),
  z.object({ kind: z.literal('body'), plane: z.enum(['axial', 'coronal', 'sagittal']) }).strict(),
]);

export const sectionQuantities = [
  'area',
  'perimeter',
  'min-diameter',
  'max-diameter',
  'mean-diameter',
  'area-derived-diameter',
  'perimeter-derived-diameter',
] as const;

export const measurementGeometrySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('distance'), from: pointRefSchema, to: pointRefSchema }).strict(),
  z.object({ type: z.literal('height'), point: pointRefSchema, plane: planeRefSchema }).strict(),
  z
    .object({ type: z.literal('section'), organ: name, plane: planeRefSchema, quantity: z.enum(sectionQuantities) })
    .strict(),
  z.object({ type: z.literal('section-chord'), organ: name, plane: planeRefSchema, towards: pointRefSchema }).strict(),
  z.object({ type: z.literal('angle'), vertex: pointRefSchema, from: pointRefSchema, to: pointRefSchema }).strict(),
  z.object({ type: z.literal('plane-angle'), planes: z.tuple([planeRefSchema, planeRefSchema]) }).strict(),
  z
    .object({
      type: z.literal('curve-length'),
      points: z
        .array(pointRefSchema)
        .min(2, 'A curve needs at least two points.')
        .max(200, 'A curve has at most 200 points.'),
    })
    .strict(),
  z.object({ type: z.literal('volume'), organ: name }).strict(),
]);
export type MeasurementGeometryBody = z.infer<typeof measurementGeometrySchema>;

export const measurementPhases = ['end-diastole', 'end-systole'] as const;
export const measurementUnits = ['mm', 'mm²', 'mL', '°'] as const;

/** `POST …/measurement-definitions` and `PUT …/measurement-definitions/:definitionId` (a new version). */
export const measurementDefinitionBodySchema = z.object({
  name: text().trim().min(1, 'Enter a name for the measurement.').max(120, 'A name has at most 120 characters.'),
  description: text().trim().max(1000, 'A description has at most 1000 characters.').default(''),
  phase: z.enum(measurementPhases),
  geometry: measurementGeometrySchema,
});
export type MeasurementDefinitionBody = z.infer<typeof measurementDefinitionBodySchema>;

/** One version of a definition; `id` names the version, `lineageId` all versions of one definition. */
export const measurementDefinitionSchema = z.object({
  id: text(),
  lineageId: text(),
  version: z.number().int(),
  /** True for the built-in sets (not editable); their id is `<set>/<key>@<version>`. */
  builtIn: z.boolean(),
  name: text(),
  description: text(),
  phase: z.enum(measurementPhases),
  unit: z.enum(measurementUnits),
  geometry: measurementGeometrySchema,
  createdAt: text().nullable(),
});
export type MeasurementDefinitionView = z.infer<typeof measurementDefinitionSchema>;

export const measurementDefinitionListSchema = z.object({
  /** The built-in SCCT TAVI set with its key and version. */
  builtInSets: z.array(
    z.object({ key: text(), version: z.number().int(), name: text(), definitionIds: z.array(text()) }),
  ),
  /** Built-in definitions, then the workspace's latest versions. */
  items: z.array(measurementDefinitionSchema),
});
export type MeasurementDefinitionList = z.infer<typeof measurementDefinitionListSchema>;

export const measurementDefinitionParamsSchema = z.object({ deviceId: z.uuid(), definitionId: z.uuid() });

/** `POST …/cohorts/:cohortId/measurement-orders`: definition (version) ids, built-in ones included. */
export const createMeasurementOrderSchema = z.object({
  definitionIds: z
    .array(text().max(120))
    .min(1, 'Choose at least one measurement.')
    .max(100, 'An order has at most 100 measurements.')
    .refine((ids) => new Set(ids).size === ids.length, 'A measurement is chosen twice.'),
});
export type CreateMeasurementOrder = z.infer<typeof createMeasurementOrderSchema>;

export const measurementOrderStatuses = ['in_progress', 'ready', 'failed'] as const;

/** A measurement of an order: the definition version it was measured with. */
export const orderedMeasurementSchema = z.object({
  definitionId: text(),
  version: z.number().int(),
  name: text(),
  unit: z.enum(measurementUnits),
  phase: z.enum(measurementPhases),
});

/** One patient × measurement cell. `value` is the corrected value where there is one, else the automatic. */
export const measurementCellSchema = z.object({
  automatic: z.number().nullable(),
  failure: text().nullable(),
  corrected: z.number().nullable(),
  value: z.number().nullable(),
});

export const measurementPatientRowSchema = z.object({
  patientId: text(),
  cells: z.array(measurementCellSchema),
  /** The hand correction of this patient's landmarks: who and when (null: automatic only). */
  correction: z
    .object({ landmarks: z.array(text()), by: z.object({ id: text(), fullName: text() }).nullable(), at: text() })
    .nullable(),
});

export const measurementOrderSchema = z.object({
  id: text(),
  deviceId: text(),
  /** The cohort measured; null for an order on a shape model's shapes (`ssm`). */
  cohortId: text().nullable(),
  /** The cohort's name, or the shape model's. */
  cohortName: text(),
  /** An order on a shape model's mean and named instances (issue 23): the model; each shape is a row's patient. */
  ssm: z.object({ id: text(), projectId: text() }).nullable().optional(),
  status: z.enum(measurementOrderStatuses),
  progress: z.number(),
  error: text().nullable(),
  measurements: z.array(orderedMeasurementSchema),
  /** Patients × measurements once ready (empty while in progress). */
  patients: z.array(measurementPatientRowSchema),
  createdAt: text(),
  createdBy: z.object({ id: text(), fullName: text() }).nullable(),
});
export type MeasurementOrder = z.infer<typeof measurementOrderSchema>;

export const measurementOrderListSchema = z.object({
  items: z.array(measurementOrderSchema.omit({ patients: true })),
});
export type MeasurementOrderList = z.infer<typeof measurementOrderListSchema>;

export const measurementOrderParamsSchema = z.object({ deviceId: z.uuid(), orderId: z.uuid() });
export const measurementPatientParamsSchema = measurementOrderParamsSchema.extend({
  patientId: text()
    .regex(/^SYN-\d{6}$/, 'Not a patient id.')
    .meta({ examples: ['SYN-000001'] }),
});

/**
 * `PUT …/measurement-orders/:orderId/patients/:patientId/correction`: landmarks placed by hand for one patient at
 * one phase (a point; for plane landmarks such as the annular plane also its normal). The patient's measurements
 * at that phase are taken again; the automatic values stay.
 */
export const measurementCorrectionSchema = z.object({
  phase: z.enum(measurementPhases),
  landmarks: z
    .record(name, z.object({ position: vec3Schema, normal: vec3Schema.optional() }).strict())
    .refine((l) => Object.keys(l).length > 0, 'Correct at least one landmark.')
    .refine((l) => Object.keys(l).length <= 20, 'Correct at most 20 landmarks at once.'),
  /** A corrected measurement changes what the data say: the server asks why (issue 20). */
  reason: reasonSchema,
});
export type MeasurementCorrection = z.infer<typeof measurementCorrectionSchema>;

/**
 * A measurement of a ready order as a parameter of the population analysis (issue 23 item 3): the order and the
 * measurement's place in it (an order freezes its definitions, so the key always names the same values).
 */
export function measurementParameter(orderId: string, index: number): string {
  return `measurement.${orderId}.${index}`;
}
export const measurementParameterPattern = /^measurement\.([0-9a-f-]{36})\.(\d{1,3})$/;

const definitionsPath = '/api/devices/:deviceId/measurement-definitions';
const ordersPath = '/api/devices/:deviceId/measurement-orders';
const orderPath = `${ordersPath}/:orderId` as const;

/** Measurement definitions, orders, results and corrections of a workspace (docs/decisions/endpoints-in-contracts.md). */
export const measurementEndpoints = {
  definitions: endpoint({
    method: 'GET',
    path: definitionsPath,
    params: deviceParamsSchema,
    response: { 200: measurementDefinitionListSchema },
  }),
  createDefinition: endpoint({
    method: 'POST',
    path: definitionsPath,
    params: deviceParamsSchema,
    body: measurementDefinitionBodySchema,
    response: { 201: measurementDefinitionSchema },
  }),
  /** A change of a definition: its next version. */
  reviseDefinition: endpoint({
    method: 'PUT',
    path: `${definitionsPath}/:definitionId`,
    params: measurementDefinitionParamsSchema,
    body: measurementDefinitionBodySchema,
    response: { 201: measurementDefinitionSchema },
  }),
  orderOnCohort: endpoint({
    method: 'POST',
    path: '/api/devices/:deviceId/cohorts/:cohortId/measurement-orders',
    params: cohortParamsSchema,
    body: createMeasurementOrderSchema,
    response: { 201: measurementOrderSchema },
  }),
  /** An order on a shape model's mean and named instances. */
  orderOnShapes: endpoint({
    method: 'POST',
    path: '/api/devices/:deviceId/projects/:projectId/ssms/:ssmId/measurement-orders',
    params: ssmParamsSchema,
    body: createMeasurementOrderSchema,
    response: { 201: measurementOrderSchema },
  }),
  orders: endpoint({
    method: 'GET',
    path: ordersPath,
    params: deviceParamsSchema,
    response: { 200: measurementOrderListSchema },
  }),
  order: endpoint({
    method: 'GET',
    path: orderPath,
    params: measurementOrderParamsSchema,
    response: { 200: measurementOrderSchema },
  }),
  /** The results as CSV (a file, not JSON). */
  csv: endpoint({ method: 'GET', path: `${orderPath}/results.csv`, params: measurementOrderParamsSchema }),
  correct: endpoint({
    method: 'PUT',
    path: `${orderPath}/patients/:patientId/correction`,
    params: measurementPatientParamsSchema,
    body: measurementCorrectionSchema,
    response: { 200: measurementOrderSchema },
  }),
};
