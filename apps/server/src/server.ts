import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from './app';
import type { AppConfig } from './config';
import { createContext, type AppContext } from './context';
import { openDatabase, pgliteDirIn, type DatabaseTarget } from './db/client';

export interface RunningServer {
  app: FastifyInstance;
  context: AppContext;
  url: string;
  close(): Promise<void>;
}

/** The running embedded server announces itself here so `npm run maintenance` can reach it. */
export function serverFile(dataDir: string): string {
  return join(dataDir, 'server.json');
}

export function databaseTarget(config: AppConfig): DatabaseTarget {
  return config.databaseUrl
    ? { url: config.databaseUrl, poolSize: config.databasePoolSize }
    : { pgliteDir: pgliteDirIn(config.dataDir) };
}

/** Opens the database (migrating it), builds the app, listens, and starts working jobs. */
export async function startServer(
  config: AppConfig,
  target: DatabaseTarget = databaseTarget(config),
): Promise<RunningServer> {
  const log = pino({ level: config.logLevel });
  mkdirSync(config.dataDir, { recursive: true });
  const db = await openDatabase(target);
  const context = await createContext(config, db, log, { workJobs: config.jobsInProcess, servesRequests: true });
  const embedded = db.kind === 'pglite';
  const operatorToken = embedded ? randomBytes(32).toString('base64url') : null;
  const app = await buildApp(context, { operatorToken });
  await context.notifications.startRelay();
  await context.activity.startRelay();
  // What a killed process left: events to deliver, events to chain.
  context.eventRelay.start();
  context.auditChainer.schedule();
  const address = await app.listen({ port: config.port, host: config.host });
  const port = (app.server.address() as { port: number }).port;
  if (embedded) {
    writeFileSync(serverFile(config.dataDir), JSON.stringify({ pid: process.pid, port, operatorToken }), {
      mode: 0o600,
    });
  }
  await context.jobRunner?.start();
  let closing: Promise<void> | null = null;
  return {
    app,
    context,
    url: address,
    close() {
      closing ??= (async () => {
        // Stop taking requests and jobs first; give running jobs a moment; then close the database.
        await app.close();
        await context.jobRunner?.stop(10_000);
        await context.cpu.close();
        await context.notifications.stopRelay();
        await context.activity.stopRelay();
        await context.eventRelay.stop();
        await context.auditChainer.close();
        await context.jobRepository.stop();
        await db.close();
        if (embedded) rmSync(serverFile(config.dataDir), { force: true });
      })();
      return closing;
    },
  };
}
