import { describe, expect, it } from 'vitest';
import type { CommittedEvent } from './domain-event';
import type { EventOutboxRepository, OutboxClaim } from './event-outbox.repository';
import { defaultRelayOptions, EventRelay, type EventSubscriber } from './event-relay';

const event = (id: number, action = 'project.status_changed'): CommittedEvent => ({
  id,
  actorId: null,
  action,
  objectType: 'project',
  objectId: 'p',
  deviceId: 'd',
  projectId: 'p',
});

/** An outbox in memory: rows with a lease flag; a claim leases free rows (all of the ids asked, or any left). */
function outbox(ids: number[]) {
  const rows = new Map(ids.map((id) => [id, { leased: false, attempts: 0, lastError: null as string | null }]));
  const claims: OutboxClaim[] = [];
  const repository: Pick<EventOutboxRepository, 'claim' | 'delivered' | 'failed'> = {
    async claim(which, _lease, maxAttempts, limit) {
      claims.push(which);
      const free = [...rows]
        .filter(
          ([id, row]) => !row.leased && row.attempts < maxAttempts && (!('ids' in which) || which.ids.includes(id)),
        )
        .slice(0, limit);
      for (const [, row] of free) {
        row.leased = true;
        row.attempts++;
      }
      return free.map(([id]) => event(id));
    },
    async delivered(done) {
      for (const id of done) rows.delete(id);
    },
    async failed(id, error) {
      rows.get(id)!.lastError = error;
    },
  };
  /** The lease of every row runs out (the relay holding them died, or time passed). */
  const expire = () => rows.forEach((row) => (row.leased = false));
  return { rows, claims, expire, repository: repository as EventOutboxRepository };
}

function recorder(name: string, fail: (event: CommittedEvent) => boolean = () => false) {
  const seen: number[] = [];
  const subscriber: EventSubscriber = {
    name,
    async handle(given) {
      if (fail(given)) throw new Error(`${name} is down`);
      seen.push(given.id);
    },
  };
  return { seen, subscriber };
}

const silent = { error: () => undefined };

describe('the event relay', () => {
  it('delivers a unit of work’s events to every subscriber, in order, and empties their outbox rows', async () => {
    const box = outbox([1, 2, 3]);
    const a = recorder('a');
    const b = recorder('b');
    await new EventRelay(box.repository, [a.subscriber, b.subscriber], silent).deliver([1, 2]);
    expect(a.seen).toEqual([1, 2]);
    expect(b.seen).toEqual([1, 2]);
    expect([...box.rows.keys()]).toEqual([3]);
  });

  it('keeps an event a subscriber failed on, notes why, and delivers it again after the lease (at least once)', async () => {
    const box = outbox([1, 2]);
    let down = true;
    const errors: object[] = [];
    const a = recorder('a', (given) => down && given.id === 2);
    const relay = new EventRelay(box.repository, [a.subscriber], { error: (details) => void errors.push(details) });
    await relay.deliver([1, 2]);
    expect(a.seen).toEqual([1]);
    expect([...box.rows.keys()]).toEqual([2]);
    expect(box.rows.get(2)!.lastError).toBe('a: a is down');
    expect(errors).toEqual([expect.objectContaining({ eventId: 2, subscriber: 'a' })]);
    // Still leased: a second relay leaves it alone until the lease runs out.
    await relay.sweep();
    expect(a.seen).toEqual([1]);
    down = false;
    box.expire();
    expect(await relay.sweep()).toBe(1);
    expect(a.seen).toEqual([1, 2]);
    expect(box.rows.size).toBe(0);
  });

  it('gives up after the most attempts, leaving the row for an operator', async () => {
    const box = outbox([7]);
    const a = recorder('a', () => true);
    const relay = new EventRelay(box.repository, [a.subscriber], silent, { ...defaultRelayOptions, maxAttempts: 3 });
    for (let i = 0; i < 5; i++) {
      await relay.sweep();
      box.expire();
    }
    expect(box.rows.get(7)).toMatchObject({ attempts: 3, lastError: 'a: a is down' });
  });

  it('sweeps what a dead writer left, in batches, taking only rows left for long enough', async () => {
    const box = outbox(Array.from({ length: 5 }, (_, i) => i + 1));
    const a = recorder('a');
    const relay = new EventRelay(box.repository, [a.subscriber], silent, { ...defaultRelayOptions, batch: 2 });
    expect(await relay.sweep()).toBe(5);
    expect(a.seen).toEqual([1, 2, 3, 4, 5]);
    expect(box.claims).toEqual(Array.from({ length: 3 }, () => ({ leftForMs: defaultRelayOptions.leftForMs })));
  });

  it('never throws to the unit of work when the outbox cannot be read', async () => {
    const errors: object[] = [];
    const broken = {
      claim: async () => {
        throw new Error('database gone');
      },
    } as unknown as EventOutboxRepository;
    await new EventRelay(broken, [], { error: (details) => void errors.push(details) }).deliver([1]);
    expect(errors).toHaveLength(1);
  });
});
