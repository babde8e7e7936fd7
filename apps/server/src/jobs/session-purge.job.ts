import { z } from 'zod';
import type { JobDefinition } from './job-definition';

/** Deletes expired and idle sessions; scheduled every 15 minutes. Idempotent by nature. */
export const sessionPurgeJob: JobDefinition<Record<string, never>> = {
  kind: 'sessions.purge',
  retryLimit: 1,
  expireInSeconds: 5 * 60,
  parse: (data) =>
    z
      .object({})
      .strict()
      .parse(data ?? {}) as Record<string, never>,
  async perform({ services }) {
    const removed = await services.sessions.purgeStale();
    return { removed };
  },
};
