import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import {
  roomPageSchema,
  roomSceneSchema,
  roomSchema,
  roomScreenshotListSchema,
  roomScreenshotSchema,
  roomShareListSchema,
  type CreateRoom,
  type Room,
  type RoomListQuery,
  type RoomPage,
  type RoomScene,
  type RoomScreenshot,
  type RoomScreenshotList,
  type RoomShareList,
  type SaveRoomScene,
} from '@insilico/contracts';
import { apiFetch } from '../../lib/api';
import { trackAfter } from '../../lib/analytics';
import { isRoomsChangedKey, roomsPath } from '../../lib/projectKeys';
import type { ApiError } from '../../lib/apiError';

/** URLs of the room API of one project. */
export const roomUrls = {
  list: roomsPath,
  page: (deviceId: string, projectId: string, query: RoomListQuery) => {
    const params = new URLSearchParams({
      search: query.search,
      subject: query.subject,
      hasSimulation: query.hasSimulation,
      page: String(query.page),
      pageSize: String(query.pageSize),
    });
    if (query.cohortId) params.set('cohortId', query.cohortId);
    if (query.patientId) params.set('patientId', query.patientId);
    if (query.ssmId) params.set('ssmId', query.ssmId);
    return `${roomUrls.list(deviceId, projectId)}?${params.toString()}`;
  },
  one: (deviceId: string, projectId: string, roomId: string) => `${roomUrls.list(deviceId, projectId)}/${roomId}`,
  shares: (deviceId: string, projectId: string, roomId: string) =>
    `${roomUrls.one(deviceId, projectId, roomId)}/shares`,
  scene: (deviceId: string, projectId: string, roomId: string) => `${roomUrls.one(deviceId, projectId, roomId)}/scene`,
  screenshots: (deviceId: string, projectId: string, roomId: string) =>
    `${roomUrls.one(deviceId, projectId, roomId)}/screenshots`,
};

/** The web page of a room's scene. */
export function roomScenePath(projectId: string, roomId: string): string {
  return `/projects/room?project=${projectId}&room=${roomId}`;
}

/**
 * Revalidates what a change of the project's rooms makes stale (lists, figures); with the changed room (a rename's
 * answer), its cached scene takes it too: the scene is never refetched by itself (`useRoomScene`), so a room renamed
 * on the tab would open under its old name. Await it where the next screen shows them.
 */
export function useRefreshRooms() {
  const { mutate } = useSWRConfig();
  return useCallback(
    async (deviceId: string, projectId: string, changed?: Room) => {
      if (changed)
        await mutate<RoomScene>(
          roomUrls.scene(deviceId, projectId, changed.id),
          (current) => (current ? { ...current, room: changed } : current),
          { revalidate: false },
        );
      await mutate(isRoomsChangedKey(deviceId, projectId));
    },
    [mutate],
  );
}

export function useRooms(deviceId: string | null, projectId: string | null, query: RoomListQuery) {
  return useSWR<RoomPage, ApiError>(
    deviceId && projectId ? roomUrls.page(deviceId, projectId, query) : null,
    (url: string) => apiFetch(url, { schema: roomPageSchema }),
    { keepPreviousData: true },
  );
}

export function useRoomScene(deviceId: string | null, projectId: string | null, roomId: string | null) {
  return useSWR<RoomScene, ApiError>(
    deviceId && projectId && roomId ? roomUrls.scene(deviceId, projectId, roomId) : null,
    (url: string) => apiFetch(url, { schema: roomSceneSchema }),
    // The scene is edited here: a background refresh must never replace unsaved placements.
    { revalidateIfStale: false, revalidateOnReconnect: false },
  );
}

export function useRoomScreenshots(deviceId: string | null, projectId: string | null, roomId: string | null) {
  return useSWR<RoomScreenshotList, ApiError>(
    deviceId && projectId && roomId ? roomUrls.screenshots(deviceId, projectId, roomId) : null,
    (url: string) => apiFetch(url, { schema: roomScreenshotListSchema }),
  );
}

export function useRoomShares(deviceId: string, projectId: string, roomId: string | null) {
  return useSWR<RoomShareList, ApiError>(roomId ? roomUrls.shares(deviceId, projectId, roomId) : null, (url: string) =>
    apiFetch(url, { schema: roomShareListSchema }),
  );
}

/** A room on a patient of the project's cohorts, or on one of its SSMs (spec §2). */
export function createRoom(deviceId: string, projectId: string, body: CreateRoom): Promise<Room> {
  return apiFetch(roomUrls.list(deviceId, projectId), { method: 'POST', body, schema: roomSchema }).then(
    trackAfter('room created', (room) => ({ projectId, roomId: room.id })),
  );
}

export function renameRoom(deviceId: string, projectId: string, roomId: string, name: string): Promise<Room> {
  return apiFetch(roomUrls.one(deviceId, projectId, roomId), { method: 'PATCH', body: { name }, schema: roomSchema });
}

export function deleteRoom(deviceId: string, projectId: string, roomId: string): Promise<void> {
  return apiFetch(roomUrls.one(deviceId, projectId, roomId), { method: 'DELETE' });
}

export function shareRoom(deviceId: string, projectId: string, roomId: string, userIds: string[]) {
  return apiFetch(roomUrls.shares(deviceId, projectId, roomId), {
    method: 'POST',
    body: { userIds },
    schema: roomShareListSchema,
  });
}

export function saveRoomScene(
  deviceId: string,
  projectId: string,
  roomId: string,
  scene: SaveRoomScene,
): Promise<RoomScene> {
  return apiFetch(roomUrls.scene(deviceId, projectId, roomId), { method: 'PUT', body: scene, schema: roomSceneSchema });
}

export function uploadScreenshot(
  deviceId: string,
  projectId: string,
  roomId: string,
  png: Blob,
): Promise<RoomScreenshot> {
  return apiFetch(roomUrls.screenshots(deviceId, projectId, roomId), {
    method: 'POST',
    file: png,
    schema: roomScreenshotSchema,
  });
}
