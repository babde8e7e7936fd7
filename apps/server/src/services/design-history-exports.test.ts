import { describe, expect, it } from 'vitest';
import { directExportLimits, exportDelivery } from './design-history-exports';

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
