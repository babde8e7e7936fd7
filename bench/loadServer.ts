// The server that `bench/load.bench.ts` loads, in a process of its own (started with `node --import tsx`, an IPC
// channel to the bench) so the load generator does not share the server's event loop. Starts the real server
// (PGlite in memory, or PostgreSQL when LOAD_SERVER_DATABASE_URL is set), seeds LOAD_SERVER_USERS users, each with a
// workspace of their own holding LOAD_SERVER_PROJECTS projects, 6 ready cohorts and 30 notifications, and a session
// each; sends `{ origin, clients: [{ cookie, deviceId }] }` to the bench and closes when told 'stop' (or when the
// bench goes away).
import { randomUUID } from 'node:crypto';
import { createDefaultCriteria } from '@insilico/anatomy';
import { cohorts } from '../apps/server/src/db/schema';
import { seedProjects, signedInWorkspace, startBenchServer } from './benchServer';

export interface LoadServerReady {
  origin: string;
  clients: { cookie: string; deviceId: string }[];
}

const USERS = Number(process.env.LOAD_SERVER_USERS ?? 50);
const PROJECTS = Number(process.env.LOAD_SERVER_PROJECTS ?? 20);
const COHORTS = 6;
const NOTIFICATIONS = 30;

if (!process.send) throw new Error('bench/loadServer.ts is started by bench/load.bench.ts (it needs an IPC channel)');

const databaseUrl = process.env.LOAD_SERVER_DATABASE_URL;
const server = await startBenchServer('load', databaseUrl ? { databaseUrl } : {});
const { context } = server;
const clients: LoadServerReady['clients'] = [];
for (let u = 0; u < USERS; u++) {
  const { userId, deviceId, cookie } = await signedInWorkspace(server, `bench-load-${u}`, `Load valve ${u}`);
  await seedProjects(server, { userId, deviceId }, PROJECTS, 'Load project');
  // Ready cohorts straight into the table: ordering them would run cohort jobs during the measurement.
  await context.db.orm.insert(cohorts).values(
    Array.from({ length: COHORTS }, (_, index) => ({
      id: randomUUID(),
      deviceId,
      name: `Cohort ${index + 1} — mitral adults`,
      criteria: createDefaultCriteria() as unknown as Record<string, unknown>,
      size: 20,
      status: 'ready' as const,
      populationSeed: 1,
      populationSize: 2000,
      modelVersion: 'bench',
      meshModelVersion: 'bench',
      sampleSeed: index,
      matchingAtOrder: 900,
    })),
  );
  for (let n = 1; n <= NOTIFICATIONS; n++)
    await context.notifications.post({ userId, kind: 'bench', title: `Notification ${n}`, link: '/projects' });
  clients.push({ cookie, deviceId });
}

let closing = false;
async function close() {
  if (closing) return;
  closing = true;
  await server.close();
  process.exit(0);
}
process.on('message', (message) => {
  if (message === 'stop') void close();
});
process.on('disconnect', () => void close());
process.send({ origin: server.origin, clients } satisfies LoadServerReady);
