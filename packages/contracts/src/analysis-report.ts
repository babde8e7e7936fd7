import { z } from 'zod';
import { representativenessRequestSchema } from './representativeness';

/**
 * `POST /api/devices/:deviceId/projects/:projectId/analyses/:analysisId/report` (issue 23): the population analysis
 * report as PDF. With a reference population the report includes the comparison with it (the server compares
 * again: the reference is not stored).
 */
export const analysisReportRequestSchema = z.object({
  representativeness: representativenessRequestSchema.optional(),
});
export type AnalysisReportRequest = z.input<typeof analysisReportRequestSchema>;
