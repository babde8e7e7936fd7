import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, waitFor } from '@testing-library/react';
import useSWR from 'swr';
import { jsonResponse } from '../../../test/helpers/renderWithProviders';
import { createDeviceVersion, deviceVersionUrls } from './api';

const deviceId = '00000000-0000-4000-8000-000000000001';
const version = {
  id: '00000000-0000-4000-8000-0000000000aa',
  deviceId,
  name: 'Valve Gen 3',
  description: '',
  status: 'processing',
  progress: 0,
  progressMessage: null,
  error: null,
  files: [],
  createdBy: null,
  createdAt: '2026-11-25T00:00:00.000Z',
  processedAt: null,
  projects: [],
  targetProjectId: null,
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('createDeviceVersion', () => {
  // The app keeps one SWR cache (the global one); a list held there within the 60 s dedupe window would otherwise
  // show the workspace's versions without the new one.
  it('reloads the lists of versions it adds to', async () => {
    const listKey = deviceVersionUrls.list(deviceId, { search: '', status: [], page: 1, pageSize: 10 });
    const fetchMock = vi.fn((url: string, init?: RequestInit) =>
      Promise.resolve(
        init?.method === 'POST' ? jsonResponse(201, version) : jsonResponse(200, { items: [], total: 0 }),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    const listReads = () => fetchMock.mock.calls.filter(([url]) => url === listKey).length;
    function VersionList() {
      useSWR(listKey, (url: string) => fetch(url).then((response) => response.json()), { dedupingInterval: 60_000 });
      return null;
    }
    render(<VersionList />);
    await waitFor(() => expect(listReads()).toBe(1));
    await createDeviceVersion(deviceId, { name: 'Valve Gen 3', description: '', uploadIds: ['u1'] });
    await waitFor(() => expect(listReads()).toBe(2));
  });
});
