import { describe, expect, it } from 'vitest';
import { Semaphore } from './semaphore';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('Semaphore', () => {
  it('runs at most `limit` tasks at once, the others in the order they came', async () => {
    const gate = new Semaphore(2);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const tasks = Array.from({ length: 6 }, (_, index) =>
      gate.run(async () => {
        started.push(index);
        running += 1;
        peak = Math.max(peak, running);
        await tick();
        running -= 1;
        return index;
      }),
    );
    expect(gate.active).toBe(2);
    expect(gate.queued).toBe(4);
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(gate.active).toBe(0);
  });

  it('gives the place back when a task fails', async () => {
    const gate = new Semaphore(1);
    await expect(gate.run(() => Promise.reject(new Error('broken')))).rejects.toThrow('broken');
    expect(gate.active).toBe(0);
    expect(await gate.run(async () => 'next')).toBe('next');
  });

  it('refuses a limit below one', () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
  });
});
