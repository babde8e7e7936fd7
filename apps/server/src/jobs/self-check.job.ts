import { z } from 'zod';
import type { JobDescriptor } from './job-descriptor';

const dataSchema = z.object({
  userId: z.uuid(),
  /** How long the check keeps a worker busy, in seconds. */
  seconds: z.number().int().min(1).max(120),
});

export type SelfCheckData = z.infer<typeof dataSchema>;

/** The job system's own check (JobService enqueues it; self-check.performer.ts works it). */
export const selfCheckJob: JobDescriptor<SelfCheckData> = {
  kind: 'workspace.self-check',
  retryLimit: 5,
  expireInSeconds: 15 * 60,
  parse: (data) => dataSchema.parse(data),
};
