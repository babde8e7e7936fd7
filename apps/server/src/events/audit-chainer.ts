import type { Orm } from '../db/client';
import { DomainEventRepository } from './domain-event.repository';

/** Rows linked per transaction. */
const batch = 1000;

/**
 * Links committed domain events into the hash chain (docs/decisions/regulated-record.md): out of the requests'
 * transactions, so writers never wait on the chain. `schedule` after each commit (coalesced: one run at a time, and
 * one more if asked meanwhile); `chainAll` before verifying. Several processes may run one: the advisory lock in
 * `chainPending` takes them in turn. The hashing runs on this thread: a thread of its own measured no gain
 * (docs/decisions/audit-chain-thread.md).
 */
export class AuditChainer {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly orm: Orm,
    private readonly log: { error(details: object, message: string): void },
  ) {}

  /** Starts a run unless one is going; asks that one for another pass. Never throws. */
  schedule(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.chainAll();
      } while (this.again);
    })()
      .catch((error: unknown) => this.log.error({ err: error }, 'audit chaining failed'))
      .finally(() => {
        this.running = null;
      });
  }

  /** Links every committed unchained row; answers how many. */
  async chainAll(): Promise<number> {
    let total = 0;
    for (;;) {
      const linked = await this.orm.transaction((tx) => new DomainEventRepository(tx).chainPending(batch));
      total += linked;
      if (linked < batch) return total;
    }
  }

  /** Waits for the run in progress, if any (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Waits for the run in progress (shutdown). */
  async close(): Promise<void> {
    await this.idle();
  }
}
