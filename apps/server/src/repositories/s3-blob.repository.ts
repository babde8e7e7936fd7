import { createWriteStream } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  assertBlobKey,
  BlobLimitError,
  type BlobStore,
  type DataRegion,
  type DirectUploads,
  type LocalFile,
  type StoredBlob,
  type StoredPart,
} from './blob.repository';
import { BlobCache } from './blob-cache';
import type { S3Bucket, StorageConfig } from '../config';

export type S3StoreOptions = Extract<StorageConfig, { driver: 's3' }> & {
  /** Where remote files are copied for work that reads a file on disk (`localFile`), within `cacheMaxBytes`. */
  cacheDir: string;
};

/** The origins browsers send direct uploads to (the Content-Security-Policy's connect-src must allow them). */
export function storageOrigins(storage: StorageConfig): string[] {
  if (storage.driver !== 's3') return [];
  const originOf = ({ bucket, endpoint, region }: S3Bucket) => {
    if (!endpoint) return `https://${bucket}.s3.${region}.amazonaws.com`;
    const url = new URL(endpoint);
    return storage.forcePathStyle ? url.origin : `${url.protocol}//${bucket}.${url.host}`;
  };
  return [...new Set([originOf(storage.buckets.eu), originOf(storage.buckets.us)])];
}

/**
 * Bytes buffered before one segment of a resumable (tus) upload is stored: a PATCH body becomes segments of this
 * size, so a dropped connection keeps all but the last partial segment, which is stored as it stands.
 */
const segmentBytes = 8 * 1024 * 1024;
/** S3's smallest multipart part (all but the last). */
const minPartBytes = 5 * 1024 * 1024;

const segmentPrefix = (key: string) => `${key}.tus/`;
const segmentKey = (key: string, start: number) => `${segmentPrefix(key)}${String(start).padStart(16, '0')}`;

/**
 * The blob store on S3-compatible object storage (docs/decisions/object-storage.md): one bucket per data region.
 * Whole files are single objects (PUT is atomic: a reader never sees half of one). A resumable upload written by
 * tus PATCHes is kept as segments named by their first byte's offset until its last byte arrives, then assembled
 * into the object by one multipart upload and the segments removed; segments at or beyond the offset a writer
 * starts from are a crashed writer's leftovers and are dropped, like the filesystem store's cut. Browsers may also
 * upload straight into the bucket by presigned multipart part addresses (`direct`).
 */
export class S3BlobStore implements BlobStore {
  private readonly clients: Record<DataRegion, S3Client>;
  private readonly cache: BlobCache;
  readonly direct: DirectUploads;

