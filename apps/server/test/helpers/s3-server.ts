import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'vitest';
import { freePort } from './test-server';

/** An S3-compatible server in this process (s3rver, from npm) with the EU and US buckets of the tests. */
export interface TestS3 {
  endpoint: string;
  buckets: { eu: string; us: string };
  /** s3rver's fixed credentials. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** The server's environment for STORAGE_DRIVER=s3 against it. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startTestS3(): Promise<TestS3> {
  const { default: S3rver } = await import('s3rver');
  const directory = mkdtempSync(join(tmpdir(), 'insilico-s3-'));
  const port = await freePort();
  const buckets = { eu: 'insilico-eu', us: 'insilico-us' };
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    directory,
    silent: true,
    configureBuckets: [{ name: buckets.eu }, { name: buckets.us }],
  });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  return {
    endpoint,
    buckets,
    credentials,
    env: {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      S3_EU_BUCKET: buckets.eu,
      S3_US_BUCKET: buckets.us,
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The server for a test file, or why it could not start (its tests are then skipped, saying so). */
export async function tryStartTestS3(): Promise<TestS3 | string> {
  try {
    return await startTestS3();
  } catch (error) {
    return `the S3-compatible test server could not start: ${(error as Error).message}`;
  }
}

/** The started server, or the test skipped with the reason it could not start. */
export function requireS3(context: TestContext, s3: TestS3 | string): TestS3 {
  if (typeof s3 === 'string') context.skip(s3);
  return s3;
}
