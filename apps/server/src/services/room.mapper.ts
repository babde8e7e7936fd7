import { deviceVersionEndpoints, pathOf, roomEndpoints, type Room, type RoomScreenshot } from '@insilico/contracts';
import type { RoomListRow, ScreenshotRow } from '../repositories/room.repository';

/** The web page of a room's scene (a notification's link names the workspace, which may not be selected). */
export function roomPagePath(deviceId: string, projectId: string, roomId: string): string {
  return `/projects/room?project=${projectId}&room=${roomId}&device=${deviceId}`;
}

/** A device version's model file, served by the device-version API. */
export function modelUrl(deviceId: string, versionId: string, fileId: string): string {
  return pathOf(deviceVersionEndpoints.model, { deviceId, versionId, fileId });
}

export function toScreenshot(deviceId: string, projectId: string, row: ScreenshotRow): RoomScreenshot {
  // Answers carry URLs, never storage keys.
  const params = { deviceId, projectId, roomId: row.roomId, screenshotId: row.id };
  return {
    id: row.id,
    // The id names the bytes for good (a screenshot never changes), so the URL may be cached forever.
    url: pathOf(roomEndpoints.screenshotImage, params, { v: row.id }),
    thumbnailUrl: pathOf(roomEndpoints.screenshotImage, params, { size: 'thumb', v: row.id }),
    width: row.file.width ?? 0,
    height: row.file.height ?? 0,
    createdBy: row.createdBy ? { id: row.createdBy, name: row.createdByName ?? '' } : null,
    createdAt: row.createdAt.toISOString(),
  };
}

export interface RoomExtras {
  placementCount: number;
  /** Whether the room has a simulation (any state): the Rooms tab's "has a simulation" filter. */
  hasSimulation: boolean;
  screenshots: { latest: ScreenshotRow; count: number } | undefined;
  sharedWith: { id: string; name: string }[];
}

/** What the room shows: a virtual patient, an SSM, or a patient of an imaging cohort (the user's own data). */
function subjectOf(row: RoomListRow): Room['subject'] {
  const { room } = row;
  if (room.cohortId !== null)
    return {
      kind: 'patient',
      cohortId: room.cohortId,
      cohortName: row.cohortName ?? '',
      patientId: row.patientId ?? '',
    };
  if (room.imagingDatasetId !== null)
    return {
      kind: 'imaging',
      datasetId: room.imagingDatasetId,
      datasetName: row.imagingDatasetName ?? '',
      patientId: room.imagingPatient ?? '',
    };
  return { kind: 'ssm', ssmId: room.ssmId ?? '' };
}

export function toRoom(deviceId: string, row: RoomListRow, extras: RoomExtras): Room {
  const { room } = row;
  return {
    id: room.id,
    projectId: room.projectId,
    name: room.name,
    subject: subjectOf(row),
    hasSimulation: extras.hasSimulation,
    placementCount: extras.placementCount,
    screenshotCount: extras.screenshots?.count ?? 0,
    latestScreenshot: extras.screenshots ? toScreenshot(deviceId, room.projectId, extras.screenshots.latest) : null,
    sharedWith: extras.sharedWith,
    createdBy: room.createdBy ? { id: room.createdBy, name: row.createdByName ?? '' } : null,
    createdAt: room.createdAt.toISOString(),
    updatedAt: room.updatedAt.toISOString(),
  };
}
