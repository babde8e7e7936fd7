import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import {
  pathOf,
  roomEndpoints as endpoints,
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
import { apiCall, apiFetch } from '../../lib/api';
import { trackAfter } from '../../lib/analytics';
import { isRoomsChangedKey, roomsPath } from '../../lib/projectKeys';
import type { ApiError } from '../../lib/apiError';

/** URLs of the room API of one project (SWR keys; the definitions are `roomEndpoints` of the contracts). */
export const roomUrls = {
  list: roomsPath,
  page: (deviceId: string, projectId: string, query: RoomListQuery) =>
    pathOf(
      endpoints.list,
      { deviceId, projectId },
      {
        search: query.search,
        subject: query.subject,
        hasSimulation: query.hasSimulation,
        page: query.page,
        pageSize: query.pageSize,
        cohortId: query.cohortId || undefined,
        patientId: query.patientId || undefined,
        ssmId: query.ssmId || undefined,
      },
    ),
  one: (deviceId: string, projectId: string, roomId: string) => pathOf(endpoints.get, { deviceId, projectId, roomId }),
  shares: (deviceId: string, projectId: string, roomId: string) =>
    pathOf(endpoints.shares, { deviceId, projectId, roomId }),
  scene: (deviceId: string, projectId: string, roomId: string) =>
    pathOf(endpoints.scene, { deviceId, projectId, roomId }),
  screenshots: (deviceId: string, projectId: string, roomId: string) =>
    pathOf(endpoints.screenshots, { deviceId, projectId, roomId }),
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
  return apiCall(endpoints.create, { deviceId, projectId }, { body, schema: roomSchema }).then(
    trackAfter('room created', (room) => ({ projectId, roomId: room.id })),
  );
}

export function renameRoom(deviceId: string, projectId: string, roomId: string, name: string): Promise<Room> {
  return apiCall(endpoints.rename, { deviceId, projectId, roomId }, { body: { name }, schema: roomSchema });
}

export function deleteRoom(deviceId: string, projectId: string, roomId: string): Promise<void> {
  return apiCall(endpoints.remove, { deviceId, projectId, roomId });
}

export function shareRoom(deviceId: string, projectId: string, roomId: string, userIds: string[]) {
  return apiCall(endpoints.share, { deviceId, projectId, roomId }, { body: { userIds }, schema: roomShareListSchema });
}

export function saveRoomScene(
  deviceId: string,
  projectId: string,
  roomId: string,
  scene: SaveRoomScene,
): Promise<RoomScene> {
  return apiCall(endpoints.saveScene, { deviceId, projectId, roomId }, { body: scene, schema: roomSceneSchema });
}

export function uploadScreenshot(
  deviceId: string,
  projectId: string,
  roomId: string,
  png: Blob,
): Promise<RoomScreenshot> {
  return apiCall(endpoints.addScreenshot, { deviceId, projectId, roomId }, { file: png, schema: roomScreenshotSchema });
}
