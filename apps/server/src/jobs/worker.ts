import pino from 'pino';
import { ConfigError, loadConfig } from '../config';
import { createContext } from '../context';
import { openDatabase } from '../db/client';
import { installProcessGuards } from '../lib/process-guards';

/**
 * `npm run worker`: a process that only works jobs. Start any number of them, on any machine
 * that reaches the PostgreSQL database (the embedded database can be opened by one process
 * only, so there the server works jobs itself).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.databaseUrl) {
    throw new ConfigError(
      'A standalone worker needs PostgreSQL: set DATABASE_URL. With the embedded database the server (npm start) works jobs itself.',
    );
  }
  const log = pino({ level: config.logLevel });
  installProcessGuards(log);
  const db = await openDatabase({ url: config.databaseUrl, poolSize: 4 });
  const context = await createContext(config, db, log, { workJobs: true, servesRequests: false });
  await context.jobRunner!.start();
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info({ signal }, 'worker stopping: finishing or releasing running jobs');
    (async () => {
      await context.jobRunner!.stop(15_000);
      await context.cpu.close();
      await context.auditChainer.close();
      await context.jobRepository.stop();
      await db.close();
      process.exit(0);
    })().catch((error: unknown) => {
      log.error({ err: error }, 'worker shutdown failed');
      process.exit(1);
    });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
