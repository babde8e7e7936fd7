import { z } from 'zod';
import { deviceParamsSchema } from './devices';
import { endpoint } from './endpoint';
import { text } from './text';

/**
 * Device versions (spec §3 "Device version", §4 "New device version", §5 "Device version name", §8): a name
 * unique per workspace (any letter case), a description and one or more .stl files, uploaded with tus and then
 * processed in the background (validated, measured, previewed).
 */

/** The duplicate-name message of spec §5, word for word. */
export const deviceVersionNameTakenMessage =
  'Device version with this name already exists. Please change name to proceed.';
/** The creation error of spec §8, word for word; the reason per file follows it. */
export const deviceVersionFailedMessage =
  'Something went wrong. Please check whether one of the files is corrupted and try to upload it again.';
export const deviceVersionNameMaxLength = 100;
export const deviceVersionDescriptionMaxLength = 2000;
/** Files per version: enough for an assembly, few enough to process in one job. */
export const deviceVersionMaxFiles = 20;
export const stlFileNamePattern = /\.stl$/i;
export const notStlMessage = 'Only .stl files can be added to a device version.';

export const deviceVersionNameSchema = text()
  .trim()
  .min(1, 'Give the device version a name.')
  .max(deviceVersionNameMaxLength, `The name can have at most ${deviceVersionNameMaxLength} characters.`);

/** `POST /api/devices/:deviceId/device-versions`. */
export const createDeviceVersionSchema = z.object({
  name: deviceVersionNameSchema,
  description: text()
    .trim()
    .max(
      deviceVersionDescriptionMaxLength,
      `The description can have at most ${deviceVersionDescriptionMaxLength} characters.`,
    )
    .default(''),
  /** Completed uploads of this workspace, in the order the files are listed. */
  uploadIds: z
    .array(z.uuid())
    .min(1, 'Add at least one .stl file.')
    .max(deviceVersionMaxFiles, `A device version can have at most ${deviceVersionMaxFiles} files.`)
    .refine((ids) => new Set(ids).size === ids.length, 'A file is listed twice.'),
  /** The project the version joins once it is ready (the creation wizard). */
  targetProjectId: z.uuid().optional(),
});
export type CreateDeviceVersion = z.input<typeof createDeviceVersionSchema>;

/** `GET .../device-versions/name-available?name=`: the form's live check. */
export const deviceVersionNameQuerySchema = z.object({ name: deviceVersionNameSchema });
export const deviceVersionNameAvailabilitySchema = z.object({
  available: z.boolean(),
  /** The spec message when taken. */
  message: text().nullable(),
});
export type DeviceVersionNameAvailability = z.infer<typeof deviceVersionNameAvailabilitySchema>;

export const deviceVersionStatusSchema = z.enum(['uploading', 'processing', 'ready', 'failed']);
export type DeviceVersionStatus = z.infer<typeof deviceVersionStatusSchema>;

const vec3Schema = z.tuple([z.number(), z.number(), z.number()]);

/** What processing measured of one file (lengths in mm; STL has no unit, device files are taken to be in mm). */
export const stlMetricsSchema = z.object({
  triangleCount: z.number().int(),
  vertexCount: z.number().int(),
  boundingBox: z.object({ min: vec3Schema, max: vec3Schema, size: vec3Schema }),
  surfaceArea_mm2: z.number(),
  /** Only for a closed, consistently oriented surface. */
  volume_mm3: z.number().nullable(),
  watertight: z.boolean(),
  boundaryEdges: z.number().int(),
  nonManifoldEdges: z.number().int(),
  degenerateTriangles: z.number().int(),
  orientationFlips: z.number().int(),
});
export type StlMetrics = z.infer<typeof stlMetricsSchema>;

/** A warning about an accepted file (open surface, flipped triangles …): it informs, it does not refuse. */
export const stlFindingSchema = z.object({ code: text(), count: z.number().int(), message: text() });
export type StlFinding = z.infer<typeof stlFindingSchema>;

export const deviceVersionFileSchema = z.object({
  id: text(),
  position: z.number().int(),
  fileName: text(),
  bytes: z.number().int(),
  status: z.enum(['pending', 'valid', 'refused']),
  format: z.enum(['binary', 'ascii']).nullable(),
  metrics: stlMetricsSchema.nullable(),
  findings: z.array(stlFindingSchema),
  /** Why the file was refused (status refused): the reason in words, under the spec §8 message. */
  refusal: z.object({ code: text(), message: text() }).nullable(),
  /** Download of the original file (binary or ASCII STL as uploaded); null until stored. */
  modelUrl: text().nullable(),
  /** 256 × 256 PNG; null until processed (and for refused files). */
  previewUrl: text().nullable(),
});
export type DeviceVersionFile = z.infer<typeof deviceVersionFileSchema>;

export const deviceVersionSchema = z.object({
  id: text(),
  deviceId: text(),
  name: text(),
  description: text(),
  status: deviceVersionStatusSchema,
  /** Progress of processing, 0..1 (1 once ready or failed). */
  progress: z.number().min(0).max(1),
  progressMessage: text().nullable(),
  /** The spec §8 message when failed; each refused file carries its reason. */
  error: text().nullable(),
  files: z.array(deviceVersionFileSchema),
  createdBy: z.object({ id: text(), fullName: text() }).nullable(),
  createdAt: text(),
  processedAt: text().nullable(),
  /** Projects using the version (those the caller may see). */
  projects: z.array(z.object({ id: text(), name: text() })),
  /** The project it joins once ready (still processing). */
  targetProjectId: text().nullable(),
});
export type DeviceVersion = z.infer<typeof deviceVersionSchema>;

