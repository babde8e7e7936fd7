import type { ByteSource } from './types';

/** A source over bytes already in memory. */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    read: (offset, length) => Promise.resolve(bytes.subarray(offset, offset + length)),
  };
}

/** The part of Blob (and File) this package needs; structural so that packages stay free of DOM types. */
export interface BlobLike {
  readonly size: number;
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** A source over a Blob or File: only the ranges asked for are read, so a large file is never loaded whole. */
export function blobSource(blob: BlobLike): ByteSource {
  return {
    size: blob.size,
    // The whole blob is read without a slice (the de-identification reads files whole; the profile found the slice of
    // a File costing the browser as much time as the read itself).
    read: async (offset, length) =>
      new Uint8Array(
        await (offset === 0 && length >= blob.size ? blob : blob.slice(offset, offset + length)).arrayBuffer(),
      ),
  };
}
