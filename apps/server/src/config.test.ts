import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';
import { storageOrigins } from './repositories/s3-blob.repository';

const s3 = {
  STORAGE_DRIVER: 's3',
  S3_EU_BUCKET: 'files-eu',
  S3_US_BUCKET: 'files-us',
};

describe('storage configuration', () => {
  it('is the filesystem by default, with no other origin for uploads', () => {
    const config = loadConfig({});
    expect(config.storage).toEqual({ driver: 'filesystem' });
    expect(storageOrigins(config.storage)).toEqual([]);
  });

  it('names a bucket per data region on AWS, with the SDK’s own credentials when none are given', () => {
    const { storage } = loadConfig({ ...s3, S3_US_REGION: 'us-west-2' });
    expect(storage).toEqual({
      driver: 's3',
      buckets: {
        eu: { bucket: 'files-eu', region: 'eu-central-1', endpoint: null },
        us: { bucket: 'files-us', region: 'us-west-2', endpoint: null },
      },
      credentials: null,
      forcePathStyle: false,
      presignSeconds: 3600,
      cacheMaxBytes: 10 * 1024 ** 3,
    });
    expect(storageOrigins(storage)).toEqual([
      'https://files-eu.s3.eu-central-1.amazonaws.com',
      'https://files-us.s3.us-west-2.amazonaws.com',
    ]);
  });

  it('takes one endpoint for both regions or one each, and path-style addresses for MinIO', () => {
    const { storage } = loadConfig({
      ...s3,
      S3_ENDPOINT: 'http://minio:9000',
      S3_US_ENDPOINT: 'https://us.storage.example.com',
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      STORAGE_CACHE_MAX_MB: '512',
    });
    expect(storage.driver === 's3' && storage.cacheMaxBytes).toBe(512 * 1024 * 1024);
    expect(storage.driver === 's3' && storage.buckets.eu.endpoint).toBe('http://minio:9000');
    expect(storage.driver === 's3' && storage.buckets.us.endpoint).toBe('https://us.storage.example.com');
    expect(storage.driver === 's3' && storage.credentials).toEqual({ accessKeyId: 'key', secretAccessKey: 'secret' });
    expect(storageOrigins(storage)).toEqual(['http://minio:9000', 'https://us.storage.example.com']);
  });

  it('refuses s3 without both buckets, or with half the credentials', () => {
    expect(() => loadConfig({ STORAGE_DRIVER: 's3', S3_EU_BUCKET: 'a' })).toThrow(
      new ConfigError('Invalid configuration: STORAGE_DRIVER=s3 needs S3_US_BUCKET'),
    );
    expect(() => loadConfig({ ...s3, S3_ACCESS_KEY_ID: 'key' })).toThrow(/S3_SECRET_ACCESS_KEY/);
    expect(() => loadConfig({ STORAGE_DRIVER: 'gcs' })).toThrow(/STORAGE_DRIVER/);
    expect(() => loadConfig({ ...s3, STORAGE_CACHE_MAX_MB: '0' })).toThrow(/STORAGE_CACHE_MAX_MB/);
  });
});
