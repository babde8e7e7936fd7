import { describe, expect, it } from 'vitest';
import type { TeamMember } from '@insilico/contracts';
import { actionsFor, displayName, orderTeam, pageOf, rowKey, searchTeam } from './teamRows';

const member = (overrides: Partial<TeamMember>): TeamMember => ({
  userId: 'u-1',
  invitationId: null,
  info: 'ada@example.com',
  fullName: 'Ada Lovelace',
  pictureUrl: null,
  role: 'member',
  status: 'ok',
  ...overrides,
});

const ada = member({});
const grace = member({ userId: 'u-2', info: 'grace@navy.mil', fullName: 'Grace Hopper', role: 'admin' });
const pending = member({
  userId: 'u-3',
  info: 'alan@example.com',
  fullName: 'Alan Turing',
  status: 'pending_approval',
});
const invited = member({
  userId: null,
  invitationId: 'i-1',
  info: 'ken@example.com',
  fullName: null,
  status: 'invited',
});

describe('team rows', () => {
  it('names and keys rows, invitations by their e-mail and id', () => {
    expect(displayName(invited)).toBe('ken@example.com');
    expect(displayName(member({ fullName: '  ' }))).toBe('ada@example.com');
    expect(rowKey(ada)).toBe('u-1');
    expect(rowKey(invited)).toBe('invitation:i-1');
  });

  it('searches name and e-mail, case-insensitively', () => {
    const team = [ada, grace, pending, invited];
    expect(searchTeam(team, 'HOPPER')).toEqual([grace]);
    expect(searchTeam(team, 'example.com')).toEqual([ada, pending, invited]);
    expect(searchTeam(team, '  ')).toEqual(team);
    expect(searchTeam(team, 'nobody')).toEqual([]);
  });

  it('puts pending users first, invitations last, names in order', () => {
    expect(orderTeam([invited, grace, ada, pending])).toEqual([pending, ada, grace, invited]);
  });

  it('pages rows and keeps a page past the end on the last one', () => {
    const rows = Array.from({ length: 23 }, (_, index) => index);
    expect(pageOf(rows, 0, 10).rows).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(pageOf(rows, 2, 10)).toEqual({ rows: [20, 21, 22], page: 2 });
    expect(pageOf(rows, 5, 10).page).toBe(2);
    expect(pageOf([], 3, 10)).toEqual({ rows: [], page: 0 });
  });

  it('offers admins the actions of each status, others none', () => {
    expect(actionsFor(ada, false, 'u-2')).toEqual([]);
    expect(actionsFor(ada, true, 'u-2')).toEqual(['changeRole', 'remove']);
    expect(actionsFor(grace, true, 'u-2')).toEqual(['changeRole']);
    expect(actionsFor(pending, true, 'u-2')).toEqual(['accept', 'decline']);
    expect(actionsFor(invited, true, 'u-2')).toEqual(['revoke']);
  });
});
