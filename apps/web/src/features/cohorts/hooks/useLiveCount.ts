import { useEffect, useState } from 'react';
import type { CohortCriteria } from '@insilico/anatomy';
import { ApiError } from '../../../lib/apiError';
import { countCohort } from '../api';

/** Waits this long after the last change before counting, so dragging a slider asks once, not per pixel. */
const settleMs = 200;

export interface LiveCount {
  matching: number | null;
  population: number | null;
  /** True while the shown figures belong to earlier criteria. */
  counting: boolean;
  error: string | null;
}

interface Answer {
  key: string;
  matching: number | null;
  population: number | null;
  error: string | null;
}

/** The number of patients matching the criteria, recounted on the server as the criteria change. */
export function useLiveCount(deviceId: string | null, criteria: CohortCriteria): LiveCount {
  const [answer, setAnswer] = useState<Answer | null>(null);
  const key = JSON.stringify(criteria);

  useEffect(() => {
    if (!deviceId) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      countCohort(deviceId, JSON.parse(key) as CohortCriteria, controller.signal)
        .then((count) => setAnswer({ key, matching: count.matching, population: count.population, error: null }))
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          setAnswer({
            key,
            matching: null,
            population: null,
            error: error instanceof ApiError ? error.message : 'The patients could not be counted.',
          });
        });
    }, settleMs);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [deviceId, key]);

  return {
    matching: answer?.matching ?? null,
    population: answer?.population ?? null,
    counting: answer?.key !== key,
    error: answer?.key === key ? answer.error : null,
  };
}
