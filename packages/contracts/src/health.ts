import { z } from 'zod';
import { text } from './text';

/** `GET /api/health`: 200 when the database answers, 503 otherwise. */
export const healthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  database: z.enum(['ok', 'unavailable']),
  maintenance: z.boolean(),
  version: text(),
});
export type Health = z.infer<typeof healthSchema>;
