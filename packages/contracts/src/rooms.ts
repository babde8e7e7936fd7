import { z } from 'zod';
import { cohortStatusSchema, meshPhasePattern, patientIdPattern } from './cohorts';
import { imagingPatientIdPattern, imagingPhasePattern } from './imaging-patients';
import { ssmInstancePattern } from './ssm';
import { endpoint } from './endpoint';
import { pictureQuerySchema } from './pictures';
import { text } from './text';

/**
 * Rooms of a project (issue 5 items 7–8): a patient of one of the project's cohorts (or, later, an SSM) with
 * device versions placed in its anatomy, the view settings, sharing and a screenshot gallery.
 * See docs/decisions/rooms.md.
 */

export const roomNameMaxLength = 100;
/** A rename to the name of another room of the project (spec §5 "Rename": the field shows it as its error). */
export const roomNameTakenMessage = 'A room with this name already exists in this project. Please choose another name.';
/** Spec §8 "Rename error", completed where the source is cut short. */
export const renameFailedMessage =
  'Something went wrong. Your name could not be saved at the moment. Please try again later or contact support.';

export const roomNameSchema = text()
  .trim()
  .min(1, 'Please give the room a name.')
  .max(roomNameMaxLength, `A room name can have at most ${roomNameMaxLength} characters.`);

export const projectRoomsParamsSchema = z.object({ deviceId: z.uuid(), projectId: z.uuid() });
export const roomParamsSchema = projectRoomsParamsSchema.extend({ roomId: z.uuid() });
export const roomScreenshotParamsSchema = roomParamsSchema.extend({ screenshotId: z.uuid() });

/**
 * `POST …/rooms`: a room on a patient of one of the project's cohorts, or on one of the project's ready statistical
 * shape models (spec §2 "A new room is created by choosing a patient or an SSM"); without a name, `<patient> room`
 * or `<SSM> room`.
 */
export const createRoomSchema = z.union([
  z.object({
    cohortId: z.uuid(),
    patientId: text().regex(patientIdPattern, 'Choose a patient of one of the project’s cohorts.'),
    name: roomNameSchema.optional(),
  }),
  z.object({ ssmId: z.uuid(), name: roomNameSchema.optional() }),
  // A patient of one of the project's ready imaging cohorts (issue 19): the user's own data.
  z.object({
    imagingDatasetId: z.uuid(),
    patientId: text().regex(imagingPatientIdPattern, 'Choose a patient of one of the project’s imaging cohorts.'),
    name: roomNameSchema.optional(),
  }),
]);
export type CreateRoom = z.input<typeof createRoomSchema>;

export const renameRoomSchema = z.object({ name: roomNameSchema });
export type RenameRoom = z.input<typeof renameRoomSchema>;

export const roomPageSizes = [12, 24, 48, 96] as const;
/** `any` (default), `yes` or `no`: the tri-state filters of the Rooms tab. */
export const roomFilterFlagSchema = z.enum(['any', 'yes', 'no']);
export type RoomFilterFlag = z.infer<typeof roomFilterFlagSchema>;

/**
 * `GET …/rooms?search=&cohortId=&patientId=&ssmId=&subject=&hasSimulation=&page=&pageSize=` (page is 1-based).
 * `subject` narrows to patient rooms or SSM rooms; `ssmId` to the rooms of one SSM.
 */
export const roomListQuerySchema = z.object({
  search: text().trim().max(100).default(''),
  cohortId: z.uuid().optional(),
  patientId: text().regex(patientIdPattern, 'Choose a patient of one of the project’s cohorts.').optional(),
  ssmId: z.uuid().optional(),
  subject: z.enum(['any', 'patient', 'ssm']).default('any'),
  hasSimulation: roomFilterFlagSchema.default('any'),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((size) => (roomPageSizes as readonly number[]).includes(size), 'Choose 12, 24, 48 or 96 rooms per page.')
    .default(24),
});
export type RoomListQuery = z.infer<typeof roomListQuerySchema>;
export type RoomListQueryInput = z.input<typeof roomListQuerySchema>;

const personSchema = z.object({ id: text(), name: text() });

/** What a room shows: a patient (cohort + patient id), an SSM, or a patient of an imaging cohort. */
export const roomSubjectSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('patient'), cohortId: text(), cohortName: text(), patientId: text() }),
  z.object({ kind: z.literal('ssm'), ssmId: text() }),
  /** A patient of an imaging cohort: the user's own data (issue 19), never synthetic. */
  z.object({ kind: z.literal('imaging'), datasetId: text(), datasetName: text(), patientId: text() }),
]);
export type RoomSubject = z.infer<typeof roomSubjectSchema>;

export const roomScreenshotSchema = z.object({
  id: text(),
  url: text(),
  thumbnailUrl: text(),
  width: z.number().int(),
  height: z.number().int(),
  createdBy: personSchema.nullable(),
  createdAt: text(),
});
export type RoomScreenshot = z.infer<typeof roomScreenshotSchema>;

