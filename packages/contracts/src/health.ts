import { z } from 'zod';
import { endpoint } from './endpoint';
import { text } from './text';

/** `GET /api/health`: 200 when the database answers, 503 otherwise. */
export const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['ok', 'unavailable']),
  maintenance: z.boolean(),
  version: text(),
});
export type Health = z.infer<typeof healthSchema>;

/** Open to all, during maintenance too (docs/decisions/endpoints-in-contracts.md). */
export const healthEndpoints = {
  check: endpoint({ method: 'GET', path: '/api/health', response: { 200: healthSchema, 503: healthSchema } }),
};
