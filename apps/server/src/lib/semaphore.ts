/**
 * At most `limit` tasks at once; the others wait, first come first served. For work whose memory grows with how
 * many run together (decoding pictures), so that a burst of requests queues instead of swelling the process.
 */
export class Semaphore {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`a semaphore needs a limit ≥ 1, not ${limit}`);
  }

  /** How many tasks hold a place now. */
  get active(): number {
    return this.running;
  }

  /** How many wait for a place. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `task` once a place is free; the place is given back however the task ends. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /** Takes a place (waits for one); pair with `release`. */
  acquire(): Promise<void> {
    if (this.running < this.limit) {
      this.running += 1;
      return Promise.resolve();
    }
    // The place passes straight from the releasing task to the next in line (`running` stays the same).
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}
