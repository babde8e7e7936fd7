import { describe, expect, it, vi } from 'vitest';
import { forgetCallerMembership, noteCallerMembership, withRequestContext } from '../events/request-context';
import { callerGrant, type MembershipRead } from './caller-grant';

const stored = { role: 'member', status: 'ok' };

/** A membership read that answers an admin grant and counts its calls. */
function reader() {
  return vi.fn<MembershipRead>(() => Promise.resolve({ role: 'admin', status: 'ok' }));
}

describe('callerGrant: the membership read with the session, for the request that read it', () => {
  it('answers the noted membership of that user and workspace without reading', async () => {
    const read = reader();
    await withRequestContext({ requestId: 'r1' }, async () => {
      noteCallerMembership({ userId: 'u1', deviceId: 'd1', membership: stored });
      expect(await callerGrant('u1', 'd1', read)).toEqual({ role: 'member', status: 'ok' });
    });
    expect(read).not.toHaveBeenCalled();
  });

  it('answers "not a member" when the session statement found no membership', async () => {
    const read = reader();
    await withRequestContext({ requestId: 'r2' }, async () => {
      noteCallerMembership({ userId: 'u1', deviceId: 'd1', membership: null });
      expect(await callerGrant('u1', 'd1', read)).toBeNull();
    });
    expect(read).not.toHaveBeenCalled();
  });

  it('reads for another workspace, another user, after a unit of work forgot it, and outside a request', async () => {
    const read = reader();
    const admin = { role: 'admin', status: 'ok' };
    await withRequestContext({ requestId: 'r3' }, async () => {
      noteCallerMembership({ userId: 'u1', deviceId: 'd1', membership: stored });
      expect(await callerGrant('u1', 'd2', read)).toEqual(admin);
      expect(await callerGrant('u2', 'd1', read)).toEqual(admin);
      forgetCallerMembership();
      expect(await callerGrant('u1', 'd1', read)).toEqual(admin);
    });
    expect(await callerGrant('u1', 'd1', read)).toEqual(admin);
    expect(read.mock.calls).toEqual([
      ['d2', 'u1'],
      ['d1', 'u2'],
      ['d1', 'u1'],
      ['d1', 'u1'],
    ]);
  });

  it('keeps one request’s note out of another request', async () => {
    const read = reader();
    withRequestContext({ requestId: 'r4' }, () => {
      noteCallerMembership({ userId: 'u1', deviceId: 'd1', membership: stored });
    });
    await withRequestContext({ requestId: 'r5' }, async () => {
      expect(await callerGrant('u1', 'd1', read)).toEqual({ role: 'admin', status: 'ok' });
    });
    expect(read).toHaveBeenCalledTimes(1);
  });
});
