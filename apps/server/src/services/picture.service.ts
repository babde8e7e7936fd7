import type { Picture, PictureSize } from '@insilico/contracts';
import { maySeeDevicePicture, maySeeProfilePicture } from '../policies/picture.policy';
import { grantOf, mayCreateWorkspace, type WorkspaceGrant } from '../policies/workspace.policy';
import type { BlobStore, DataRegion } from '../repositories/blob.repository';
import type { NewStoredFile, PictureOwner, PictureRepository, StoredFileRow } from '../repositories/picture.repository';
import type { UnitOfWork } from '../repositories/unit-of-work';
import { workspaceEvent } from '../events/kinds';
import { ServiceError } from './errors';
import { copyPictureFiles, removePictureFiles, writePictureFiles, type StoredBytes } from './picture-files';
import { processPicture } from './picture-processing';
import { pictureUrls } from './picture-urls';
import { authorize } from './authorize';

/** The bytes of a picture to send, with what caches need. */
export interface PictureContent {
  bytes: Buffer;
  contentType: string;
  /** The stored file's id: it changes with every new picture (URL version and ETag). */
  version: string;
}

/** Reads the upload; called only once the caller may upload (so a refused upload is never read). */
export type UploadReader = () => Promise<Uint8Array>;

export interface PictureServiceDeps {
  files: PictureRepository;
  blobs: BlobStore;
  /** The caller's standing in a workspace (null: no membership). */
  grant: (userId: string, deviceId: string) => Promise<WorkspaceGrant | null>;
  /** Where the service reports what it survives: bytes left behind, a picture a new workspace did not get. */
  log: { warn(details: object, message: string): void };
  /** A workspace's device picture changes in a unit of work with its event (issue 20). */
  unitOfWork: UnitOfWork;
}

const noPicture = () => new ServiceError(404, 'not_found', 'There is no such picture.');
const noDevice = () => new ServiceError(404, 'not_found', 'No such device workspace.');

/**
 * Profile pictures, device pictures, and the device picture of a workspace still being created
 * (onboarding): checked and re-encoded by `processPicture`, bytes in the storage of a data region,
 * rows in `stored_files`. Who may see or change which picture is decided by the policies.
 */
export class PictureService {
  constructor(private readonly deps: PictureServiceDeps) {}

  async setProfilePicture(userId: string, upload: UploadReader): Promise<Picture> {
    const region = await this.personalRegion(userId);
    const stored = await this.store({ kind: 'user', userId }, region, 'profile_picture', userId, null, upload);
    return { pictureUrl: pictureUrls.profile(userId, stored.id) };
  }

  async removeProfilePicture(userId: string): Promise<Picture> {
    await this.remove({ kind: 'user', userId });
    return { pictureUrl: null };
  }

  /** A person's picture for a viewer allowed to see it; 404 for everyone else and when there is none. */
  async profilePicture(viewerId: string, ownerId: string, size: PictureSize): Promise<PictureContent> {
    if (viewerId !== ownerId) {
      const shared = (await this.deps.files.sharedMemberships(viewerId, ownerId)).map((row) => ({
        viewer: grantOf(row.viewer),
        owner: grantOf(row.owner),
      }));
      if (!maySeeProfilePicture(viewerId, ownerId, shared)) throw noPicture();
    }
    return this.content(await this.deps.files.current({ kind: 'user', userId: ownerId }), size);
  }

  async setDevicePicture(userId: string, deviceId: string, upload: UploadReader): Promise<Picture> {
    await this.authorizeDeviceChange(userId, deviceId);
    const region = await this.deps.files.deviceRegion(deviceId);
    if (!region) throw noDevice();
    const stored = await this.store({ kind: 'device', deviceId }, region, 'device_picture', userId, deviceId, upload);
    return { pictureUrl: pictureUrls.device(deviceId, stored.id) };
  }

  async removeDevicePicture(userId: string, deviceId: string): Promise<Picture> {
    await this.authorizeDeviceChange(userId, deviceId);
    await this.remove({ kind: 'device', deviceId }, userId);
    return { pictureUrl: null };
  }

  async devicePicture(viewerId: string, deviceId: string, size: PictureSize): Promise<PictureContent> {
    if (!maySeeDevicePicture(await this.deps.grant(viewerId, deviceId))) throw noDevice();
    return this.content(await this.deps.files.current({ kind: 'device', deviceId }), size);
  }

  /** The device picture uploaded during onboarding, before the workspace exists. */
  async setNewDevicePicture(user: { id: string; email: string }, upload: UploadReader): Promise<Picture> {
    if (!mayCreateWorkspace(user))
      throw new ServiceError(403, 'forbidden', 'You may not create a device workspace. Ask for an invitation.');
    const userId = user.id;
    const region = await this.personalRegion(userId);
    const stored = await this.store({ kind: 'new-device', userId }, region, 'device_picture', userId, null, upload);
    return { pictureUrl: pictureUrls.newDevice(stored.id) };
  }

  async removeNewDevicePicture(userId: string): Promise<Picture> {
    await this.remove({ kind: 'new-device', userId });
    return { pictureUrl: null };
  }

