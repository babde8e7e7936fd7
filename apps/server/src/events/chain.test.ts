import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, ChainVerifier, genesisHash, hashOf, type StoredRow } from './chain';

function chain(n: number): StoredRow[] {
  const rows: StoredRow[] = [];
  let prevHash = genesisHash;
  for (let seq = 1; seq <= n; seq += 1) {
    const content = {
      seq,
      id: seq + 100,
      occurredAt: `2026-02-02T10:00:0${seq % 10}.123456Z`,
      actorId: null,
      actorName: 'Ada',
      action: 'project.status_changed',
      objectType: 'project',
      objectId: `p-${seq}`,
      deviceId: null,
      projectId: null,
      before: { status: 'active' },
      after: { status: 'completed', n: seq },
      reason: 'Done',
      requestId: `r-${seq}`,
      prevHash,
    };
    const hash = hashOf(content);
    rows.push({ ...content, hash });
    prevHash = hash;
  }
  return rows;
}

function verify(rows: StoredRow[]) {
  const verifier = new ChainVerifier();
  for (const row of rows) verifier.add(row);
  return verifier.verdict();
}

describe('canonical JSON', () => {
  it('orders keys, drops undefined members and has no spaces', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], c: undefined, d: { z: 1, y: 2 } })).toBe(
      '{"a":[true,null,"x"],"b":1,"d":{"y":2,"z":1}}',
    );
  });

  it('hashes SHA-256 of the canonical array, independently recomputed', () => {
    const [row] = chain(1);
    const text = JSON.stringify([
      1,
      101,
      row!.occurredAt,
      null,
      'Ada',
      'project.status_changed',
      'project',
      'p-1',
      null,
      null,
      { status: 'active' },
      { n: 1, status: 'completed' },
      'Done',
      'r-1',
      genesisHash,
    ]);
    expect(row!.hash).toBe(createHash('sha256').update(text).digest('hex'));
  });
});

describe('the chain verifier', () => {
  it('accepts an intact chain and reports its head', () => {
    const rows = chain(5);
    expect(verify(rows)).toMatchObject({ ok: true, rows: 5, headSeq: 5, headHash: rows[4]!.hash, breaks: [] });
  });

  it('names an edited row (every field, in every position)', () => {
    const fields = [
      'id',
      'occurredAt',
      'actorName',
      'action',
      'objectId',
      'before',
      'after',
      'reason',
      'requestId',
    ] as const;
    for (let index = 0; index < 5; index += 1)
      for (const field of fields) {
        const rows = chain(5);
        const value = field === 'before' ? { status: 'x' } : field === 'id' ? 7 : 'tampered';
        (rows[index] as unknown as Record<string, unknown>)[field] = value;
        const verdict = verify(rows);
        expect(verdict.ok).toBe(false);
        expect(verdict.breaks[0]).toMatchObject({ seq: index + 1, problem: 'edited' });
      }
  });

  it('names the row after an edited row whose hash was recomputed (the link breaks)', () => {
    const rows = chain(4);
    const edited = { ...rows[1]!, reason: 'Rewritten' };
    rows[1] = { ...edited, hash: hashOf(edited) };
    expect(verify(rows).breaks).toEqual([expect.objectContaining({ seq: 3, problem: 'relinked' })]);
  });

  it('names a deleted row by the gap it leaves', () => {
    const rows = chain(5);
    rows.splice(2, 1);
    expect(verify(rows).breaks).toEqual([
      expect.objectContaining({
        seq: 4,
        problem: 'deleted_before',
        message: expect.stringContaining('Row 3 was deleted'),
      }),
    ]);
  });

  it('names an inserted row, with or without a matching hash', () => {
    const rows = chain(3);
    const forged = { ...rows[2]!, seq: 4, reason: 'Forged', prevHash: rows[2]!.hash, hash: 'f'.repeat(64) };
    expect(verify([...rows, forged]).breaks).toEqual([expect.objectContaining({ seq: 4, problem: 'edited' })]);
    const linked = { ...rows[1]!, seq: 4, prevHash: rows[0]!.hash };
    const rehashed = { ...linked, hash: hashOf(linked) };
    expect(verify([...rows, rehashed]).breaks).toEqual([expect.objectContaining({ seq: 4, problem: 'relinked' })]);
  });
});
