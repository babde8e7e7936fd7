import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { CpuFunction, CpuTaskContext, ThreadReply, ThreadRun } from './task';

/** Progress messages at most this often (a 1 GB file read in 64 KiB chunks would otherwise send 16,000). */
const progressEveryMs = 100;

const modules = new Map<string, Promise<Record<string, unknown>>>();

async function taskFunction(module: string, name: string): Promise<CpuFunction<unknown, unknown>> {
  let loading = modules.get(module);
  if (!loading) {
    loading = import(module) as Promise<Record<string, unknown>>;
    modules.set(module, loading);
  }
  const fn = (await loading)[name];
  if (typeof fn !== 'function') throw new Error(`${module} exports no function named ${name}.`);
  return fn as CpuFunction<unknown, unknown>;
}

async function run(port: NonNullable<typeof parentPort>, message: ThreadRun): Promise<void> {
  const transfer: ArrayBuffer[] = [];
  let lastProgress = 0;
  const context: CpuTaskContext = {
    progress(fraction, text) {
      const now = Date.now();
      if (fraction < 1 && now - lastProgress < progressEveryMs) return;
      lastProgress = now;
      const reply: ThreadReply = { type: 'progress', id: message.id, fraction, ...(text ? { message: text } : {}) };
      port.postMessage(reply);
    },
    transfer(...buffers) {
      transfer.push(...buffers);
    },
  };
  try {
    const fn = await taskFunction(message.module, message.name);
    const output = await fn(message.input, context);
    const reply: ThreadReply = { type: 'done', id: message.id, output };
    port.postMessage(reply, transfer);
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    const reply: ThreadReply = {
      type: 'failed',
      id: message.id,
      error: { name: failure.name, message: failure.message, stack: failure.stack },
    };
    port.postMessage(reply);
  }
}

/**
 * Lowers this thread's scheduling priority (Linux: a thread is a task with its own nice value, found through
 * /proc/thread-self). When the pool's threads and the event loop want the same core, the event loop gets it, so
 * requests stay fast and the job takes what is left. Elsewhere, or when not permitted, the thread keeps its priority.
 */
function lowerPriority(nice: number): void {
  if (nice <= 0) return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, nice);
  } catch {
    // Not Linux, or no /proc: the thread keeps the priority it has.
  }
}

// The entry of a pool thread (pool.ts starts it through its tsx bootstrap); importing it elsewhere does nothing.
if (!isMainThread && parentPort) {
  lowerPriority((workerData as { nice?: number } | null)?.nice ?? 0);
  const port = parentPort;
  port.on('message', (message: ThreadRun) => void run(port, message));
  const ready: ThreadReply = { type: 'ready' };
  port.postMessage(ready);
}
