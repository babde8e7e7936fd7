import { defineJob } from './job-definition';
import { selfCheckJob } from './self-check.job';

/**
 * The job system's own check: occupies a worker for a few seconds with visible progress and
 * ends in a notification to whoever asked. Operators use it to see that workers are alive; the
 * test suite uses it to kill a worker mid-job. The notification is keyed by job id, so a retried
 * run notifies once.
 */
export const selfCheckPerformer = defineJob(
  selfCheckJob,
  async ({ jobId, data, attempt, signal, progress, services }) => {
    for (let second = 0; second < data.seconds; second += 1) {
      await progress(second / data.seconds, `Step ${second + 1} of ${data.seconds}`);
      await sleep(1000, signal);
    }
    await progress(1, 'Done');
    await services.notifications.post({
      userId: data.userId,
      kind: 'job.self-check',
      title: 'Background jobs are working',
      body: `The job system check finished after ${attempt === 1 ? 'one attempt' : `${attempt} attempts`}.`,
      dedupeKey: `job:${jobId}`,
    });
    return { attempts: attempt };
  },
);

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
