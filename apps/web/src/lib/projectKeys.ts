import { isPathOf, pathOf, projectEndpoints, roomEndpoints, simulationEndpoints } from '@insilico/contracts';

/**
 * SWR keys (and URLs) of a project's data that changes made elsewhere make stale, in one place: a room is created
 * from the population analysis and renamed, furnished and photographed on its own page, and the Rooms tab and the
 * project's figures must show it without a reload (issue 14; docs/decisions/swr-refresh-after-mutations.md).
 * Here rather than in a feature so that every feature that changes rooms can name what it makes stale.
 */
export const projectApiPath = (deviceId: string, projectId: string) =>
  pathOf(projectEndpoints.get, { deviceId, projectId });

/** `GET .../stats`: the project's figures (cohorts, versions, rooms, simulations, team). */
export const projectStatsKey = (deviceId: string, projectId: string) =>
  pathOf(projectEndpoints.stats, { deviceId, projectId });

/** The project's rooms; each list page adds its filters as a query. */
export const roomsPath = (deviceId: string, projectId: string) => pathOf(roomEndpoints.list, { deviceId, projectId });

type KeyFilter = (key: unknown) => boolean;

/** Every page and filter of the project's room list. */
export const isRoomListKey =
  (deviceId: string, projectId: string): KeyFilter =>
  (key) =>
    typeof key === 'string' && key.startsWith(`${roomsPath(deviceId, projectId)}?`);

/**
 * Every page of every simulation list of the project: the project's (`…/simulations?…`) and each room's
 * (`…/rooms/<id>/simulations?…`).
 */
export const isSimulationListKey =
  (deviceId: string, projectId: string): KeyFilter =>
  (key) => {
    if (typeof key !== 'string') return false;
    return (
      key.startsWith(`${pathOf(simulationEndpoints.list, { deviceId, projectId })}?`) ||
      (key.startsWith(`${roomsPath(deviceId, projectId)}/`) && isPathOf(simulationEndpoints.roomList, key))
    );
  };

/**
 * What a change of one of the project's rooms (created, renamed, deleted, shared, placements saved, screenshot
 * taken) or of its simulations (started, renamed, cancelled, retried, deleted) makes stale: the room list (names,
 * counts, latest screenshot, sharing, "has a simulation"), the simulation lists (their room names, a deleted room's
 * runs) and the project's figures. The scene being edited is not among them: it is updated from the answer, never
 * refetched under the user's edits.
 */
export const isRoomsChangedKey =
  (deviceId: string, projectId: string): KeyFilter =>
  (key) =>
    isRoomListKey(deviceId, projectId)(key) ||
    isSimulationListKey(deviceId, projectId)(key) ||
    key === projectStatsKey(deviceId, projectId);
