import { z } from 'zod';
import type { JobDefinition } from './job-definition';

/** Removes resumable uploads whose time ran out (their rows and bytes); scheduled every 15 minutes. */
export const uploadExpiryJob: JobDefinition<Record<string, never>> = {
  kind: 'uploads.expire',
  retryLimit: 1,
  expireInSeconds: 10 * 60,
  parse: (data) =>
    z
      .object({})
      .strict()
      .parse(data ?? {}) as Record<string, never>,
  async perform({ services }) {
    return { removed: await services.uploads.expire() };
  },
};
