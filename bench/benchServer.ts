import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type AppConfig } from '../apps/server/src/config';
import type { AppContext } from '../apps/server/src/context';
import { sessionCookieName } from '../apps/server/src/http/session-cookie';
import { startServer } from '../apps/server/src/server';

/**
 * The real server inside a benchmark's process: PGlite in memory, jobs worked in-process (the product's poll interval
 * unless a benchmark that times jobs asks for a shorter one), files in a temporary folder removed by `close`. The sign-in pages are not what benchmarks measure, so `signedInWorkspace`
 * makes a user, a workspace and a session cookie directly.
 */
export interface BenchServer {
  origin: string;
  /** The server's files (workers started beside it share them). */
  dataDir: string;
  config: AppConfig;
  context: AppContext;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface BenchServerOptions {
  /** A built web app the server serves (the browser benchmarks); none by default. */
  webDist?: string;
  /**
   * How often idle job workers look for work. Benchmarks that time a job ask for 0.5 s so the poll does not dominate;
   * page benchmarks keep the product's default, because every poll is a query the embedded database runs on the
   * server's one thread.
   */
  jobPollSeconds?: number;
  /** A PostgreSQL database to run on instead of PGlite in memory (the load benchmark runs on both). */
  databaseUrl?: string;
  /** Whether the server works jobs itself (default yes); no with `npm run worker` processes beside it (PostgreSQL). */
  jobsInProcess?: boolean;
  /** The simulation slots of a workspace (default: the product's). */
  simulationsPerWorkspace?: number;
}

export async function startBenchServer(name: string, options: BenchServerOptions = {}): Promise<BenchServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), `insilico-${name}-bench-`));
  const origin = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: origin,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(options.jobPollSeconds === undefined ? {} : { JOB_POLL_SECONDS: String(options.jobPollSeconds) }),
    ...(options.jobsInProcess === false ? { JOBS_IN_PROCESS: 'false' } : {}),
    ...(options.simulationsPerWorkspace === undefined
      ? {}
      : { SIMULATIONS_PER_WORKSPACE: String(options.simulationsPerWorkspace) }),
    WEB_DIST_DIR: options.webDist ?? join(dataDir, 'no-web-build'),
  });
  const server = await startServer(
    config,
    options.databaseUrl ? { url: options.databaseUrl, poolSize: config.databasePoolSize } : { pgliteDir: null },
  );
  return {
    origin,
    dataDir,
    config,
    context: server.context,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A user with a workspace of their own and the cookie of a session. */
export async function signedInWorkspace(
  server: BenchServer,
  subject: string,
  deviceName: string,
): Promise<{ userId: string; deviceId: string; cookie: string }> {
  const { context } = server;
  const user = await context.users.upsertFromIdentity({
    issuer: 'bench',
    subject,
    email: `${subject}@example.com`,
    fullName: 'Bench Mark',
  });
  const { device } = await context.devices.create(
    { id: user.id, email: user.email, fullName: user.fullName },
    {
      bodyParts: ['heart_and_thorax'],
      developmentStages: ['concept_and_design_feasibility'],
      deviceInfo: { deviceName, deviceType: 'valve_replacement' },
      company: { companyName: 'Bench', country: 'DE', streetAddress: 'A 1', city: 'Berlin', zipCode: '10115' },
      team: [],
    },
  );
  const token = await context.sessions.startUserSession(user.id, 'bench');
  return {
    userId: user.id,
    deviceId: device.deviceId,
    cookie: `${sessionCookieName(server.config.secureCookies)}=${token}`,
  };
}

/** `count` projects in the workspace, named `<prefix> 0001` …, created through the service (no cohorts, no versions). */
export async function seedProjects(
  server: BenchServer,
  owner: { userId: string; deviceId: string },
  count: number,
  prefix: string,
): Promise<void> {
  for (let i = 1; i <= count; i++)
    await server.context.projectCreation.create(owner.userId, owner.deviceId, {
      name: `${prefix} ${String(i).padStart(4, '0')}`,
      developmentStage: 'concept_and_design_feasibility',
      questionId: null,
      cohortIds: [],
      versionIds: [],
      teamUserIds: [],
      basedOnProjectId: null,
      imagingDatasetIds: [],
    });
}

/** Uploads `bytes` as `fileName` over tus (8 MiB PATCHes) into the workspace; answers the upload id. */
export async function uploadOverTus(
  server: BenchServer,
  owner: { deviceId: string; cookie: string },
  fileName: string,
  bytes: Uint8Array,
): Promise<string> {
  const { origin } = server;
  const tus = { cookie: owner.cookie, origin, 'tus-resumable': '1.0.0' };
  const created = await fetch(`${origin}/api/devices/${owner.deviceId}/uploads`, {
    method: 'POST',
    headers: {
      ...tus,
      'upload-length': String(bytes.length),
      'upload-metadata': `filename ${Buffer.from(fileName).toString('base64')}`,
    },
  });
  if (created.status !== 201) throw new Error(`upload creation answered ${created.status}`);
  const location = created.headers.get('location')!;
  const chunk = 8 * 1024 * 1024;
  for (let offset = 0; offset < bytes.length; offset += chunk) {
    const patched = await fetch(`${origin}${location}`, {
      method: 'PATCH',
      headers: { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body: bytes.subarray(offset, Math.min(bytes.length, offset + chunk)),
    });
    if (patched.status !== 204) throw new Error(`PATCH answered ${patched.status}`);
  }
  return location.split('/').pop()!;
}
