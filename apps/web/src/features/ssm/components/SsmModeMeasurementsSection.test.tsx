import { fireEvent, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SsmModeMeasurements } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { changePerSd, SsmModeMeasurementsSection } from './SsmModeMeasurementsSection';

const fetchMock = vi.fn<typeof fetch>();
const deviations = [-3, -2, -1, 0, 1, 2, 3];
const cells = (values: (number | null)[]) =>
  values.map((value) => ({ value, failure: value === null ? 'The plane misses the organ.' : null }));
const table: SsmModeMeasurements = {
  phase: 'end-diastole',
  set: { key: 'scct-tavi', version: 1, name: 'TAVI planning (SCCT consensus)' },
  deviations,
  measurements: [
    { key: 'annulus-area', name: 'Aortic annulus area', unit: 'mm²' },
    { key: 'stj-height', name: 'Sinotubular junction height', unit: 'mm' },
  ],
  modes: [
    {
      mode: 1,
      explained: 0.62,
      rows: [cells([400, 420, 440, 460, 480, 500, 520]), cells([18, 19, 20, 21, 22, 23, 24])],
    },
    {
      mode: 2,
      explained: 0.21,
      rows: [cells([470, 467, 463, 460, 457, 453, 450]), cells([null, 20, 20.5, 21, 21.5, 22, 22.5])],
    },
  ],
};

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

describe('changePerSd', () => {
  it('is half the difference between +1 SD and −1 SD, none where either failed', () => {
    expect(changePerSd(table.modes[0]!.rows[0]!, deviations)).toBe(20);
    expect(changePerSd(cells([1, 2, null, 4, 5, 6, 7]), deviations)).toBeNull();
  });
});

describe('measurements along the modes', () => {
  it('shows one mode at a time with the change per SD, failures as a dash with their reason', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, table));
    renderWithProviders(
      <MemoryRouter>
        <SsmModeMeasurementsSection deviceId="d-1" projectId="p-1" ssmId="s-1" />
      </MemoryRouter>,
    );
    const first = await screen.findByRole('table', { name: 'Measurements along mode 1' });
    const area = within(first).getByRole('row', { name: /Aortic annulus area/ });
    expect(area.textContent).toContain('400.0');
    expect(area.textContent).toContain('+20.00');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Mode' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Mode 2 (21.0 %)' }));
    const second = await screen.findByRole('table', { name: 'Measurements along mode 2' });
    const height = within(second).getByRole('row', { name: /Sinotubular junction height/ });
    expect(within(height).getByTitle('The plane misses the organ.').textContent).toBe('–');
    expect(within(second).getByRole('row', { name: /Aortic annulus area/ }).textContent).toContain('−3.00');
    expect(fetchMock.mock.calls[0]![0]).toBe('/api/devices/d-1/projects/p-1/ssms/s-1/mode-measurements');
  });

  it('says why when the shapes cannot be measured', async () => {
    const message =
      'The SSM Old was built before its landmarks moved with its modes, so its shapes cannot be measured.';
    fetchMock.mockResolvedValue(jsonResponse(409, { error: { code: 'ssm_landmarks_fixed', message } }));
    renderWithProviders(
      <MemoryRouter>
        <SsmModeMeasurementsSection deviceId="d-1" projectId="p-1" ssmId="s-1" />
      </MemoryRouter>,
    );
    expect((await screen.findByRole('alert')).textContent).toContain(message);
  });
});
