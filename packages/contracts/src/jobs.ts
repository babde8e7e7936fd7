import { z } from 'zod';
import { text } from './text';

export const jobStatusSchema = z.enum(['queued', 'running', 'completed', 'failed', 'cancelled']);
export type JobStatus = z.infer<typeof jobStatusSchema>;

/** A durable background job as the API shows it: `GET /api/jobs/:id`. Progress is a fraction 0..1. */
export const jobSchema = z.object({
  id: text(),
  kind: text(),
  status: jobStatusSchema,
  progress: z.number().min(0).max(1),
  progressMessage: text().nullable(),
  attempts: z.number().int(),
  error: text().nullable(),
  createdAt: text(),
  startedAt: text().nullable(),
  finishedAt: text().nullable(),
});
export type Job = z.infer<typeof jobSchema>;
