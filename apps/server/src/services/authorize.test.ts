import { noPermissionMessage, roleRefusalMessages } from '@insilico/contracts';
import { describe, expect, it } from 'vitest';
import { workspaceNotFoundMessage } from '../policies/workspace.policy';
import { authorize, authorizeCohort, authorizeProject } from './authorize';
import { ServiceError } from './errors';

/** The error a call throws (fails the test when it throws nothing). */
function thrown(call: () => void): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  return expect.unreachable('expected a refusal');
}

describe('authorize: a policy refusal as the HTTP error', () => {
  it('answers 404 to outsiders and invitees, with the not-found message', () => {
    for (const grant of [null, { role: 'admin', status: 'invited' } as const]) {
      const error = thrown(() => authorize('team.manage', grant));
      expect(error).toBeInstanceOf(ServiceError);
      expect(error).toMatchObject({ status: 404, code: 'not_found', message: workspaceNotFoundMessage });
    }
  });

  it('answers 403 to members without the right and to those pending approval', () => {
    expect(thrown(() => authorize('team.manage', { role: 'member', status: 'ok' }))).toMatchObject({
      status: 403,
      code: 'forbidden',
    });
    expect(thrown(() => authorize('team.read', { role: 'admin', status: 'pending_approval' }))).toMatchObject({
      status: 403,
      code: 'pending_approval',
    });
    expect(() => authorize('team.manage', { role: 'admin', status: 'ok' })).not.toThrow();
  });

  it('answers projects and cohorts the same way', () => {
    const guest = { role: 'guest', status: 'ok' } as const;
    expect(thrown(() => authorizeProject('project.read', { grant: guest, onTeam: false }))).toMatchObject({
      status: 403,
      code: 'forbidden',
      message: noPermissionMessage,
    });
    expect(thrown(() => authorizeProject('project.read', { grant: null, onTeam: false }))).toMatchObject({
      status: 404,
    });
    expect(() => authorizeProject('project.read', { grant: guest, onTeam: true })).not.toThrow();
    expect(thrown(() => authorizeCohort('cohort.order', guest))).toMatchObject({
      status: 403,
      code: 'forbidden',
      message: roleRefusalMessages.cohortOrder,
    });
    expect(thrown(() => authorizeCohort('cohort.read', null))).toMatchObject({ status: 404 });
    expect(() => authorizeCohort('cohort.read', guest, { onCallersProject: true })).not.toThrow();
  });
});
