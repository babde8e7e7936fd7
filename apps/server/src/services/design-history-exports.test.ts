import { designHistoryExportRetentionDays } from '@insilico/contracts';
import { describe, expect, it } from 'vitest';
import { systemEvent } from '../events/kinds';
import { directExportLimits, exportDelivery, exportFailedAction } from './design-history-exports';
import { exportedAction } from './design-history-sections';
import { JobNotifications } from './job-notifications';
import type { PostNotification } from './notification.service';

describe('the design history file: in the request or by a job', () => {
  const { items, snapshotBytes } = directExportLimits;

  it('answers a small history in the request, up to and including both limits', () => {
    expect(exportDelivery({ items: 0, snapshotBytes: 0 })).toBe('direct');
    expect(exportDelivery({ items, snapshotBytes })).toBe('direct');
  });

  it('makes the file by a job past either limit', () => {
    expect(exportDelivery({ items: items + 1, snapshotBytes: 0 })).toBe('job');
    expect(exportDelivery({ items: 1, snapshotBytes: snapshotBytes + 1 })).toBe('job');
    expect(exportDelivery({ items: 10 * items, snapshotBytes: 10 * snapshotBytes })).toBe('job');
  });

  it('keeps the request under a second of CPU-pool work at the measured costs (1 ms an item, 0.15 s a MiB)', () => {
    expect(items * 1 + (snapshotBytes / 1024 / 1024) * 150).toBeLessThan(1_000);
  });
});

describe('the notification of an export job (a subscriber of its system events)', () => {
  const deviceId = '5b0c9a4e-3f7e-4a51-9d8e-0f6f8f7c1a11';
  const requester = '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed';
  const exportId = '7d8f4a34-3c1e-4b8e-9a51-0c4f1f7b2a10';
  const posted: PostNotification[] = [];
  const subscriber = new JobNotifications(
    {
      post: async (input) => {
        posted.push(input);
        return null;
      },
    },
    async () => [],
  );
  const handle = (action: string, after: Record<string, unknown>, actor: string | null = null) =>
    subscriber.handle({
      ...systemEvent(requester, deviceId, null, action, { type: 'device', id: deviceId }, { exportId, ...after }),
      ...(actor ? { actorId: actor } : {}),
      id: 1,
    });

  it('tells the requester the file is ready, linking to the page that offers its download, once per export', async () => {
    posted.length = 0;
    await handle(exportedAction, { name: 'design-history-valve-2026-11-28.zip', sha256: 'a'.repeat(64) });
    await handle(exportFailedAction, { error: 'The file could not be made: disk full' });
    expect(posted).toEqual([
      {
        userId: requester,
        kind: 'design-history.export_ready',
        title: 'Your design history file is ready',
        body: `Download design-history-valve-2026-11-28.zip from the design history page within ${designHistoryExportRetentionDays} days; it is removed after that.`,
        link: `/design-history?export=${exportId}`,
        dedupeKey: `design-history-export-ready:${exportId}`,
      },
      expect.objectContaining({
        userId: requester,
        kind: 'design-history.export_failed',
        dedupeKey: `design-history-export-failed:${exportId}`,
      }),
    ]);
  });

  it('tells nobody of a file answered in the request (the person’s own event)', async () => {
    posted.length = 0;
    await handle(exportedAction, { name: 'x.pdf' }, requester);
    expect(posted).toEqual([]);
  });
});
