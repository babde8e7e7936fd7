import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NotificationRepository, NotificationRow } from '../repositories/notification.repository';
import { NotificationService, type NotificationEvent } from './notification.service';

// The live relay runs inside the database's notify callback, where nothing awaits it: a failed
// read must be logged and the relay must go on, never become an unhandled rejection.

class FakeNotificationRepository {
  onPosted: ((userId: string, id: string) => void) | null = null;
  readonly rows = new Map<string, NotificationRow>();
  failFind: Error | null = null;

  async subscribe(onPosted: (userId: string, id: string) => void): Promise<() => Promise<void>> {
    this.onPosted = onPosted;
    return async () => {
      this.onPosted = null;
    };
  }
  async findById(id: string): Promise<NotificationRow | null> {
    if (this.failFind) throw this.failFind;
    return this.rows.get(id) ?? null;
  }
}

const userId = '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed';

function row(id: string): NotificationRow {
  return {
    id,
    userId,
    kind: 'job.self-check',
    title: 'Self-check finished',
    body: '',
    link: null,
    dedupeKey: null,
    createdAt: new Date('2026-01-02T03:04:05Z'),
    seenAt: null,
  };
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
});

/** Lets Node report any rejection left unhandled by the code under test. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('notification relay with a failing database', () => {
  it('logs a failed read, delivers nothing for it, and relays the next notification', async () => {
    const repository = new FakeNotificationRepository();
    const logged: { details: object; message: string }[] = [];
    const service = new NotificationService(repository as unknown as NotificationRepository, {
      error: (details, message) => logged.push({ details, message }),
    });
    await service.startRelay();
    const events: NotificationEvent[] = [];
    service.subscribe(userId, (event) => events.push(event));

    repository.failFind = new Error('connection terminated unexpectedly');
    repository.onPosted!(userId, 'n-1');
    await settle();

    expect(events).toEqual([]);
    expect(logged).toHaveLength(1);
    expect(logged[0]!.message).toBe('notification relay failed');
    expect(logged[0]!.details).toMatchObject({ userId, notificationId: 'n-1' });
    expect(unhandled).toEqual([]);

    repository.failFind = null;
    repository.rows.set('n-2', row('n-2'));
    repository.onPosted!(userId, 'n-2');
    await settle();

    expect(events).toMatchObject([{ type: 'notification', notification: { id: 'n-2' }, hasUnseen: true }]);
    await service.stopRelay();
  });

  it('logs a listener that throws instead of letting it end the process', async () => {
    const repository = new FakeNotificationRepository();
    const logged: string[] = [];
    const service = new NotificationService(repository as unknown as NotificationRepository, {
      error: (_details, message) => logged.push(message),
    });
    await service.startRelay();
    repository.rows.set('n-1', row('n-1'));
    service.subscribe(userId, () => {
      throw new Error('stream closed');
    });

    repository.onPosted!(userId, 'n-1');
    await settle();

    expect(logged).toEqual(['notification relay failed']);
    expect(unhandled).toEqual([]);
    await service.stopRelay();
  });
});

describe('notification list', () => {
  /** A repository whose list answers fixed rows (each carrying the user's unseen flag) and counts separate queries. */
  function listing(rows: NotificationRow[], anyUnseen: boolean) {
    const counts = { hasUnseen: 0 };
    const repository = {
      async list() {
        return rows.map((listed) => ({ ...listed, userHasUnseen: anyUnseen }));
      },
      async hasUnseen() {
        counts.hasUnseen += 1;
        return anyUnseen;
      },
    };
    const service = new NotificationService(repository as unknown as NotificationRepository, { error: () => {} });
    return { service, counts };
  }

  it('answers the unseen flag from the rows of the page, without a second query', async () => {
    const seen = { ...row('b'), seenAt: new Date() };
    // Every row on the page seen, yet an older one is not: the rows' own flag says so.
    const older = listing([seen], true);
    expect((await older.service.list(userId, 20, null)).hasUnseen).toBe(true);
    const none = listing([row('a'), seen], false);
    expect((await none.service.list(userId, 20, null)).hasUnseen).toBe(false);
    expect(older.counts.hasUnseen + none.counts.hasUnseen).toBe(0);
  });

  it('an empty first page has nothing unseen without a query; an empty later page asks the database', async () => {
    const first = listing([], true);
    expect((await first.service.list(userId, 20, null)).hasUnseen).toBe(false);
    expect(first.counts.hasUnseen).toBe(0);
    const later = listing([], true);
    expect((await later.service.list(userId, 20, '2026-01-01T00:00:00.000Z')).hasUnseen).toBe(true);
    expect(later.counts.hasUnseen).toBe(1);
  });
});
