import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter } from 'react-router';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { DeviceVersion } from '@insilico/contracts';
import { jsonResponse, renderWithProviders } from '../../../../test/helpers/renderWithProviders';
import { DeviceVersionChooser } from './DeviceVersionChooser';

const deviceId = '00000000-0000-4000-8000-000000000001';
const versionOf = (id: string, name: string, status: DeviceVersion['status']): DeviceVersion => ({
  id,
  deviceId,
  name,
  description: '',
  status,
  progress: 1,
  progressMessage: null,
  error: status === 'failed' ? 'Something went wrong.' : null,
  files: [],
  createdBy: null,
  createdAt: '2026-11-22T00:00:00.000Z',
  processedAt: null,
  projects: [],
  targetProjectId: null,
});
const ready = versionOf('00000000-0000-4000-8000-0000000000a1', 'Frame ready', 'ready');
const failed = versionOf('00000000-0000-4000-8000-0000000000a2', 'Frame broken', 'failed');
const list = (items: DeviceVersion[]) => ({ items, total: items.length, page: 1, pageSize: 10 });
let fetchMock: ReturnType<typeof vi.fn>;
let deleted = false;

beforeEach(() => {
  deleted = false;
  fetchMock = vi.fn((url: string, init?: RequestInit) => {
    if (init?.method === 'DELETE') {
      deleted = true;
      return Promise.resolve(new Response(null, { status: 204 }));
    }
    const query = new URL(url, 'http://localhost').searchParams;
    // The list of what can be chosen (ready and processing); the chosen ones by id, whatever their status.
    if (query.get('ids')) return Promise.resolve(jsonResponse(200, list(deleted ? [ready] : [ready, failed])));
    return Promise.resolve(jsonResponse(200, list([ready])));
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('DeviceVersionChooser', () => {
  it('shows a chosen version that failed, does not count it, and lets it be unticked or deleted', async () => {
    const onChange = vi.fn();
    renderWithProviders(
      <MemoryRouter>
        <DeviceVersionChooser deviceId={deviceId} value={[ready.id, failed.id]} onChange={onChange} />
      </MemoryRouter>,
    );
    const alert = await screen.findByRole('alert', { name: 'Chosen versions that cannot join the project' });
    expect(within(alert).getByText('Frame broken')).toBeTruthy();
    expect(screen.getByText(/^1 chosen\./)).toBeTruthy();

    fireEvent.click(within(alert).getByRole('button', { name: 'Untick' }));
    expect(onChange).toHaveBeenLastCalledWith([ready.id]);

    fireEvent.click(within(alert).getByRole('button', { name: 'Delete device version Frame broken' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete device version Frame broken?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(deleted).toBe(true));
    expect(fetchMock).toHaveBeenCalledWith(
      `/api/devices/${deviceId}/device-versions/${failed.id}`,
      expect.objectContaining({ method: 'DELETE' }),
    );
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(2));
    expect(onChange).toHaveBeenLastCalledWith([ready.id]);
  });
});
