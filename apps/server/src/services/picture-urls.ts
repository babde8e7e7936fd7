import { pathOf, pictureEndpoints } from '@insilico/contracts';

/**
 * Where pictures are served. `v` (the stored file's id) makes every new picture a new URL, so a
 * changed picture shows at once and caches may keep each version (docs/decisions/pictures.md).
 */
export const pictureUrls = {
  /** A person's picture as the avatars show it (the square thumbnail). */
  profile: (userId: string, fileId: string) =>
    pathOf(pictureEndpoints.profile, { userId }, { size: 'thumb', v: fileId }),
  device: (deviceId: string, fileId: string) => pathOf(pictureEndpoints.device, { deviceId }, { v: fileId }),
  /** The device picture uploaded during onboarding, before the workspace exists. */
  newDevice: (fileId: string) => pathOf(pictureEndpoints.newDevice, {}, { v: fileId }),
};

/** The picture URL of a user: the uploaded picture, else the issuer's `picture` claim, else null. */
export function userPictureUrl(user: {
  id: string;
  pictureFileId: string | null;
  pictureUrl: string | null;
}): string | null {
  return user.pictureFileId ? pictureUrls.profile(user.id, user.pictureFileId) : user.pictureUrl;
}
