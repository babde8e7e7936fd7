import { designHistoryEntryKinds, entryKindSections } from '@insilico/contracts';
import { describe, expect, it } from 'vitest';
import type { DesignHistoryEntryRow, TimelineEventRow } from '../repositories/design-history.repository';
import { entryAddedAction, eventSections, sectionOf, selectionOf, signedAction } from './design-history-sections';
import { contentHashOf, manifestOf, signingSessionKey } from './design-history.service';

const entry: DesignHistoryEntryRow = {
  id: '6f1c1e9e-5b1e-4a55-9d43-0e7a2b7e1a01',
  deviceId: '0b0f4c1e-1111-4a55-9d43-0e7a2b7e1a01',
  projectId: '1c2d3e4f-2222-4a55-9d43-0e7a2b7e1a01',
  kind: 'design_input',
  title: 'Sizing range',
  body: '20–29 mm',
  evidenceEventIds: [3, 7],
  supersedesId: null,
  createdBy: '2d3e4f5a-3333-4a55-9d43-0e7a2b7e1a01',
  createdAt: new Date('2026-11-28T03:00:00.123Z'),
  updatedAt: new Date('2026-11-28T03:00:00.123Z'),
};

const event: TimelineEventRow = {
  id: 42,
  seq: 40,
  occurredAt: new Date('2026-11-28T02:00:00.000Z'),
  actorId: entry.createdBy,
  actorName: 'Ada Lovelace',
  action: 'project.status_changed',
  objectType: 'project',
  objectId: entry.projectId,
  deviceId: entry.deviceId,
  projectId: entry.projectId,
  before: { status: 'active' },
  after: { status: 'completed', name: 'Valve' },
  reason: 'Done',
  requestId: 'r1',
  prevHash: 'a'.repeat(64),
  hash: 'b'.repeat(64),
};

describe('the design history sections', () => {
  it('files entries by their kind and events by their action; other events are not design history', () => {
    for (const kind of designHistoryEntryKinds)
      expect(sectionOf(entryAddedAction, { kind, title: 't' })).toBe(entryKindSections[kind]);
    expect(sectionOf('project.version_added', null)).toBe('output');
    expect(sectionOf('simulation.started', null)).toBe('evidence');
    expect(sectionOf(signedAction, null)).toBe('review');
    expect(sectionOf('comment.created', null)).toBeNull();
    expect(sectionOf('room.renamed', null)).toBeNull();
  });

  it('selects the actions and entry kinds of one section, or all of them', () => {
    const outputs = selectionOf('output');
    expect(outputs.actions.sort()).toEqual(['project.version_added', 'project.version_removed']);
    expect(outputs.entryKinds).toEqual(['design_output']);
    const all = selectionOf(undefined);
    expect(all.actions).toHaveLength(Object.keys(eventSections).length);
    expect(all.entryKinds).toEqual([...designHistoryEntryKinds]);
  });
});

describe('the signed manifest', () => {
  it('hashes the same content to the same SHA-256 whatever the key order', () => {
    const hash = contentHashOf(manifestOf({ type: 'entry', row: entry }));
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    const reordered = Object.fromEntries(Object.entries(entry).reverse()) as DesignHistoryEntryRow;
    expect(contentHashOf(manifestOf({ type: 'entry', row: reordered }))).toBe(hash);
  });

  it('changes with any signed field, and with the record it names (a signature cannot move)', () => {
    const hash = contentHashOf(manifestOf({ type: 'entry', row: entry }));
    for (const changed of [
      { ...entry, title: 'Sizing range ' },
      { ...entry, body: '20–30 mm' },
      { ...entry, kind: 'review' },
      { ...entry, evidenceEventIds: [3] },
      { ...entry, id: '7f1c1e9e-5b1e-4a55-9d43-0e7a2b7e1a01' },
      { ...entry, createdAt: new Date('2026-11-28T03:00:00.124Z') },
    ])
      expect(contentHashOf(manifestOf({ type: 'entry', row: changed })), JSON.stringify(changed)).not.toBe(hash);
    // The same entry, edited after signing only in what is not signed (its edit time), still verifies.
    expect(contentHashOf(manifestOf({ type: 'entry', row: { ...entry, updatedAt: new Date() } }))).toBe(hash);
  });

  it('binds an evidence snapshot to the event as recorded, not to its place in the chain', () => {
    const hash = contentHashOf(manifestOf({ type: 'event', row: event }));
    expect(contentHashOf(manifestOf({ type: 'event', row: { ...event, seq: null, hash: null } }))).toBe(hash);
    expect(contentHashOf(manifestOf({ type: 'event', row: { ...event, id: 43 } }))).not.toBe(hash);
    expect(contentHashOf(manifestOf({ type: 'event', row: { ...event, after: { status: 'abandoned' } } }))).not.toBe(
      hash,
    );
  });

  it('keys a session for signing apart from its session id hash', () => {
    expect(signingSessionKey('token-a')).toMatch(/^[0-9a-f]{64}$/);
    expect(signingSessionKey('token-a')).not.toBe(signingSessionKey('token-b'));
  });
});
