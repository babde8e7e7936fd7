import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import useSWR from 'swr';
import type { Room } from '@insilico/contracts';
import { useRefreshRooms } from './api';
import { TestProviders } from '../../../test/helpers/renderWithProviders';
import { isRoomsChangedKey, projectStatsKey, roomsPath } from '../../lib/projectKeys';

afterEach(cleanup);

const list = `${roomsPath('d-1', 'p-1')}?search=&page=1`;
const stats = projectStatsKey('d-1', 'p-1');
const scene = `${roomsPath('d-1', 'p-1')}/r-1/scene`;
const otherProject = `${roomsPath('d-1', 'p-2')}?search=&page=1`;

describe('what a change of rooms makes stale', () => {
  it('names every page of the room list and the project’s figures, not the scene being edited', () => {
    const stale = isRoomsChangedKey('d-1', 'p-1');
    expect([list, stats, scene, otherProject, roomsPath('d-1', 'p-1')].map(stale)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('asks the server again for the room list and the figures, even within the deduping interval', async () => {
    const fetcher = vi.fn((key: string) => Promise.resolve(key));
    const { result } = renderHook(
      () => {
        useSWR(list, fetcher);
        useSWR(stats, fetcher);
        useSWR(scene, fetcher);
        return useRefreshRooms();
      },
      { wrapper: TestProviders },
    );
    await waitFor(() => expect(fetcher).toHaveBeenCalledTimes(3));
    await act(() => result.current('d-1', 'p-1'));
    await waitFor(() => expect(fetcher).toHaveBeenCalledTimes(5));
    expect(
      fetcher.mock.calls
        .map(([key]) => key)
        .slice(3)
        .sort(),
    ).toEqual([list, stats].sort());
  });

  it('gives a renamed room’s cached scene the new name without asking for the scene again', async () => {
    const fetcher = vi.fn(() => Promise.resolve({ room: { id: 'r-1', name: 'Old' }, placements: [] }));
    const { result } = renderHook(
      () => ({ scene: useSWR(scene, fetcher, { revalidateIfStale: false }), refresh: useRefreshRooms() }),
      { wrapper: TestProviders },
    );
    await waitFor(() => expect(result.current.scene.data?.room.name).toBe('Old'));
    await act(() => result.current.refresh('d-1', 'p-1', { id: 'r-1', name: 'New' } as Room));
    expect(result.current.scene.data?.room.name).toBe('New');
    expect(fetcher).toHaveBeenCalledTimes(1);
  });
});
