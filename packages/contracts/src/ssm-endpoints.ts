import { patientLandmarksSchema } from './cohorts';
import { endpoint } from './endpoint';
import { createSsmSchema, projectSsmsParamsSchema, ssmListSchema, ssmParamsSchema, ssmSchema } from './ssm';
import { ssmModeMeasurementsSchema } from './ssm-mode-measurements';
import { text } from './text';

const ssmsPath = '/api/devices/:deviceId/projects/:projectId/ssms';
const ssmPath = `${ssmsPath}/:ssmId` as const;

/** A shape of a model: `mean` or standard deviations per mode (`2,0,-1.5`), as the server's service reads it. */
export const ssmInstanceParamsSchema = ssmParamsSchema.extend({ instance: text().min(1).max(400) });

/**
 * The statistical shape model endpoints (issue 18; docs/decisions/endpoints-in-contracts.md). The model file, the
 * shapes' meshes and the downloads answer bytes or text, not JSON: no answer schema.
 */
export const ssmEndpoints = {
  list: endpoint({ method: 'GET', path: ssmsPath, params: projectSsmsParamsSchema, response: { 200: ssmListSchema } }),
  create: endpoint({
    method: 'POST',
    path: ssmsPath,
    params: projectSsmsParamsSchema,
    body: createSsmSchema,
    response: { 201: ssmSchema },
  }),
  get: endpoint({ method: 'GET', path: ssmPath, params: ssmParamsSchema, response: { 200: ssmSchema } }),
  /** A model built with older build code, built again from its configuration as its next version (the old one stays). */
  rebuild: endpoint({
    method: 'POST',
    path: `${ssmPath}/rebuild`,
    params: ssmParamsSchema,
    response: { 201: ssmSchema },
  }),
  /**
   * A failed build (or rebuild) started again as the same model (same id and version), its configuration checked
   * again as at creation (docs/decisions/ssm-versions.md).
   */
  retry: endpoint({
    method: 'POST',
    path: `${ssmPath}/retry`,
    params: ssmParamsSchema,
    response: { 200: ssmSchema },
  }),
  /** The model for drawing instances in the browser (`encodeShapeModel` of @insilico/ssm). */
  model: endpoint({ method: 'GET', path: `${ssmPath}/model`, params: ssmParamsSchema }),
  /** A shape of the model as GLB (its organs, metres) for the room viewer. */
  shape: endpoint({ method: 'GET', path: `${ssmPath}/meshes/:instance`, params: ssmInstanceParamsSchema }),
  /** The landmarks of a shape (mm, the model's frame). */
  shapeLandmarks: endpoint({
    method: 'GET',
    path: `${ssmPath}/meshes/:instance/landmarks`,
    params: ssmInstanceParamsSchema,
    response: { 200: patientLandmarksSchema },
  }),
  /** Downloads (issue 18 item 7): a shape as STL or VTP, the mode matrix and the quality curves as CSV. */
  shapeStl: endpoint({
    method: 'GET',
    path: `${ssmPath}/exports/shapes/:instance/stl`,
    params: ssmInstanceParamsSchema,
  }),
  shapeVtp: endpoint({
    method: 'GET',
    path: `${ssmPath}/exports/shapes/:instance/vtp`,
    params: ssmInstanceParamsSchema,
  }),
  modesCsv: endpoint({ method: 'GET', path: `${ssmPath}/exports/modes.csv`, params: ssmParamsSchema }),
  qualityCsv: endpoint({ method: 'GET', path: `${ssmPath}/exports/quality.csv`, params: ssmParamsSchema }),
  /** Measurements along the modes (issue 18 item 8): the TAVI set from −3 SD to +3 SD of the first modes. */
  modeMeasurements: endpoint({
    method: 'GET',
    path: `${ssmPath}/mode-measurements`,
    params: ssmParamsSchema,
    response: { 200: ssmModeMeasurementsSchema },
  }),
  modeMeasurementsCsv: endpoint({
    method: 'GET',
    path: `${ssmPath}/exports/mode-measurements.csv`,
    params: ssmParamsSchema,
  }),
};
