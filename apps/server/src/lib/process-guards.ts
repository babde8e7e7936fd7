/** What the guards log through (a pino logger in the server and the worker). */
export interface GuardLog {
  error(details: object, message: string): void;
  fatal(details: object, message: string): void;
}

/** The part of `process` the guards use (a stand-in in tests). */
export interface GuardedProcess {
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  on(event: 'uncaughtException', listener: (error: Error) => void): unknown;
  exit(code: number): void;
}

/**
 * Last-resort handlers for a long-running process (docs/decisions/process-crash-handling.md).
 *
 * A rejected promise that nobody handled is one failed request or query that a code path forgot to
 * catch; the state it left is that path's own, so it is logged and the process keeps serving
 * (Node's default would end the whole process, and every other request and job with it).
 *
 * A thrown exception that reached the event loop may have left any shared state half-changed, and
 * Node documents that resuming after it is unsafe: it is logged as fatal and the process exits 1,
 * for the supervisor to restart it (jobs it ran are handed back by the heartbeat sweep).
 */
export function installProcessGuards(log: GuardLog, proc: GuardedProcess = process): void {
  proc.on('unhandledRejection', (reason) => {
    log.error({ err: reason }, 'unhandled promise rejection; the process keeps running');
  });
  proc.on('uncaughtException', (error) => {
    log.fatal({ err: error }, 'uncaught exception; the process exits');
    proc.exit(1);
  });
}
