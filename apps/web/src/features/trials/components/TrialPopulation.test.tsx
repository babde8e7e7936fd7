import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TrialDetail, TrialOutcomeColumns } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { TrialPopulation } from './TrialPopulation';

afterEach(() => vi.restoreAllMocks());

const trialId = '00000000-0000-4000-8000-000000000001';
const ssmId = '00000000-0000-4000-8000-0000000000aa';
const trial = {
  id: trialId,
  projectId: 'p-1',
  ssm: { id: ssmId, name: 'Roots SSM' },
  counts: { total: 3, done: 3, failed: 0, running: 0, queued: 0, cancelled: 0 },
  acceptance: { pressure_drop: { min: null, max: 12 } },
  outcomes: [{ key: 'pressure_drop', label: 'Pressure drop', unit: 'mmHg', description: '' }],
  patients: [
    { patientId: 'room-a', roomId: 'trial-room-a', outcomeVersions: {} },
    { patientId: 'room-b', roomId: 'trial-room-b', outcomeVersions: {} },
    { patientId: 'room-c', roomId: null, outcomeVersions: {} },
  ],
} as unknown as TrialDetail;

const columns: TrialOutcomeColumns = {
  trialId,
  trialName: 'Shapes',
  cohortId: null,
  ids: ['room-a', 'room-b', 'room-c'],
  outcomes: [{ key: 'pressure_drop', label: 'Pressure drop', unit: 'mmHg', description: '', parameter: 'x' }],
  values: [[10, 16, 9]],
  runs: [null, null, null],
  instances: {
    ssm: { id: ssmId, name: 'Roots SSM', modeCount: 9 },
    modes: [1, 2],
    instances: [
      { id: 'room-a', name: 'A', shape: '0,1', modeScores: [0, 1] },
      { id: 'room-b', name: 'B', shape: '2', modeScores: [2, 0] },
      { id: 'room-c', name: 'C', shape: '-1', modeScores: [-1, 0] },
    ],
    outcomes: [
      {
        key: 'pressure_drop',
        missing: 0,
        summary: { n: 3, mean: 35 / 3, sd: 3.786, min: 9, q1: 9.5, median: 10, q3: 13, max: 16 },
        lowest: { id: 'room-c', value: 9 },
        highest: { id: 'room-b', value: 16 },
        pass: { count: 2, n: 3 },
        modeCorrelations: [0.9798637, -0.3812464],
      },
    ],
  },
};

describe('TrialPopulation', () => {
  it('shows the instances’ mode scores and the outcome over them, and says what does not apply to shapes', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(jsonResponse(200, columns));
    renderWithProviders(
      <MemoryRouter>
        <TrialPopulation deviceId="d-1" trial={trial} />
      </MemoryRouter>,
    );
    const scores = await screen.findByRole('table', { name: 'Mode scores of the instances' });
    expect(fetch.mock.calls[0]![0]).toBe(`/api/devices/d-1/projects/p-1/trials/${trialId}/outcomes`);
    expect(
      within(scores)
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual(['InstanceMode 1 (SD)Mode 2 (SD)', 'A01', 'B20', 'C-10']);
    const row = screen.getByTestId('population-pressure_drop');
    const cells = within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    // Values with three significant digits, as the trial's table writes them (outcomeText).
    expect(cells).toEqual([
      'Pressure drop (mmHg)',
      '3',
      '11.7',
      '3.79',
      '9.00',
      '10.0',
      '16.0',
      'C (9.00)',
      'B (16.0)',
      '2 of 3',
      '0.98',
      '-0.38',
    ]);
    // The highest instance links to its room in the trial; the lowest has none (no room made).
    expect(within(row).getByRole('link', { name: 'B' }).getAttribute('href')).toBe(
      '/projects/room?project=p-1&room=trial-room-b&device=d-1',
    );
    expect(within(row).queryByRole('link', { name: 'C' })).toBeNull();
    expect(screen.getByText(/no outliers, no representativeness and no\s+population intervals/)).toBeTruthy();
    expect(screen.getByText(/Synthetic shapes from the statistical shape model/).textContent).toContain('Roots SSM');
  });

  it('says when the server cannot give it', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      jsonResponse(409, { error: { code: 'ssm_not_ready', message: 'The shape model of this trial cannot be read.' } }),
    );
    renderWithProviders(
      <MemoryRouter>
        <TrialPopulation deviceId="d-1" trial={trial} />
      </MemoryRouter>,
    );
    expect(await screen.findByText(/The shape model of this trial cannot be read\./)).toBeTruthy();
  });
});