export const deviceVersionPageSizes = [10, 25, 50, 100] as const;

/** A comma list in a query string, split (empty parts dropped). */
const commaList = () =>
  text()
    .default('')
    .transform((value) => value.split(',').filter((part) => part !== ''));

/** At most this many ids in one `ids=` query (a chooser asks about the versions it holds as chosen). */
export const deviceVersionIdsMax = 100;

/**
 * `GET .../device-versions?search=&status=&ids=&page=&pageSize=` (page is 1-based; status: one or a comma list;
 * ids: a comma list of version ids, to read the state of chosen versions whatever page they are on).
 */
export const deviceVersionListQuerySchema = z.object({
  search: text().trim().max(100).default(''),
  status: commaList().pipe(z.array(deviceVersionStatusSchema)),
  ids: commaList().pipe(
    z.array(z.uuid()).max(deviceVersionIdsMax, `Ask for at most ${deviceVersionIdsMax} device versions at once.`),
  ),
  page: z.coerce.number().int().min(1).max(10000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => (deviceVersionPageSizes as readonly number[]).includes(n), 'Choose 10, 25, 50 or 100 per page.')
    .default(25),
});
export type DeviceVersionListQuery = z.input<typeof deviceVersionListQuerySchema>;

export const deviceVersionListSchema = z.object({
  items: z.array(deviceVersionSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type DeviceVersionList = z.infer<typeof deviceVersionListSchema>;

export const deviceVersionParamsSchema = z.object({ deviceId: z.uuid(), versionId: z.uuid() });
export const deviceVersionFileParamsSchema = deviceVersionParamsSchema.extend({ fileId: z.uuid() });
export const projectDeviceVersionParamsSchema = z.object({
  deviceId: z.uuid(),
  projectId: z.uuid(),
  versionId: z.uuid(),
});
export const projectParamsForVersionsSchema = z.object({ deviceId: z.uuid(), projectId: z.uuid() });

/**
 * `DELETE /api/devices/:deviceId/device-versions/:versionId` is refused while a room places the version (409); the
 * message names the rooms (docs/decisions/device-versions.md "Deleting").
 */
export function deviceVersionInRoomsMessage(rooms: readonly { name: string; projectName: string }[]): string {
  const shown = rooms.slice(0, 3).map((room) => `${room.name} (${room.projectName})`);
  const more = rooms.length > shown.length ? ` and ${rooms.length - shown.length} more` : '';
  const where = rooms.length === 1 ? 'a room' : `${rooms.length} rooms`;
  return `This device version is placed in ${where}: ${shown.join(', ')}${more}. Remove it from ${rooms.length === 1 ? 'that room' : 'those rooms'} before deleting the version.`;
}
export const deviceVersionProcessingDeleteMessage =
  'This device version is still being processed. Delete it once processing has ended.';

/** `POST /api/devices/:deviceId/projects/:projectId/device-versions`: add a ready version to a project. */
export const addProjectDeviceVersionSchema = z.object({ versionId: z.uuid() });

const versionsPath = '/api/devices/:deviceId/device-versions';
const versionPath = `${versionsPath}/:versionId` as const;
const projectVersionsPath = '/api/devices/:deviceId/projects/:projectId/device-versions';

/** The device-version API of a workspace and of its projects (docs/decisions/endpoints-in-contracts.md). */
export const deviceVersionEndpoints = {
  nameAvailable: endpoint({
    method: 'GET',
    path: `${versionsPath}/name-available`,
    params: deviceParamsSchema,
    query: deviceVersionNameQuerySchema,
    response: { 200: deviceVersionNameAvailabilitySchema },
  }),
  create: endpoint({
    method: 'POST',
    path: versionsPath,
    params: deviceParamsSchema,
    body: createDeviceVersionSchema,
    response: { 201: deviceVersionSchema },
  }),
  list: endpoint({
    method: 'GET',
    path: versionsPath,
    params: deviceParamsSchema,
    query: deviceVersionListQuerySchema,
    response: { 200: deviceVersionListSchema },
  }),
  get: endpoint({
    method: 'GET',
    path: versionPath,
    params: deviceVersionParamsSchema,
    response: { 200: deviceVersionSchema },
  }),
  remove: endpoint({ method: 'DELETE', path: versionPath, params: deviceVersionParamsSchema }),
  /** The STL file as uploaded (a download). */
  model: endpoint({ method: 'GET', path: `${versionPath}/files/:fileId/model`, params: deviceVersionFileParamsSchema }),
  /** The preview image (PNG). */
  preview: endpoint({
    method: 'GET',
    path: `${versionPath}/files/:fileId/preview`,
    params: deviceVersionFileParamsSchema,
  }),
  addToProject: endpoint({
    method: 'POST',
    path: projectVersionsPath,
    params: projectParamsForVersionsSchema,
    body: addProjectDeviceVersionSchema,
    response: { 200: deviceVersionSchema },
  }),
  removeFromProject: endpoint({
    method: 'DELETE',
    path: `${projectVersionsPath}/:versionId`,
    params: projectDeviceVersionParamsSchema,
  }),
};
