/**
 * What services know of a kind of durable job: its name, retry and expiry policy, and the shape of its data. Services
 * enqueue with it; they never import a job's performer (`*.performer.ts`), which imports services in turn
 * (docs/decisions/jobs-cpu-work-off-event-loop.md; the layering is enforced in eslint.config.js).
 */
export interface JobDescriptor<Data = unknown> {
  kind: string;
  retryLimit: number;
  /** Upper bound of one attempt; a worker that dies is detected sooner, by its heartbeat. */
  expireInSeconds: number;
  parse(data: unknown): Data;
}
