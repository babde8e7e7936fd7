import { describe, expect, it } from 'vitest';
import type { NewSession, SessionRepository, SessionRow } from '../repositories/session.repository';
import { SessionService } from './session.service';

/** An in-memory stand-in for the repository: the service's rules are what is under test. */
function memoryRepository(): SessionRepository {
  const rows = new Map<string, SessionRow>();
  return {
    async insert(session: NewSession) {
      rows.set(session.idHash, { ...session, lastSeenAt: session.createdAt });
    },
    async findByHash(idHash: string) {
      return rows.get(idHash) ?? null;
    },
    async findUserSession(idHash: string) {
      const session = rows.get(idHash);
      return session?.userId ? { session, user: { id: session.userId } } : null;
    },
    async touch(idHash: string, at: Date) {
      const row = rows.get(idHash);
      if (row) row.lastSeenAt = at;
    },
    async delete(idHash: string) {
      const row = rows.get(idHash) ?? null;
      rows.delete(idHash);
      return row;
    },
    async deleteStale() {
      return 0;
    },
  } as unknown as SessionRepository;
}

const minute = 60_000;
const login = { state: 's', nonce: 'n', codeVerifier: 'v', returnTo: '/' };

function serviceAt(clock: { now: number }) {
  return new SessionService(
    memoryRepository(),
    { idleMs: 30 * minute, absoluteMs: 12 * 60 * minute },
    () => new Date(clock.now),
  );
}

describe('sessions', () => {
  it('ends a session idle for more than 30 minutes', async () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const sessions = serviceAt(clock);
    const token = await sessions.startUserSession('user-1', 'id-token');
    clock.now += 29 * minute;
    expect(await sessions.resolve(token)).not.toBeNull();
    clock.now += 29 * minute; // active 29 minutes ago: still alive
    expect(await sessions.resolve(token)).not.toBeNull();
    clock.now += 31 * minute;
    expect(await sessions.resolve(token)).toBeNull();
  });

  it('ends an active session 12 hours after sign-in', async () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const sessions = serviceAt(clock);
    const token = await sessions.startUserSession('user-1', 'id-token');
    for (let elapsed = 0; elapsed < 12 * 60 - 20; elapsed += 20) {
      clock.now += 20 * minute;
      expect(await sessions.resolve(token)).not.toBeNull();
    }
    clock.now += 40 * minute;
    expect(await sessions.resolve(token)).toBeNull();
  });

  it('answers the user of a live session, with the same idle and absolute limits, and none after sign-out', async () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const sessions = serviceAt(clock);
    const token = await sessions.startUserSession('user-1', 'id-token');
    clock.now += 29 * minute;
    expect(await sessions.resolveUser(token)).toMatchObject({ id: 'user-1' });
    clock.now += 31 * minute;
    expect(await sessions.resolveUser(token)).toBeNull();
    expect(await sessions.resolve(token)).toBeNull(); // the idle session was ended, not only refused

    const active = await sessions.startUserSession('user-1', 'id-token');
    for (let elapsed = 0; elapsed < 12 * 60 - 20; elapsed += 20) {
      clock.now += 20 * minute;
      expect(await sessions.resolveUser(active)).toMatchObject({ id: 'user-1' });
    }
    clock.now += 40 * minute;
    expect(await sessions.resolveUser(active)).toBeNull();

    const ended = await sessions.startUserSession('user-1', 'id-token');
    expect(await sessions.resolveUser(ended)).not.toBeNull();
    await sessions.end(ended);
    expect(await sessions.resolveUser(ended)).toBeNull();
    expect(await sessions.resolveUser(await sessions.startLogin(login))).toBeNull();
  });

  it('uses a login transaction once, and never as a user session', async () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const sessions = serviceAt(clock);
    const token = await sessions.startLogin(login);
    expect(await sessions.resolve(token)).toBeNull();
    expect(await sessions.takeLogin(token)).toEqual(login);
    expect(await sessions.takeLogin(token)).toBeNull();
  });

  it('refuses a login transaction older than 30 minutes', async () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const sessions = serviceAt(clock);
    const token = await sessions.startLogin(login);
    clock.now += 31 * minute;
    expect(await sessions.takeLogin(token)).toBeNull();
  });

  it('issues distinct random tokens', async () => {
    const sessions = serviceAt({ now: Date.now() });
    const tokens = new Set(await Promise.all(Array.from({ length: 50 }, () => sessions.startUserSession('u', 't'))));
    expect(tokens.size).toBe(50);
    for (const token of tokens) expect(token).toMatch(/^[\w-]{43}$/);
  });
});