  constructor(private readonly options: S3StoreOptions) {
    const client = (bucket: S3Bucket) =>
      new S3Client({
        region: bucket.region,
        ...(bucket.endpoint ? { endpoint: bucket.endpoint } : {}),
        forcePathStyle: options.forcePathStyle,
        ...(options.credentials ? { credentials: options.credentials } : {}),
        // No checksum the browser cannot send with a presigned part, and none some S3-compatible servers refuse.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
    this.clients = { eu: client(options.buckets.eu), us: client(options.buckets.us) };
    this.direct = new S3DirectUploads(this);
    this.cache = new BlobCache({ dir: options.cacheDir, maxBytes: options.cacheMaxBytes });
  }

  /** The client and bucket of a region, with the key checked. */
  at(region: DataRegion, key: string): { client: S3Client; bucket: string } {
    assertBlobKey(key);
    return { client: this.clients[region], bucket: this.options.buckets[region].bucket };
  }

  get presignSeconds(): number {
    return this.options.presignSeconds;
  }

  async put(region: DataRegion, key: string, bytes: Uint8Array): Promise<void> {
    const { client, bucket } = this.at(region, key);
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes, ContentLength: bytes.length }));
  }

  async get(region: DataRegion, key: string): Promise<Buffer | null> {
    const { client, bucket } = this.at(region, key);
    try {
      const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await answer.Body!.transformToByteArray());
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async open(region: DataRegion, key: string): Promise<{ stream: Readable; bytes: number } | null> {
    const { client, bucket } = this.at(region, key);
    try {
      const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return { stream: answer.Body as Readable, bytes: answer.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  /**
   * A copy on this machine's disk under the cache folder, fetched again when the object's ETag changed (a key is
   * written once in this product; the check keeps a rewritten one right).
   */
  async localFile(region: DataRegion, key: string): Promise<LocalFile | null> {
    const { client, bucket } = this.at(region, key);
    let version: { etag: string; bytes: number };
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      version = { etag: head.ETag ?? '', bytes: head.ContentLength ?? 0 };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      return await this.cache.acquire(region, key, version, async (temporary) => {
        // A key is written once in this product; the cache checks the copy's size against the HEAD's.
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        await pipeline(answer.Body as Readable, createWriteStream(temporary));
      });
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(region: DataRegion, key: string): Promise<void> {
    const { client, bucket } = this.at(region, key);
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    await this.deleteSegments(region, key, 0);
    await this.cache.remove(region, key);
  }

  /** A copy inside the bucket (up to 5 GB, S3's limit for one copy), then the old key removed. */
  async move(region: DataRegion, from: string, to: string): Promise<void> {
    const { client, bucket } = this.at(region, from);
    assertBlobKey(to);
    const source = `${bucket}/${from.split('/').map(encodeURIComponent).join('/')}`;
    await client.send(new CopyObjectCommand({ Bucket: bucket, Key: to, CopySource: source }));
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: from }));
  }

  async *list(region: DataRegion, prefix: string): AsyncIterable<StoredBlob> {
    const { client, bucket } = this.at(region, prefix.replace(/\/$/, ''));
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? [])
        yield { key: object.Key!, bytes: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date() };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async putFrom(region: DataRegion, key: string, source: AsyncIterable<Uint8Array>, maxBytes: number): Promise<number> {
    const { client, bucket } = this.at(region, key);
    let written = 0;
    const counted = Readable.from(
      (async function* () {
        for await (const chunk of source) {
          written += chunk.length;
          if (written > maxBytes) throw new BlobLimitError(maxBytes);
          yield chunk;
        }
      })(),
    );
    await this.multipartFrom(client, bucket, key, counted);
    return written;
  }

  async writeFrom(
    region: DataRegion,
    key: string,
    offset: number,
    source: AsyncIterable<Uint8Array>,
    maxBytes: number,
  ): Promise<{ written: number; ended: boolean }> {
    const { client, bucket } = this.at(region, key);
    const kept = await this.deleteSegments(region, key, offset);
    // A segment reaching beyond the offset is cut back to it (bytes the database never counted).
    const last = kept.at(-1);
    if (last && last.start + last.bytes > offset) {
      const answer = await client.send(
        new GetObjectCommand({ Bucket: bucket, Key: last.key, Range: `bytes=0-${offset - last.start - 1}` }),
      );
      const head = await answer.Body!.transformToByteArray();
      await client.send(
        new PutObjectCommand({ Bucket: bucket, Key: last.key, Body: head, ContentLength: head.length }),
      );
      last.bytes = head.length;
    }
    const held = kept.reduce((sum, segment) => sum + segment.bytes, 0);
    if (held !== offset) throw new Error(`The stored segments of ${key} hold ${held} bytes, not ${offset}.`);
    let written = 0;
    let ended = true;
    let buffer: Uint8Array[] = [];
    let buffered = 0;
    const flush = async () => {
      if (buffered === 0) return;
      const body = Buffer.concat(buffer, buffered);
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: segmentKey(key, offset + written),
          Body: body,
          ContentLength: body.length,
        }),
      );
      written += buffered;
      buffer = [];
      buffered = 0;
    };
    // Set while our own write runs: its failure is storage's fault and must not pass for a dropped client.
    let writing = false;
    try {
      for await (const chunk of source) {
        if (written + buffered + chunk.length > maxBytes) throw new BlobLimitError(maxBytes);
        buffer.push(chunk);
        buffered += chunk.length;
        if (buffered >= segmentBytes) {
          writing = true;
          await flush();
          writing = false;
        }
      }
    } catch (error) {
      if (error instanceof BlobLimitError) {
        await this.deleteSegments(region, key, offset);
        throw error;
      }
      if (writing) throw error;
      ended = false;
    }
    await flush();
    // The room is filled: the file is complete, assembled from its segments into one object.
    if (written === maxBytes && offset + written > 0) await this.assemble(region, key);
    return { written, ended };
  }

  /** The segments of a resumable upload, in order, after removing those that start at or beyond `from`. */
  private async deleteSegments(
    region: DataRegion,
    key: string,
    from: number,
  ): Promise<{ key: string; start: number; bytes: number }[]> {
    const { client, bucket } = this.at(region, key);
    const segments: { key: string; start: number; bytes: number }[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: bucket, Prefix: segmentPrefix(key), ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const start = Number(object.Key!.slice(segmentPrefix(key).length));
        segments.push({ key: object.Key!, start, bytes: object.Size ?? 0 });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    segments.sort((a, b) => a.start - b.start);
    const dropped = segments.filter((segment) => segment.start >= from);
    for (let i = 0; i < dropped.length; i += 1000) {
      await client.send(
        new DeleteObjectsCommand({
          Bucket: bucket,
          Delete: { Objects: dropped.slice(i, i + 1000).map((segment) => ({ Key: segment.key })), Quiet: true },
        }),
      );
    }
    return segments.filter((segment) => segment.start < from);
  }

  /** The segments streamed one after another into the object (one multipart upload), then removed. */
  private async assemble(region: DataRegion, key: string): Promise<void> {
    const { client, bucket } = this.at(region, key);
    const segments = await this.deleteSegments(region, key, Number.MAX_SAFE_INTEGER);
    const joined = new PassThrough();
    const feeding = (async () => {
      for (const segment of segments) {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: segment.key }));
        await pipeline(answer.Body as Readable, joined, { end: false });
      }
      joined.end();
    })();
    feeding.catch((error: unknown) => joined.destroy(error as Error));
    await Promise.all([this.multipartFrom(client, bucket, key, joined), feeding]);
    await this.deleteSegments(region, key, 0);
  }

  /** A stream of unknown length into one object: parts of at least 8 MiB, then completed (or aborted on failure). */
  private async multipartFrom(client: S3Client, bucket: string, key: string, source: Readable): Promise<void> {
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
    const parts: { PartNumber: number; ETag: string }[] = [];
    try {
      let buffer: Buffer[] = [];
      let buffered = 0;
      const send = async () => {
        const body = Buffer.concat(buffer, buffered);
        const PartNumber = parts.length + 1;
        const answer = await client.send(
          new UploadPartCommand({
            Bucket: bucket,
            Key: key,
            UploadId,
            PartNumber,
            Body: body,
            ContentLength: body.length,
          }),
        );
        parts.push({ PartNumber, ETag: answer.ETag! });
        buffer = [];
        buffered = 0;
      };
      for await (const chunk of source) {
        buffer.push(Buffer.from(chunk as Uint8Array));
        buffered += (chunk as Uint8Array).length;
        if (buffered >= Math.max(segmentBytes, minPartBytes)) await send();
      }
      if (buffered > 0 || parts.length === 0) await send();
      await client.send(
        new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId, MultipartUpload: { Parts: parts } }),
      );
    } catch (error) {
      await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId })).catch(() => undefined);
      throw error;
    }
  }
}

