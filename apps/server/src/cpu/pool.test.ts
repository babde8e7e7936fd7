import { threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bytesTask,
  failTask,
  longSpinTask,
  missingTask,
  niceness,
  nicenessTask,
  spinTask,
  sumTask,
  whereAmITask,
} from '../../test/helpers/cpu-tasks';
import { CpuPool, CpuPoolClosedError, CpuTaskError, defaultCpuThreads, shareThreadsBetweenPools } from './pool';

describe('CpuPool', () => {
  const pools: CpuPool[] = [];
  const pool = (threads: number) => {
    const created = new CpuPool({ threads });
    pools.push(created);
    return created;
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((created) => created.close()));
  });

  it('runs a task in another thread and answers its result', async () => {
    const result = await pool(1).run(whereAmITask, { echo: 'hello' });
    expect(result).toEqual({ threadId: expect.any(Number), echo: 'hello' });
    expect(result.threadId).not.toBe(threadId);
  });

  it('keeps the event loop free while a task computes', async () => {
    const cpu = pool(1);
    await cpu.run(whereAmITask, { echo: 'warm' }); // thread started (tsx loaded)
    let ticks = 0;
    let longestGap = 0;
    let last = Date.now();
    const timer = setInterval(() => {
      const now = Date.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
      ticks += 1;
    }, 10);
    await cpu.run(spinTask, { ms: 600 });
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(15);
    expect(longestGap).toBeLessThan(200);
  });

  it('forwards progress, coalesced, the last always', async () => {
    const seen: [number, string | undefined][] = [];
    await pool(1).run(spinTask, { ms: 450 }, { onProgress: (fraction, message) => seen.push([fraction, message]) });
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.length).toBeLessThan(15); // about every 100 ms, not every 10 ms
    expect(seen.at(-1)).toEqual([1, 'done']);
    const fractions = seen.map(([fraction]) => fraction);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
  });

  it("rejects with the worker's message when the task throws, and the thread stays usable", async () => {
    const cpu = pool(1);
    const error = await cpu.run(failTask, { message: 'no triangles' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CpuTaskError);
    expect((error as CpuTaskError).message).toBe('no triangles');
    expect((error as CpuTaskError).errorName).toBe('RangeError');
    await expect(cpu.run(missingTask, { echo: 'x' })).rejects.toThrow(/exports no function named notExported/);
    await expect(cpu.run(whereAmITask, { echo: 'after' })).resolves.toMatchObject({ echo: 'after' });
  });

  it('runs no more tasks at once than its bound, the rest in order', async () => {
    const cpu = pool(2);
    expect(cpu.concurrency).toBe(2);
    const order: number[] = [];
    let most = 0;
    const runs = [0, 1, 2, 3, 4].map((n) =>
      cpu.run(spinTask, { ms: 60 }).then(() => {
        order.push(n);
      }),
    );
    const watch = setInterval(() => (most = Math.max(most, cpu.busy)), 5);
    await Promise.all(runs);
    clearInterval(watch);
    expect(most).toBe(2);
    expect(order).toHaveLength(5);
    expect(defaultCpuThreads()).toBeGreaterThanOrEqual(1);
  });

  it('starts queued short tasks before queued long ones (run segments), each kind in its order', async () => {
    const cpu = pool(1);
    const order: string[] = [];
    const track = (name: string, run: Promise<unknown>) => run.then(() => void order.push(name));
    // The first task holds the one thread; the rest queue while it runs.
    const runs = [
      track('running', cpu.run(longSpinTask, { ms: 200 })),
      track('long 1', cpu.run(longSpinTask, { ms: 10 })),
      track('long 2', cpu.run(longSpinTask, { ms: 10 })),
      track('short 1', cpu.run(spinTask, { ms: 10 })),
      track('short 2', cpu.run(whereAmITask, { echo: 'x' })),
    ];
    await Promise.all(runs);
    expect(order).toEqual(['running', 'short 1', 'short 2', 'long 1', 'long 2']);
  });

  it('cancels a running task by ending its thread, and a queued one by leaving the queue', async () => {
    const cpu = pool(1);
    await cpu.run(whereAmITask, { echo: 'warm' });
    const running = new AbortController();
    const queued = new AbortController();
    const first = cpu.run(spinTask, { ms: 20_000 }, { signal: running.signal });
    const second = cpu.run(spinTask, { ms: 20_000 }, { signal: queued.signal });
    queued.abort(new Error('not needed any more'));
    await expect(second).rejects.toThrow('not needed any more');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const t0 = Date.now();
    running.abort(new Error('job cancelled'));
    await expect(first).rejects.toThrow('job cancelled');
    expect(Date.now() - t0).toBeLessThan(1000);
    // A fresh thread takes the next task.
    await expect(cpu.run(whereAmITask, { echo: 'next' })).resolves.toMatchObject({ echo: 'next' });
    const aborted = new AbortController();
    aborted.abort(new Error('too late'));
    await expect(cpu.run(whereAmITask, { echo: 'x' }, { signal: aborted.signal })).rejects.toThrow('too late');
  });

  it('moves buffers both ways when asked to', async () => {
    const cpu = pool(1);
    const out = await cpu.run(bytesTask, { length: 1 << 20 });
    expect(out.byteLength).toBe(1 << 20);
    expect(out[123]).toBe(7);
    const data = new Uint8Array(1000).fill(2);
    await expect(cpu.run(sumTask, { data }, { transfer: [data.buffer] })).resolves.toBe(2000);
    expect(data.byteLength).toBe(0); // moved, not copied
  });

  it.runIf(process.platform === 'linux')('runs its threads at a lower priority than the event loop', async () => {
    const own = niceness()!;
    expect(await pool(1).run(nicenessTask, undefined)).toBeGreaterThanOrEqual(Math.max(10, own));
    const plain = new CpuPool({ threads: 1, nice: 0 });
    pools.push(plain);
    expect(await plain.run(nicenessTask, undefined)).toBe(own);
    expect(niceness()).toBe(own); // the calling thread keeps its priority
  });

  it("hands a closed pool's idle thread to the next pool of the same priority only while threads are shared", async () => {
    const before = shareThreadsBetweenPools(0); // no spares left by earlier files' servers
    try {
      shareThreadsBetweenPools(60_000);
      const first = new CpuPool({ threads: 1 });
      const { threadId: kept } = await first.run(whereAmITask, { echo: 'first' });
      await first.close();
      const plain = pool(1);
      const niceless = new CpuPool({ threads: 1, nice: 0 });
      pools.push(niceless);
      expect((await niceless.run(whereAmITask, { echo: 'other priority' })).threadId).not.toBe(kept);
      expect((await plain.run(whereAmITask, { echo: 'next' })).threadId).toBe(kept);
      shareThreadsBetweenPools(0);
      await plain.close();
      expect((await pool(1).run(whereAmITask, { echo: 'not shared' })).threadId).not.toBe(kept);
    } finally {
      shareThreadsBetweenPools(before);
    }
  });

  it('refuses tasks once closed and rejects those still running', async () => {
    const cpu = pool(1);
    const running = cpu.run(spinTask, { ms: 20_000 }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await cpu.close();
    expect(await running).toBeInstanceOf(CpuPoolClosedError);
    await expect(cpu.run(whereAmITask, { echo: 'x' })).rejects.toBeInstanceOf(CpuPoolClosedError);
  });
});