export const roomSchema = z.object({
  id: text(),
  projectId: text(),
  name: text(),
  subject: roomSubjectSchema,
  /** Whether the room has a simulation (in any state; issue 16). */
  hasSimulation: z.boolean(),
  placementCount: z.number().int(),
  screenshotCount: z.number().int(),
  latestScreenshot: roomScreenshotSchema.nullable(),
  sharedWith: z.array(personSchema),
  createdBy: personSchema.nullable(),
  createdAt: text(),
  updatedAt: text(),
});
export type Room = z.infer<typeof roomSchema>;

/** The patients and SSMs the project's rooms are on (the filter choices, independent of the filters). */
export const roomFacetsSchema = z.object({
  patients: z.array(z.object({ cohortId: text(), cohortName: text(), patientId: text() })),
  ssms: z.array(z.object({ ssmId: text(), name: text() })),
});
export type RoomFacets = z.infer<typeof roomFacetsSchema>;

export const roomPageSchema = z.object({
  items: z.array(roomSchema),
  /** Rooms matching the filters (all pages). */
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  facets: roomFacetsSchema,
  /** The project's cohorts: where a new room's patient is chosen (ready ones have patients). */
  cohorts: z.array(z.object({ cohortId: text(), name: text(), status: cohortStatusSchema })),
  /** Whether the caller may create, rename, share and delete rooms (project.work). */
  canEdit: z.boolean(),
});
export type RoomPage = z.infer<typeof roomPageSchema>;

/** `POST …/rooms/:roomId/shares`: share with members of the project team (they are notified). */
export const shareRoomSchema = z.object({
  userIds: z.array(z.uuid()).min(1, 'Choose at least one team member.').max(100),
});
export type ShareRoom = z.input<typeof shareRoomSchema>;

/** `GET …/rooms/:roomId/shares`: the project team (without the caller) and whether the room is shared with each. */
export const roomShareListSchema = z.object({
  items: z.array(
    z.object({
      userId: text(),
      name: text(),
      email: text(),
      shared: z.boolean(),
      sharedAt: text().nullable(),
    }),
  ),
});
export type RoomShareList = z.infer<typeof roomShareListSchema>;

/** Placement limits (docs/decisions/rooms.md). Positions are mm in the patient frame (LPS). */
export const placementLimits = {
  maxPlacements: 20,
  /** |x|, |y|, |z| of a position, mm. */
  maxPositionMm: 2000,
  /** Allowed deviation of the quaternion's norm from 1. */
  quaternionTolerance: 1e-3,
  minScale: 0.05,
  maxScale: 20,
} as const;

const finite = (what: string) => z.number({ error: `${what} must be a number.` }).finite(`${what} must be finite.`);
const positionComponent = finite('A position').refine(
  (value) => Math.abs(value) <= placementLimits.maxPositionMm,
  `A position must lie within ±${placementLimits.maxPositionMm} mm of the patient's origin.`,
);
const scaleComponent = finite('A scale').refine(
  (value) => value >= placementLimits.minScale && value <= placementLimits.maxScale,
  `A scale must lie between ${placementLimits.minScale} and ${placementLimits.maxScale}.`,
);

export const placementTransformSchema = z.object({
  /** mm, patient frame. */
  position: z.tuple([positionComponent, positionComponent, positionComponent]),
  /** Rotation as a unit quaternion [x, y, z, w]. */
  quaternion: z
    .tuple([finite('A rotation'), finite('A rotation'), finite('A rotation'), finite('A rotation')])
    .refine(
      (q) => Math.abs(Math.hypot(...q) - 1) <= placementLimits.quaternionTolerance,
      'A rotation must be a unit quaternion.',
    ),
  scale: z.tuple([scaleComponent, scaleComponent, scaleComponent]),
});
export type PlacementTransform = z.infer<typeof placementTransformSchema>;

const landmarkNameSchema = text().regex(/^[a-z_]{1,40}$/, 'Unknown landmark.');
const organNameSchema = text().regex(/^[a-z_]{1,40}$/, 'Unknown organ.');

export const placementInputSchema = z.object({
  /** A device version on the project, ready (processed). */
  versionId: z.uuid(),
  transform: placementTransformSchema,
  /** The landmark the device was snapped to, if any. */
  landmark: landmarkNameSchema.nullable().default(null),
});

export const roomViewSchema = z.object({
  /**
   * The heart-cycle phase shown (`end-diastole`, `end-systole`, a cine frame), or in a room on an SSM the shape
   * (`mean`, or standard deviations per mode such as `2,0`); null: the first the patient has, the SSM's mean.
   */
  phase: text()
    .refine(
      (value) => meshPhasePattern.test(value) || ssmInstancePattern.test(value) || imagingPhasePattern.test(value),
      'Unknown phase.',
    )
    .nullable()
    .default(null),
  hiddenOrgans: z.array(organNameSchema).max(40).default([]),
});
export type RoomView = z.infer<typeof roomViewSchema>;

