import { randomUUID } from 'node:crypto';
import type { BlobStore, DataRegion } from '../repositories/blob.repository';
import { pictureExtensions, type ProcessedPicture } from './picture-processing';

/** Where a picture's bytes are and what they are: the columns of its `stored_files` row. */
export interface PictureFileColumns {
  region: DataRegion;
  storageKey: string;
  thumbnailKey: string;
  contentType: string;
  bytes: number;
  width: number;
  height: number;
}

/** The bytes of a stored file, wherever they are. */
export interface StoredBytes {
  region: DataRegion;
  storageKey: string;
  thumbnailKey: string | null;
}

/** The storage keys of a file: the picture and, when there is one, its thumbnail. */
export function keysOf(file: StoredBytes): string[] {
  return file.thumbnailKey ? [file.storageKey, file.thumbnailKey] : [file.storageKey];
}

/**
 * Writes a processed picture and its thumbnail to storage as `<folder>/<uuid>.<ext>` and
 * `<folder>/<uuid>-thumb.<ext>`; answers the columns of the row that records them.
 */
export async function writePictureFiles(
  blobs: BlobStore,
  region: DataRegion,
  folder: string,
  picture: ProcessedPicture,
): Promise<PictureFileColumns> {
  const name = `${folder}/${randomUUID()}`;
  const extension = pictureExtensions[picture.format];
  const storageKey = `${name}.${extension}`;
  const thumbnailKey = `${name}-thumb.${extension}`;
  await blobs.put(region, storageKey, picture.full.bytes);
  await blobs.put(region, thumbnailKey, picture.thumbnail.bytes);
  return {
    region,
    storageKey,
    thumbnailKey,
    contentType: picture.contentType,
    bytes: picture.full.bytes.length,
    width: picture.full.width,
    height: picture.full.height,
  };
}

/**
 * Copies a stored file's bytes (picture and thumbnail) to another data region under the same keys; the row and
 * the originals are the caller's to change and remove.
 */
export async function copyPictureFiles(blobs: BlobStore, file: StoredBytes, to: DataRegion): Promise<void> {
  const from = file.region;
  for (const key of keysOf(file)) {
    const bytes = await blobs.get(from, key);
    if (!bytes) throw new Error(`picture bytes missing: ${from}/${key}`);
    await blobs.put(to, key, bytes);
  }
}

/**
 * Removes the bytes of files whose rows are gone (replaced, removed, or never recorded). A failure
 * is reported, not thrown: the bytes are unreachable without their row, and an operator may clear them.
 */
export async function removePictureFiles(
  blobs: BlobStore,
  files: readonly StoredBytes[],
  log: { warn(details: object, message: string): void },
): Promise<void> {
  for (const file of files)
    for (const key of keysOf(file)) {
      try {
        await blobs.delete(file.region, key);
      } catch (error) {
        log.warn({ err: error, region: file.region, key }, 'picture bytes could not be removed');
      }
    }
}
