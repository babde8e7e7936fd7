import { describe, expect, it } from 'vitest';
import { rerunNeeded, type ProjectEventFact } from './design-history-impact';

const p = 'project-1';
const fact = (
  id: number,
  action: string,
  objectId: string,
  after: unknown = null,
  projectId = p,
): ProjectEventFact => ({
  id,
  projectId,
  action,
  objectId,
  after,
});
const run = fact(10, 'simulation.started', 'sim-1', { deviceVersionId: 'v1', name: 'Run 1' });
const trial = fact(11, 'trial.started', 'trial-1', { deviceVersionId: 'v1' });

describe('change impact: evidence to be re-run', () => {
  it('is current while no other version came into the project after it', () => {
    expect(rerunNeeded(run, [fact(5, 'project.version_added', 'v1', { name: 'Gen 1' })])).toBeNull();
    expect(rerunNeeded(run, [fact(5, 'project.version_added', 'v2', { name: 'Gen 2' })])).toBeNull();
    expect(rerunNeeded(run, [fact(12, 'project.version_added', 'v1', { name: 'Gen 1' })])).toBeNull();
  });

  it('is to be re-run once a newer version joins the project, named by the newest one', () => {
    const facts = [
      fact(12, 'project.version_added', 'v2', { name: 'Gen 2' }),
      fact(13, 'device_version.created', 'v3', { name: 'Gen 3' }),
      fact(14, 'project.version_added', 'v4', { name: 'Gen 4' }, 'project-2'),
    ];
    expect(rerunNeeded(run, facts)).toEqual({ versionId: 'v3', versionName: 'Gen 3' });
  });

  it('is current again when that version left the project', () => {
    const facts = [
      fact(12, 'project.version_added', 'v2', { name: 'Gen 2' }),
      fact(15, 'project.version_removed', 'v2', null),
    ];
    expect(rerunNeeded(run, facts)).toBeNull();
  });

  it('is cleared for a trial re-run on the newer version', () => {
    const facts = [
      fact(12, 'project.version_added', 'v2', { name: 'Gen 2' }),
      fact(16, 'trial.rerun', 'trial-2', { deviceVersionId: 'v2', basedOnTrialId: 'trial-1' }),
    ];
    expect(rerunNeeded(trial, facts)).toBeNull();
    expect(rerunNeeded(trial, facts.slice(0, 1))).toEqual({ versionId: 'v2', versionName: 'Gen 2' });
  });

  it('does not apply to events that name no version', () => {
    const facts = [fact(12, 'project.version_added', 'v2', { name: 'Gen 2' })];
    expect(rerunNeeded(fact(10, 'analysis.created', 'a-1', { deviceVersionId: 'v1' }), facts)).toBeNull();
    expect(rerunNeeded(fact(10, 'simulation.started', 's-1', {}), facts)).toBeNull();
  });
});
