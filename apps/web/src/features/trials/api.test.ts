import { describe, expect, it } from 'vitest';
import type { TrialCounts } from '@insilico/contracts';
import { isTrialMoving } from './api';

const counts = (over: Partial<TrialCounts>): TrialCounts => ({
  total: 5,
  done: 0,
  running: 0,
  queued: 0,
  failed: 0,
  cancelled: 0,
  ...over,
});

describe('isTrialMoving (whether the trial views keep asking)', () => {
  it('keeps asking while the trial runs', () => {
    expect(isTrialMoving({ status: 'running', counts: counts({ done: 5 }) })).toBe(true);
  });

  it('keeps asking while a cancelled trial still has a patient running or queued', () => {
    expect(isTrialMoving({ status: 'cancelled', counts: counts({ done: 1, running: 1, cancelled: 3 }) })).toBe(true);
    expect(isTrialMoving({ status: 'cancelled', counts: counts({ queued: 1, cancelled: 4 }) })).toBe(true);
  });

  it('stops once nothing runs or waits', () => {
    expect(isTrialMoving({ status: 'cancelled', counts: counts({ done: 2, cancelled: 3 }) })).toBe(false);
    expect(isTrialMoving({ status: 'completed', counts: counts({ done: 4, failed: 1 }) })).toBe(false);
  });
});
