import pino from 'pino';
import { ConfigError, loadConfig } from './config';
import { installProcessGuards } from './lib/process-guards';
import { startServer } from './server';

/** `npm start`: the whole workspace in one process on its embedded defaults. */
async function main(): Promise<void> {
  const config = loadConfig();
  // Before anything starts: a stray rejection is then logged, never the end of every request and job.
  installProcessGuards(pino({ level: config.logLevel }));
  const server = await startServer(config);
  const log = server.app.log;
  log.info(`InSilico Workspace is running at ${config.publicUrl}`);
  if (!config.externalIssuer) {
    log.info(`First time? Open ${config.publicUrl} and choose "Create an account" on the sign-in page.`);
  }
  let signals = 0;
  const shutdown = (signal: string) => {
    signals += 1;
    if (signals > 1) process.exit(1);
    log.info({ signal }, 'shutting down: finishing requests and jobs');
    void server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