/** Browser uploads straight into the region's bucket: the server starts the upload, signs the parts, completes it. */
class S3DirectUploads implements DirectUploads {
  constructor(private readonly store: S3BlobStore) {}

  get presignSeconds(): number {
    return this.store.presignSeconds;
  }

  async start(region: DataRegion, key: string): Promise<string> {
    const { client, bucket } = this.store.at(region, key);
    const answer = await client.send(
      new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: 'application/octet-stream' }),
    );
    if (!answer.UploadId) throw new Error('The object storage started no multipart upload.');
    return answer.UploadId;
  }

  async partUrl(region: DataRegion, key: string, multipartId: string, partNumber: number): Promise<string> {
    const { client, bucket } = this.store.at(region, key);
    return getSignedUrl(
      client,
      new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: multipartId, PartNumber: partNumber }),
      { expiresIn: this.store.presignSeconds },
    );
  }

  async complete(region: DataRegion, key: string, multipartId: string, parts: readonly StoredPart[]): Promise<number> {
    const { client, bucket } = this.store.at(region, key);
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: key,
        UploadId: multipartId,
        MultipartUpload: { Parts: parts.map((part) => ({ PartNumber: part.partNumber, ETag: part.etag })) },
      }),
    );
    const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return head.ContentLength ?? 0;
  }

  async abort(region: DataRegion, key: string, multipartId: string): Promise<void> {
    const { client, bucket } = this.store.at(region, key);
    await client
      .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: multipartId }))
      .catch(() => undefined);
  }
}

/** A missing object or upload (404, NoSuchKey, NoSuchUpload). */
function isMissing(error: unknown): boolean {
  if (!(error instanceof S3ServiceException)) return false;
  return (
    error.$metadata.httpStatusCode === 404 ||
    error.name === 'NoSuchKey' ||
    error.name === 'NotFound' ||
    error.name === 'NoSuchUpload'
  );
}