  async newDevicePicture(userId: string, size: PictureSize): Promise<PictureContent> {
    return this.content(await this.deps.files.current({ kind: 'new-device', userId }), size);
  }

  async newDevicePictureUrl(userId: string): Promise<string | null> {
    const current = await this.deps.files.current({ kind: 'new-device', userId });
    return current ? pictureUrls.newDevice(current.id) : null;
  }

  /**
   * Makes the onboarding picture the device picture of the workspace the user just created, moving
   * its bytes to the workspace's data region when they were kept in another. Answers the device
   * picture URL, or null when there was no picture.
   */
  async adoptNewDevicePicture(userId: string, deviceId: string): Promise<string | null> {
    try {
      return await this.adopt(userId, deviceId);
    } catch (error) {
      // The workspace exists already: it starts without a picture rather than failing its creation.
      this.deps.log.warn({ err: error, deviceId }, 'the onboarding picture could not be moved to the new workspace');
      return null;
    }
  }

  private async adopt(userId: string, deviceId: string): Promise<string | null> {
    const draft = await this.deps.files.current({ kind: 'new-device', userId });
    const region = await this.deps.files.deviceRegion(deviceId);
    if (!draft || !region) return null;
    const from = draft.region;
    if (from !== region) await copyPictureFiles(this.deps.blobs, draft, region);
    const adopted = await this.deps.files.adopt(userId, deviceId, region);
    if (!adopted) return null;
    if (from !== region) await this.cleanUp([draft]);
    return pictureUrls.device(deviceId, adopted.id);
  }

  /**
   * Moves the device picture's bytes to the workspace's data region after the region changed (allowed only
   * until the workspace holds data). Nothing happens when they are there already, so saving again completes a
   * move that failed half-way.
   */
  async moveDevicePictureToRegion(deviceId: string): Promise<void> {
    const file = await this.deps.files.current({ kind: 'device', deviceId });
    const region = await this.deps.files.deviceRegion(deviceId);
    if (!file || !region || file.region === region) return;
    await copyPictureFiles(this.deps.blobs, file, region);
    const moved = await this.deps.files.moveRegion(file.id, file.region, region);
    // Replaced or moved by someone else meanwhile: the copies are the ones nobody points to.
    await this.cleanUp([moved ? file : { ...file, region }]);
  }

  private async authorizeDeviceChange(userId: string, deviceId: string): Promise<void> {
    const grant = await this.deps.grant(userId, deviceId);
    if (!grant) throw noDevice();
    authorize('device.update', grant);
  }

  /** Profile pictures (and onboarding drafts) live in the region of the workspace the person works in. */
  private async personalRegion(userId: string): Promise<DataRegion> {
    return (await this.deps.files.selectedRegion(userId)) ?? 'eu';
  }

  /**
   * Swaps the owner's picture; a workspace's device picture is a change of the workspace, recorded with its event
   * in the same transaction (a person's own picture and an onboarding draft are not regulated records).
   */
  private async replace(owner: PictureOwner, file: NewStoredFile | null, actorId: string | null) {
    if (owner.kind !== 'device' || actorId === null) return this.deps.files.replace(owner, file);
    const { deviceId } = owner;
    return this.deps.unitOfWork.run(async (tx) => {
      const result = await tx.pictures.replace(owner, file);
      const picture = (row: StoredFileRow | null) =>
        row ? { fileId: row.id, contentType: row.contentType, bytes: row.bytes } : null;
      tx.events.record({
        ...workspaceEvent(actorId, deviceId, file ? 'device.picture_changed' : 'device.picture_removed', {
          type: 'device',
          id: deviceId,
        }),
        before: { picture: picture(result.previous) },
        after: { picture: picture(result.stored) },
      });
      return result;
    });
  }

  private async store(
    owner: PictureOwner,
    region: DataRegion,
    purpose: 'profile_picture' | 'device_picture',
    uploadedBy: string,
    deviceId: string | null,
    upload: UploadReader,
  ): Promise<StoredFileRow> {
    const files = await writePictureFiles(this.deps.blobs, region, 'pictures', await processPicture(await upload()));
    let result;
    try {
      result = await this.replace(owner, { deviceId, uploadedBy, purpose, ...files }, uploadedBy);
    } catch (error) {
      await this.cleanUp([files]);
      throw error;
    }
    if (result.previous) await this.cleanUp([result.previous]);
    return result.stored!;
  }

  private async remove(owner: PictureOwner, actorId?: string): Promise<void> {
    const { previous } = await this.replace(owner, null, actorId ?? null);
    if (previous) await this.cleanUp([previous]);
  }

  private async content(file: StoredFileRow | null, size: PictureSize): Promise<PictureContent> {
    if (!file) throw noPicture();
    const key = size === 'thumb' && file.thumbnailKey ? file.thumbnailKey : file.storageKey;
    const bytes = await this.deps.blobs.get(file.region, key);
    if (!bytes) throw noPicture();
    return { bytes, contentType: file.contentType, version: file.id };
  }

  private cleanUp(files: readonly StoredBytes[]): Promise<void> {
    return removePictureFiles(this.deps.blobs, files, this.deps.log);
  }
}
