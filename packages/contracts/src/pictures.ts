import { z } from 'zod';
import { deviceParamsSchema } from './devices';
import { endpoint } from './endpoint';
import { userParamsSchema } from './profile';
import { text } from './text';

/**
 * Pictures (profile and device; spec §5 Profile image): at most 5120 KB, JPEG or PNG judged by the
 * bytes, never by the file name or the declared type. The web checks a file before sending it with
 * the same rules; the server checks again and decodes it (only that proves it is a picture).
 */
export const pictureMaxBytes = 5120 * 1024;

/** Spec §5, word for word. */
export const pictureTooBigMessage = 'File size is too big, max. 5MB';
export const pictureTypeMessage = 'Upload one of these image types: jpg, jpeg, png';

/** The error codes of a refused picture (beside the spec's messages). */
export const pictureErrorCodes = {
  tooBig: 'picture_too_big',
  type: 'picture_type',
  /** The bytes start like a JPEG or PNG but cannot be decoded (damaged, cut off). */
  unreadable: 'picture_unreadable',
  /** Decodable but with more pixels than the server decodes. */
  tooManyPixels: 'picture_too_many_pixels',
} as const;

export const pictureFormats = ['jpeg', 'png'] as const;
export type PictureFormat = (typeof pictureFormats)[number];

/** How many leading bytes `sniffPictureFormat` needs. */
export const pictureSignatureBytes = 8;

const pngSignature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The format the bytes begin with (JPEG SOI marker or the PNG signature), or null for anything else. */
export function sniffPictureFormat(head: Uint8Array): PictureFormat | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= pngSignature.length && pngSignature.every((byte, index) => head[index] === byte)) return 'png';
  return null;
}

/**
 * The first rule a file breaks (size first, as the spec lists them), or null. `head` holds at least
 * the first `pictureSignatureBytes` bytes of the file (all of it when shorter).
 */
export function pictureProblem(bytes: number, head: Uint8Array): { code: string; message: string } | null {
  if (bytes > pictureMaxBytes) return { code: pictureErrorCodes.tooBig, message: pictureTooBigMessage };
  if (!sniffPictureFormat(head)) return { code: pictureErrorCodes.type, message: pictureTypeMessage };
  return null;
}

/** `?size=` of the picture URLs: a square thumbnail (avatars, lists) or the whole picture. */
export const pictureSizes = ['thumb', 'full'] as const;
export type PictureSize = (typeof pictureSizes)[number];
export const pictureQuerySchema = z.object({
  size: z.enum(pictureSizes).default('full'),
  /** The picture's version in its URL, so a changed picture gets a new URL (and caches stay right). */
  v: text().max(64).optional(),
});

/** Answer of the picture uploads and removals: where the picture is now (null: none). */
export const pictureSchema = z.object({ pictureUrl: text().nullable() });
export type Picture = z.infer<typeof pictureSchema>;

const profilePicturePath = '/api/me/picture';
const devicePicturePath = '/api/devices/:deviceId/picture';
const onboardingPicturePath = '/api/onboarding/picture';

/**
 * Profile, device and onboarding pictures (docs/decisions/endpoints-in-contracts.md): uploads take the file as the
 * raw body (no JSON body schema), reads answer the image itself.
 */
export const pictureEndpoints = {
  uploadProfile: endpoint({ method: 'PUT', path: profilePicturePath, response: { 200: pictureSchema } }),
  removeProfile: endpoint({ method: 'DELETE', path: profilePicturePath, response: { 200: pictureSchema } }),
  profile: endpoint({
    method: 'GET',
    path: '/api/users/:userId/picture',
    params: userParamsSchema,
    query: pictureQuerySchema,
  }),
  uploadDevice: endpoint({
    method: 'PUT',
    path: devicePicturePath,
    params: deviceParamsSchema,
    response: { 200: pictureSchema },
  }),
  removeDevice: endpoint({
    method: 'DELETE',
    path: devicePicturePath,
    params: deviceParamsSchema,
    response: { 200: pictureSchema },
  }),
  device: endpoint({ method: 'GET', path: devicePicturePath, params: deviceParamsSchema, query: pictureQuerySchema }),
  uploadNewDevice: endpoint({ method: 'PUT', path: onboardingPicturePath, response: { 200: pictureSchema } }),
  removeNewDevice: endpoint({ method: 'DELETE', path: onboardingPicturePath, response: { 200: pictureSchema } }),
  newDevice: endpoint({ method: 'GET', path: onboardingPicturePath, query: pictureQuerySchema }),
};
