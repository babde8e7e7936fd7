import { z } from 'zod';

const noData = z.object({}).strict();

/** The data of a scheduled sweep: none (pg-boss's schedules send `{}` or nothing). */
export function parseNoData(data: unknown): Record<string, never> {
  return noData.parse(data ?? {});
}
