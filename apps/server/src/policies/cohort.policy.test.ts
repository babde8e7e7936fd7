import { noPermissionMessage, roleRefusalMessages } from '@insilico/contracts';
import { describe, expect, it } from 'vitest';
import { decideCohort } from './cohort.policy';

describe('cohort policy refusals', () => {
  const guest = { role: 'guest', status: 'ok' } as const;

  it('refuses a guest an order in words about the workspace (ordering involves no project)', () => {
    for (const action of ['cohort.order', 'cohort.request-pathology'] as const)
      expect(decideCohort(action, guest)).toEqual({
        allowed: false,
        code: 'forbidden',
        message: roleRefusalMessages.cohortOrder,
      });
  });

  it('refuses a guest a cohort of another project with the no-permission message of spec §6', () => {
    expect(decideCohort('cohort.read', guest, { onCallersProject: false })).toMatchObject({
      message: noPermissionMessage,
    });
    expect(decideCohort('cohort.read', guest, { onCallersProject: true })).toEqual({ allowed: true });
  });
});
