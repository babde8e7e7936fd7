import { sniffPictureFormat, type RoomScreenshot, type RoomScreenshotList } from '@insilico/contracts';
import type { BlobStore, DataRegion } from '../repositories/blob.repository';
import type { DeviceRepository } from '../repositories/device.repository';
import type { RoomRepository } from '../repositories/room.repository';
import type { UnitOfWork } from '../repositories/unit-of-work';
import { projectEvent } from '../events/kinds';
import { ServiceError } from './errors';
import { removePictureFiles, writePictureFiles } from './picture-files';
import { processPicture } from './picture-processing';
import type { PictureContent, UploadReader } from './picture.service';
import { toScreenshot } from './room.mapper';
import type { RoomService } from './room.service';

export interface RoomScreenshotServiceDeps {
  rooms: RoomService;
  repository: RoomRepository;
  unitOfWork: UnitOfWork;
  devices: DeviceRepository;
  blobs: BlobStore;
  log: { warn(details: object, message: string): void };
}

/**
 * The screenshot gallery of a room: PNG images of the scene, checked by their bytes and re-encoded like pictures
 * (at most 5120 KB while streaming, no metadata, ≤ 2048 px, a thumbnail), stored as `room_screenshot` files in the
 * workspace's data region (deleting the room removes them, RoomService.remove).
 */
export class RoomScreenshotService {
  constructor(private readonly deps: RoomScreenshotServiceDeps) {}

  async list(userId: string, deviceId: string, projectId: string, roomId: string): Promise<RoomScreenshotList> {
    await this.deps.rooms.require('project.read', userId, deviceId, projectId, roomId);
    const rows = await this.deps.repository.screenshots(roomId);
    return { items: rows.map((row) => toScreenshot(deviceId, projectId, row)) };
  }

  async upload(
    userId: string,
    deviceId: string,
    projectId: string,
    roomId: string,
    upload: UploadReader,
  ): Promise<RoomScreenshot> {
    await this.deps.rooms.require('project.work', userId, deviceId, projectId, roomId);
    const bytes = await upload();
    // A screenshot comes from the scene's canvas: PNG only (pictures also take JPEG).
    if (bytes.length > 0 && sniffPictureFormat(bytes) !== 'png')
      throw new ServiceError(415, 'screenshot_type', 'A screenshot must be a PNG image.');
    const picture = await processPicture(bytes);
    const region = await this.region(deviceId);
    const columns = await writePictureFiles(this.deps.blobs, region, `rooms/${roomId}`, picture);
    let created: { id: string };
    try {
      created = await this.deps.unitOfWork.run(async ({ rooms, events }) => {
        const screenshot = await rooms.insertScreenshot(
          roomId,
          { ...columns, deviceId, uploadedBy: userId, purpose: 'room_screenshot' },
          userId,
        );
        events.record({
          ...projectEvent(userId, deviceId, projectId, 'room.screenshot_added', { type: 'room', id: roomId }),
          after: { screenshotId: screenshot.id, bytes: columns.bytes, width: columns.width, height: columns.height },
        });
        return screenshot;
      });
    } catch (error) {
      await removePictureFiles(this.deps.blobs, [columns], this.deps.log);
      throw error;
    }
    const row = await this.deps.repository.screenshot(roomId, created.id);
    return toScreenshot(deviceId, projectId, row!);
  }

  async image(
    userId: string,
    deviceId: string,
    projectId: string,
    roomId: string,
    screenshotId: string,
    size: 'thumb' | 'full',
  ): Promise<PictureContent> {
    await this.deps.rooms.require('project.read', userId, deviceId, projectId, roomId);
    const row = await this.deps.repository.screenshot(roomId, screenshotId);
    const key = row ? (size === 'thumb' ? (row.file.thumbnailKey ?? row.file.storageKey) : row.file.storageKey) : null;
    const bytes = row && key ? await this.deps.blobs.get(row.file.region, key) : null;
    if (!row || !bytes)
      throw new ServiceError(404, 'screenshot_not_found', 'This screenshot does not exist in this room.');
    return { bytes, contentType: row.file.contentType, version: row.id };
  }

  private async region(deviceId: string): Promise<DataRegion> {
    const device = await this.deps.devices.findById(deviceId);
    return device?.dataRegion === 'us' ? 'us' : 'eu';
  }
}
