import { readFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { cpuTask, type CpuTaskContext } from '../../src/cpu/task';

/** Tasks for the CPU pool's tests: each runs in a pool thread. */

export function whereAmI(input: { echo: string }): { threadId: number; echo: string } {
  return { threadId, echo: input.echo };
}

/** Holds its thread for `ms` of computation, reporting progress about every 10 ms. */
export function spin(input: { ms: number }, context: CpuTaskContext): number {
  const start = Date.now();
  let loops = 0;
  let next = 0;
  for (let elapsed = 0; elapsed < input.ms; elapsed = Date.now() - start) {
    loops += 1;
    if (elapsed >= next) {
      context.progress(elapsed / input.ms, `spun ${elapsed} ms`);
      next += 10;
    }
  }
  context.progress(1, 'done');
  return loops;
}

export function fail(input: { message: string }): never {
  throw new RangeError(input.message);
}

/** A result whose buffer is handed over, not copied. */
export function bytes(input: { length: number }, context: CpuTaskContext): Uint8Array {
  const out = new Uint8Array(input.length).fill(7);
  context.transfer(out.buffer);
  return out;
}

/** Sums bytes given to it (the caller may transfer them). */
export function sum(input: { data: Uint8Array }): number {
  return input.data.reduce((total, value) => total + value, 0);
}

export const whereAmITask = cpuTask(import.meta.url, 'whereAmI', whereAmI);
export const spinTask = cpuTask(import.meta.url, 'spin', spin);
/** The same busy wait declared long, as a simulation's run segment is. */
export const longSpinTask = cpuTask(import.meta.url, 'spin', spin, { long: true });
export const failTask = cpuTask(import.meta.url, 'fail', fail);
export const bytesTask = cpuTask(import.meta.url, 'bytes', bytes);
export const sumTask = cpuTask(import.meta.url, 'sum', sum);
export const missingTask = cpuTask(import.meta.url, 'notExported', whereAmI);

/** The nice value of the thread it runs in (Linux; null elsewhere). */
export function niceness(): number | null {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, nice field 19.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  } catch {
    return null;
  }
}

export const nicenessTask = cpuTask(import.meta.url, 'niceness', niceness);
