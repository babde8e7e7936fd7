import { z } from 'zod';
import type { JobDescriptor } from './job-descriptor';

const dataSchema = z.object({ ssmId: z.uuid(), userId: z.uuid() });

export type SsmBuildData = z.infer<typeof dataSchema>;

/** The web page of an SSM (the notification links to it). */
export function ssmPagePath(deviceId: string, projectId: string, ssmId: string): string {
  return `/projects/ssm?${new URLSearchParams({ ssm: ssmId, project: projectId, device: deviceId }).toString()}`;
}

/** Building a statistical shape model (SsmService enqueues it; ssm-build.performer.ts does the work). */
export const ssmBuildJob: JobDescriptor<SsmBuildData> = {
  kind: 'ssm.build',
  retryLimit: 2,
  expireInSeconds: 30 * 60,
  parse: (data) => dataSchema.parse(data),
};
