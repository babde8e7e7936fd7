import { createDefaultCriteria, type CohortCriteria } from '@insilico/anatomy';
import type { Cohort } from '@insilico/contracts';
import { expect } from 'vitest';
import type { TestBrowser } from '../../../test/helpers/browser';
import { json } from '../devices/workspace.fixtures';

/** Fixtures of the cohort API suites. */

/** Criteria of a new draft with some changes (plain JSON, as the page sends them). */
export function criteriaWith(change: (criteria: CohortCriteria) => CohortCriteria = (c) => c): CohortCriteria {
  return change(createDefaultCriteria());
}

export function orderBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: `Cohort ${Math.random().toString(36).slice(2, 8)}`, size: 5, criteria: criteriaWith(), ...overrides };
}

export async function orderCohort(
  browser: TestBrowser,
  deviceId: string,
  overrides: Record<string, unknown> = {},
): Promise<Cohort> {
  const response = await browser.postJson(`/api/devices/${deviceId}/cohorts`, orderBody(overrides));
  expect(response.status).toBe(201);
  return json<Cohort>(response);
}

/** Polls the cohort until it leaves `in_progress` (the order job runs in the test server's process). */
export async function settled(browser: TestBrowser, deviceId: string, cohortId: string, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const cohort = await json<Cohort>(await browser.get(`/api/devices/${deviceId}/cohorts/${cohortId}`));
    if (cohort.status !== 'in_progress') return cohort;
    if (Date.now() > until) throw new Error(`cohort ${cohortId} still in progress after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
