import type { CommittedEvent } from './domain-event';
import type { EventOutboxRepository, OutboxClaim } from './event-outbox.repository';

/**
 * A consumer of the domain events (notifications): handles one committed event; throws when it could not, so that
 * the relay hands it the event again later. Handling an event twice must change nothing more than once (the
 * notifications' dedupe keys).
 */
export interface EventSubscriber {
  readonly name: string;
  handle(event: CommittedEvent): Promise<void>;
}

export interface EventRelayOptions {
  /** How long a relay holds an event it is delivering before another may take it (a relay killed meanwhile). */
  leaseMs: number;
  /** How often the sweep looks for events other writers left behind. */
  sweepMs: number;
  /** How old an undelivered event must be for the sweep to take it (younger ones are their writer's to deliver). */
  leftForMs: number;
  /** Deliveries tried per event before it stays in the outbox for an operator (logged each time). */
  maxAttempts: number;
  batch: number;
}

export const defaultRelayOptions: EventRelayOptions = {
  leaseMs: 60_000,
  sweepMs: 5_000,
  leftForMs: 10_000,
  maxAttempts: 10,
  batch: 200,
};

interface Log {
  error(details: object, message: string): void;
}

/**
 * The durable relay of the domain events to their subscribers (issue 20; docs/decisions/event-outbox.md). Each event
 * has an outbox row from the transaction that wrote it (migration 0027's trigger), so nothing is lost when a process
 * dies between the commit and the delivery. After a commit the writer delivers its own events at once (`deliver`,
 * awaited by the unit of work, so a notification is there when the request answers); the sweep delivers what a dead
 * writer left (`start`), and a failed delivery again after its lease. At least once: a relay killed after handling
 * but before removing the row delivers again, which the subscribers absorb.
 */
export class EventRelay {
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<number> | null = null;

  constructor(
    private readonly outbox: EventOutboxRepository,
    private readonly subscribers: readonly EventSubscriber[],
    private readonly log: Log,
    private readonly options: EventRelayOptions = defaultRelayOptions,
  ) {}

  /** Delivers these just-committed events, unless another relay holds them. Never throws. */
  async deliver(ids: readonly number[]): Promise<void> {
    await this.take({ ids }).catch((error: unknown) => this.log.error({ err: error }, 'event delivery failed'));
  }

  /** Delivers every event left behind for longer than `leftForMs`; answers how many were delivered. */
  async sweep(): Promise<number> {
    this.sweeping ??= (async () => {
      let total = 0;
      for (;;) {
        const { claimed, delivered } = await this.take({ leftForMs: this.options.leftForMs });
        total += delivered;
        if (claimed < this.options.batch) return total;
      }
    })().finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }

  /** Sweeps now and then every `sweepMs` (in a server process). */
  start(): void {
    if (this.timer) return;
    const sweep = () =>
      void this.sweep().catch((error: unknown) => this.log.error({ err: error }, 'event sweep failed'));
    this.timer = setInterval(sweep, this.options.sweepMs);
    this.timer.unref();
    sweep();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sweeping?.catch(() => undefined);
  }

  private async take(which: OutboxClaim): Promise<{ claimed: number; delivered: number }> {
    const { leaseMs, maxAttempts, batch } = this.options;
    const events = await this.outbox.claim(which, leaseMs, maxAttempts, batch);
    const delivered: number[] = [];
    for (const event of events) {
      const failure = await this.handle(event);
      if (failure === null) delivered.push(event.id);
      else await this.outbox.failed(event.id, failure);
    }
    await this.outbox.delivered(delivered);
    return { claimed: events.length, delivered: delivered.length };
  }

  /** Every subscriber handles the event; answers null, or what failed (each failure logged with the event's id). */
  private async handle(event: CommittedEvent): Promise<string | null> {
    const failures: string[] = [];
    for (const subscriber of this.subscribers)
      await subscriber.handle(event).catch((error: unknown) => {
        this.log.error({ err: error, eventId: event.id, subscriber: subscriber.name }, 'event subscriber failed');
        failures.push(`${subscriber.name}: ${error instanceof Error ? error.message : String(error)}`);
      });
    return failures.length === 0 ? null : failures.join('; ');
  }
}
