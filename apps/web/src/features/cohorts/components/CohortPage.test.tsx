import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { createDefaultCriteria } from '@insilico/anatomy';
import type { Cohort } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { stubApi } from '../../../../test/helpers/stubApi';
import { cohortPath } from '../paths';
import { CohortPage } from './CohortPage';

configure({ asyncUtilTimeout: 5000 });

const cohort: Cohort = {
  id: 'c-1',
  deviceId: 'd-1',
  name: 'TAVI women',
  description: '',
  size: 20,
  criteria: createDefaultCriteria(),
  criteriaSummary: 'Women, geriatric',
  status: 'in_progress',
  progress: 0.5,
  synthetic: true,
  createdBy: { id: 'u-1', fullName: 'Ada Lovelace' },
  createdAt: '2026-11-29T00:00:00.000Z',
  readyAt: null,
  matchingAtOrder: 120,
  modelVersion: 'anatomy-population-2',
  error: null,
  progressMessage: null,
};

beforeEach(() => {
  stubApi((url) => (url.pathname === '/api/devices/d-1/cohorts/c-1' ? jsonResponse(200, cohort) : undefined));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the cohort page', () => {
  it('says which population model drew the synthetic patients', async () => {
    renderWithProviders(
      <MemoryRouter initialEntries={[cohortPath('d-1', 'c-1')]}>
        <Routes>
          <Route path="/patient-cohort/cohorts/:cohortId" element={<CohortPage />} />
        </Routes>
      </MemoryRouter>,
    );
    expect(await screen.findByText('Synthetic patients from population model anatomy-population-2')).toBeTruthy();
  });
});
