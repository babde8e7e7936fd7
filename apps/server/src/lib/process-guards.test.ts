import { execFile } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { installProcessGuards, type GuardLog } from './process-guards';

const serverDir = fileURLToPath(new URL('../../', import.meta.url));

interface LogLine {
  level: number;
  msg: string;
  err?: { message: string };
}

/** Runs test/fixtures/guarded-process.ts; answers its exit code and its log lines. */
function runGuarded(mode: 'rejection' | 'exception'): Promise<{ code: number | null; lines: LogLine[] }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'test/fixtures/guarded-process.ts', mode],
      { cwd: serverDir, timeout: 30_000 },
      (error, stdout) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        const lines = stdout
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as LogLine);
        resolve({ code, lines });
      },
    );
  });
}

function fakeProcess() {
  const emitter = new EventEmitter();
  const exits: number[] = [];
  const proc = Object.assign(emitter, { exit: (code: number) => void exits.push(code) });
  return { proc, exits };
}

function recordingLog() {
  const lines: { level: 'error' | 'fatal'; details: object; message: string }[] = [];
  const log: GuardLog = {
    error: (details, message) => lines.push({ level: 'error', details, message }),
    fatal: (details, message) => lines.push({ level: 'fatal', details, message }),
  };
  return { log, lines };
}

describe('process guards', () => {
  it('logs an unhandled rejection with its error and does not exit', () => {
    const { proc, exits } = fakeProcess();
    const { log, lines } = recordingLog();
    installProcessGuards(log, proc);
    const reason = new Error('connection terminated');

    proc.emit('unhandledRejection', reason);

    expect(lines).toEqual([
      { level: 'error', details: { err: reason }, message: 'unhandled promise rejection; the process keeps running' },
    ]);
    expect(exits).toEqual([]);
  });

  it('logs an uncaught exception as fatal and exits 1', () => {
    const { proc, exits } = fakeProcess();
    const { log, lines } = recordingLog();
    installProcessGuards(log, proc);
    const error = new Error('state is broken');

    proc.emit('uncaughtException', error);

    expect(lines).toEqual([
      { level: 'fatal', details: { err: error }, message: 'uncaught exception; the process exits' },
    ]);
    expect(exits).toEqual([1]);
  });

  it('a real process survives an unhandled rejection and logs it', async () => {
    const { code, lines } = await runGuarded('rejection');

    expect(code).toBe(0);
    expect(lines.map((line) => line.msg)).toEqual([
      'unhandled promise rejection; the process keeps running',
      'still running',
    ]);
    expect(lines[0]!.err?.message).toBe('the database went away');
  }, 40_000);

  it('a real process logs an uncaught exception before it exits 1', async () => {
    const { code, lines } = await runGuarded('exception');

    expect(code).toBe(1);
    expect(lines.map((line) => line.msg)).toEqual(['uncaught exception; the process exits']);
    expect(lines[0]!.err?.message).toBe('state is broken');
  }, 40_000);
});
