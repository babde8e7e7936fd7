import { describe, expect, it } from 'vitest';
import { deviceVersionFailedMessage } from '@insilico/contracts';
import type { CommittedEvent } from '../events/domain-event';
import { systemEvent } from '../events/kinds';
import { JobNotifications } from './job-notifications';
import type { PostNotification } from './notification.service';

const deviceId = '5b0c9a4e-3f7e-4a51-9d8e-0f6f8f7c1a11';
const projectId = '9a1d2c3b-4e5f-4a6b-8c7d-0e1f2a3b4c5d';
const orderer = '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed';
const teammate = '2c8e7dbe-ccae-4c3e-8c6e-bc9ecccd5cfe';
const objectId = '7d8f4a34-3c1e-4b8e-9a51-0c4f1f7b2a10';

function subscriber() {
  const posted: PostNotification[] = [];
  const notifications = new JobNotifications(
    {
      post: async (input) => {
        posted.push(input);
        return null;
      },
    },
    async (id) => (id === projectId ? [orderer, teammate] : []),
  );
  return { notifications, posted };
}

/** As the event relay hands them over: one by one. */
async function deliver(notifications: JobNotifications, events: readonly CommittedEvent[]): Promise<void> {
  for (const given of events) await notifications.handle(given);
}

let nextId = 1;
function committed(event: ReturnType<typeof systemEvent>): CommittedEvent {
  return { ...event, id: nextId++ };
}

const event = (
  action: string,
  type: string,
  after: Record<string, unknown>,
  project: string | null = null,
): CommittedEvent => committed(systemEvent(orderer, deviceId, project, action, { type, id: objectId }, after));

describe('notifications of work that ends in the background (issue 20: subscribers of the system events)', () => {
  it.each([
    [
      event('cohort.prepared', 'cohort', { name: 'Tall women', size: 20 }),
      {
        kind: 'cohort.ready',
        title: 'Cohort Tall women is ready',
        body: 'Its 20 synthetic patients and their anatomy can be viewed now.',
        link: `/patient-cohort/cohorts/${objectId}?device=${deviceId}`,
        dedupeKey: `cohort-ready:${objectId}`,
      },
    ],
    [
      event('cohort.failed', 'cohort', { name: 'Tall women', error: 'x' }),
      {
        kind: 'cohort.failed',
        title: 'Cohort Tall women could not be prepared',
        dedupeKey: `cohort-failed:${objectId}`,
      },
    ],
    [
      event('measurement.measured', 'measurement', { cohortName: 'Tall women', measurements: 21, patients: 20 }),
      {
        kind: 'measurement.ready',
        title: 'Measurements of cohort Tall women are ready',
        body: '21 measurements on 20 patients can be viewed now.',
        link: `/measurement/order?order=${objectId}&device=${deviceId}`,
        dedupeKey: `measurement-ready:${objectId}`,
      },
    ],
    [
      event('measurement.failed', 'measurement', { cohortName: 'Tall women' }),
      { kind: 'measurement.failed', title: 'Measurements of cohort Tall women could not be taken' },
    ],
    [
      event('ssm.built', 'ssm', { name: 'Roots', shapeCount: 12 }, projectId),
      {
        kind: 'ssm.ready',
        title: 'SSM Roots is ready',
        body: 'Its modes and quality measures from 12 patients can be viewed now.',
      },
    ],
    [
      event('imaging.dataset_checked', 'imaging_dataset', { name: 'CT', accepted: false }),
      { kind: 'imaging.refused', title: 'Imaging dataset CT was refused', dedupeKey: `imaging-checked:${objectId}` },
    ],
    [
      event('simulation.completed', 'simulation', { name: 'Run 1', roomId: objectId, trialRun: false }, projectId),
      {
        kind: 'simulation.completed',
        title: 'Simulation Run 1 has finished',
        body: 'Its results are ready to analyse.',
      },
    ],
    [
      event('trial.finished', 'trial', { name: 'Ring', patients: 5, done: 4, failed: 1 }, projectId),
      { kind: 'trial.completed', title: 'Trial Ring has finished', body: '4 of 5 patients done, 1 failed.' },
    ],
    [
      event('trial.outcomes_read', 'trial', { name: 'Ring', patients: 5, read: 4, failed: 1 }, projectId),
      {
        kind: 'trial.outcomes_read',
        title: 'The outcomes of trial Ring were read again',
        body: '4 of 5 patients read from their saved outputs, 1 could not be read.',
        link: `/projects/trial?project=${projectId}&trial=${objectId}&device=${deviceId}`,
      },
    ],
  ])('tells whoever started it: %#', async (given, expected) => {
    const { notifications, posted } = subscriber();
    await deliver(notifications, [given]);
    expect(posted).toEqual([expect.objectContaining({ userId: orderer, ...expected })]);
  });

  it('tells the target project’s team of a processed device version too, each once', async () => {
    const { notifications, posted } = subscriber();
    await deliver(notifications, [
      event('device_version.failed', 'device_version', { name: 'V2', targetProjectId: projectId }),
    ]);
    expect(posted.map((note) => note.userId)).toEqual([orderer, teammate]);
    expect(posted[0]).toMatchObject({
      kind: 'device-version.failed',
      title: 'Device version V2 could not be processed',
      body: deviceVersionFailedMessage,
    });
  });

  it('tells the uploader, not the staff who delivered them, that an imaging cohort’s models were delivered', async () => {
    const { notifications, posted } = subscriber();
    // The staff (`orderer`) delivered; the dataset's uploader (`teammate`) is who to tell.
    await deliver(notifications, [
      event('imaging.models_delivered', 'imaging_dataset', { name: 'CT', patients: 3, tell: teammate }),
      event('imaging.models_delivered', 'imaging_dataset', { name: 'CT', patients: 3, tell: null }),
    ]);
    expect(posted).toEqual([
      {
        userId: teammate,
        kind: 'imaging.ready',
        title: 'The imaging cohort CT is ready',
        body: 'Patient models of 3 patients were delivered.',
        link: `/upload-images/success?dataset=${objectId}&device=${deviceId}`,
        dedupeKey: `imaging-ready:${objectId}`,
      },
    ]);
  });

  it('tells nobody of a trial’s runs, of events people made themselves, or of work nobody started', async () => {
    const { notifications, posted } = subscriber();
    const person = { ...event('cohort.prepared', 'cohort', { name: 'A' }), actorId: orderer };
    const nobody = committed(systemEvent(null, deviceId, null, 'cohort.prepared', { type: 'cohort', id: objectId }));
    await deliver(notifications, [
      event('simulation.failed', 'simulation', { name: 'R', roomId: objectId, trialRun: true }, projectId),
      person,
      nobody,
    ]);
    expect(posted).toEqual([]);
  });

  it('throws when a post fails, so that the relay delivers the event again', async () => {
    const notifications = new JobNotifications(
      {
        post: async () => {
          throw new Error('database gone');
        },
      },
      async () => [],
    );
    await expect(notifications.handle(event('cohort.prepared', 'cohort', { name: 'A' }))).rejects.toThrow(
      'database gone',
    );
  });
});