/** `PUT …/rooms/:roomId/scene`: the whole scene replaces the saved one. */
export const saveRoomSceneSchema = z.object({
  view: roomViewSchema,
  placements: z
    .array(placementInputSchema)
    .max(placementLimits.maxPlacements, `A room holds at most ${placementLimits.maxPlacements} devices.`),
});
export type SaveRoomScene = z.input<typeof saveRoomSceneSchema>;
/** The scene as the server receives it, after parsing (defaults filled in). */
export type SaveRoomSceneBody = z.output<typeof saveRoomSceneSchema>;

export const placementSchema = z.object({
  id: text(),
  versionId: text(),
  versionName: text(),
  transform: placementTransformSchema,
  landmark: text().nullable(),
});
export type Placement = z.infer<typeof placementSchema>;

/** A device version the scene can place: ready, on the project, with its STL files. */
export const sceneVersionSchema = z.object({
  id: text(),
  name: text(),
  files: z.array(z.object({ id: text(), fileName: text(), modelUrl: text() })),
});
export type SceneVersion = z.infer<typeof sceneVersionSchema>;

/** `GET …/rooms/:roomId/scene`: the room, its anatomy, placements, view, and the versions that can be placed. */
export const roomSceneSchema = z.object({
  room: roomSchema,
  anatomy: z.object({
    phases: z.array(text()),
    organs: z.array(text()),
    /** `…/meshes/{phase}` (GLB, metres) and `…/meshes/{phase}/landmarks` (mm), with `{phase}` to fill in. */
    meshUrlTemplate: text(),
    landmarksUrlTemplate: text(),
  }),
  view: roomViewSchema,
  placements: z.array(placementSchema),
  versions: z.array(sceneVersionSchema),
  /** Whether the caller may change the room (project.work). */
  canEdit: z.boolean(),
});
export type RoomScene = z.infer<typeof roomSceneSchema>;

/** PNG screenshots of the scene: at most this many bytes (checked while the body streams). */
export const roomScreenshotMaxBytes = 5120 * 1024;
export const roomScreenshotListSchema = z.object({ items: z.array(roomScreenshotSchema) });
export type RoomScreenshotList = z.infer<typeof roomScreenshotListSchema>;

const roomsPath = '/api/devices/:deviceId/projects/:projectId/rooms';
const roomPath = `${roomsPath}/:roomId` as const;

/** The room API of a project (docs/decisions/endpoints-in-contracts.md). */
export const roomEndpoints = {
  list: endpoint({
    method: 'GET',
    path: roomsPath,
    params: projectRoomsParamsSchema,
    query: roomListQuerySchema,
    response: { 200: roomPageSchema },
  }),
  create: endpoint({
    method: 'POST',
    path: roomsPath,
    params: projectRoomsParamsSchema,
    body: createRoomSchema,
    response: { 201: roomSchema },
  }),
  get: endpoint({ method: 'GET', path: roomPath, params: roomParamsSchema, response: { 200: roomSchema } }),
  rename: endpoint({
    method: 'PATCH',
    path: roomPath,
    params: roomParamsSchema,
    body: renameRoomSchema,
    response: { 200: roomSchema },
  }),
  remove: endpoint({ method: 'DELETE', path: roomPath, params: roomParamsSchema }),
  shares: endpoint({
    method: 'GET',
    path: `${roomPath}/shares`,
    params: roomParamsSchema,
    response: { 200: roomShareListSchema },
  }),
  share: endpoint({
    method: 'POST',
    path: `${roomPath}/shares`,
    params: roomParamsSchema,
    body: shareRoomSchema,
    response: { 200: roomShareListSchema },
  }),
  scene: endpoint({
    method: 'GET',
    path: `${roomPath}/scene`,
    params: roomParamsSchema,
    response: { 200: roomSceneSchema },
  }),
  saveScene: endpoint({
    method: 'PUT',
    path: `${roomPath}/scene`,
    params: roomParamsSchema,
    body: saveRoomSceneSchema,
    response: { 200: roomSceneSchema },
  }),
  screenshots: endpoint({
    method: 'GET',
    path: `${roomPath}/screenshots`,
    params: roomParamsSchema,
    response: { 200: roomScreenshotListSchema },
  }),
  /** The PNG is the raw body (like pictures): its bytes decide its type. */
  addScreenshot: endpoint({
    method: 'POST',
    path: `${roomPath}/screenshots`,
    params: roomParamsSchema,
    response: { 201: roomScreenshotSchema },
  }),
  screenshotImage: endpoint({
    method: 'GET',
    path: `${roomPath}/screenshots/:screenshotId/image`,
    params: roomScreenshotParamsSchema,
    query: pictureQuerySchema,
  }),
};
