import { expect, type Page } from '@playwright/test';
import { api } from './workspace-helpers';

/** Every option at its default: the whole synthetic population matches. */
export const openCriteria = {
  body_part: 'heart_and_thorax',
  pathology: {},
  sex: {},
  body_dimensions: {
    height: { min: 0, max: 215 },
    weight: { min: 0, max: 180 },
    bmi: { min: 10, max: 40 },
    bsa: { min: 0, max: 3.5 },
  },
  origin: { by: 'location', location: {}, ethnicity: {} },
  age_group: {},
  phases_of_heart_cycle: {},
};

/**
 * Orders a cohort through the cohort API (journeys about something else) and waits until its order job has
 * prepared it; answers its id.
 */
export async function orderReadyCohort(
  page: Page,
  deviceId: string,
  options: { name: string; size: 5 | 10 | 20 | 50 | 100; timeoutMs?: number; criteria?: Record<string, unknown> },
): Promise<string> {
  const cohort = await api(page, 'POST', `/api/devices/${deviceId}/cohorts`, {
    name: options.name,
    size: options.size,
    criteria: options.criteria ?? openCriteria,
  });
  const id = cohort.id as string;
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/devices/${deviceId}/cohorts/${id}`)).json()) as { status: string })
          .status,
      { timeout: options.timeoutMs ?? 180_000, intervals: [1000] },
    )
    .toBe('ready');
  return id;
}
