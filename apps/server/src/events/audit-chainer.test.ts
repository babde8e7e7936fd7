import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../test/helpers/test-server';
import { openDatabase, type Database } from '../db/client';
import { AuditChainer } from './audit-chainer';
import { ChainVerifier, genesisHash, linkRows, type ChainVerdict } from './chain';
import { DomainEventRepository } from './domain-event.repository';

const silent = { error: () => undefined };

// Runs on whichever engine the run uses (embedded, or PostgreSQL with TEST_DATABASE_URL).
describe('AuditChainer', () => {
  let db: Database;

  beforeAll(async () => {
    db = await openDatabase((await freshDatabase()).target);
  }, 60_000);
  afterAll(async () => {
    await db?.close();
  });

  /** `writers` concurrent writers, each committing `each` one-event transactions (a chainer scheduled after each). */
  async function write(writers: number, each: number, tag: string, chainer?: AuditChainer): Promise<void> {
    await Promise.all(
      Array.from({ length: writers }, async (_, writer) => {
        for (let i = 0; i < each; i += 1) {
          await db.orm.transaction((tx) =>
            new DomainEventRepository(tx).append([
              {
                actorId: null,
                action: 'test.row_written',
                objectType: 'test',
                objectId: `${tag}-${writer}-${i}`,
                deviceId: null,
                projectId: null,
                before: i % 2 === 0 ? null : { value: i - 1 },
                after: { value: i, writer, note: 'ä€😀' },
              },
            ]),
          );
          chainer?.schedule();
        }
      }),
    );
  }

  type Linked = { id: number; objectId: string };
  async function verify(): Promise<ChainVerdict & { inChainOrder: Linked[] }> {
    const repository = new DomainEventRepository(db.orm);
    const verifier = new ChainVerifier();
    const inChainOrder: Linked[] = [];
    for (let after = 0; ;) {
      const rows = await repository.page(after, 500);
      if (rows.length === 0) break;
      for (const row of rows) {
        verifier.add(row);
        inChainOrder.push({ id: row.id, objectId: row.objectId });
      }
      after = rows.at(-1)!.seq;
    }
    return { ...verifier.verdict(), inChainOrder };
  }

  const ascending = (values: number[]) => [...values].sort((a, b) => a - b);

  /**
   * What the chain promises about order. A row committed before another was written comes earlier in the chain: so
   * each writer's rows (one transaction after the other) keep their order. Rows of transactions that were open at
   * the same time may be linked in the order they became visible, not of their ids: on PostgreSQL an id is drawn
   * at the INSERT and a smaller one can commit later.
   */
  function expectEachWriterInOrder(inChainOrder: Linked[], tag: string) {
    const byWriter = new Map<string, number[]>();
    for (const { objectId } of inChainOrder) {
      const [rowTag, writer, i] = objectId.split('-');
      if (rowTag !== tag) continue;
      byWriter.set(writer!, [...(byWriter.get(writer!) ?? []), Number(i)]);
    }
    expect(byWriter.size).toBeGreaterThan(0);
    for (const order of byWriter.values()) expect(order).toEqual(ascending(order));
  }

  const pending = () => new DomainEventRepository(db.orm).pendingCount();

  it('appends several events in one statement: ids in the events’ order, the actor’s name at the time', async () => {
    const actor = await db.executeSql(
      `insert into users (issuer, subject, email, full_name) values ('t', 'append', 'append@example.com', 'Ada Append') returning id`,
    );
    const actorId = String(actor.rows[0]!.id);
    const missing = '99999999-9999-4999-8999-999999999999';
    const base = { action: 'test.appended', objectType: 'test', deviceId: null, projectId: null };
    const ids = await db.orm.transaction((tx) =>
      new DomainEventRepository(tx).append([
        {
          ...base,
          actorId,
          objectId: 'first',
          before: { n: 1 },
          after: { n: 2, at: new Date('2026-02-02T10:00:00Z') },
        },
        { ...base, actorId: null, onBehalfOf: actorId, objectId: 'second', reason: 'Because' },
        { ...base, actorId: null, onBehalfOf: missing, objectId: 'third' },
        { ...base, actorId: null, objectId: 'fourth' },
      ]),
    );
    expect(ids).toHaveLength(4);
    const { rows } = await db.executeSql(
      `select id, object_id, actor_id, actor_name, before, after, reason from domain_events where action = 'test.appended' order by id`,
    );
    expect(rows.map((row) => Number(row.id))).toEqual(ids);
    expect(rows.map((row) => [row.object_id, row.actor_name])).toEqual([
      ['first', 'Ada Append'],
      ['second', 'System (for Ada Append)'],
      ['third', 'System (for a former user)'],
      ['fourth', null],
    ]);
    expect(rows[0]).toMatchObject({
      actor_id: actorId,
      before: { n: 1 },
      after: { n: 2, at: '2026-02-02T10:00:00.000Z' },
    });
    expect(rows[1]).toMatchObject({ actor_id: null, before: null, after: null, reason: 'Because' });
    await new AuditChainer(db.orm, silent).chainAll();
  }, 60_000);

  it('links concurrent writers’ rows in the order written', async () => {
    const chainer = new AuditChainer(db.orm, silent);
    await write(6, 20, 'a', chainer);
    await chainer.idle();
    await chainer.chainAll();
    expect(await pending()).toBe(0);
    const verdict = await verify();
    expect(verdict.breaks).toEqual([]);
    expect(verdict).toMatchObject({ ok: true, rows: 124, headSeq: 124 });
    // Every row once (the verdict checks places 1…n without gap or repeat), each writer's rows in its order.
    const ids = verdict.inChainOrder.map((row) => row.id);
    expect(new Set(ids).size).toBe(ids.length);
    expectEachWriterInOrder(verdict.inChainOrder, 'a');
    // The stored hashes are the ones linkRows gives the rows in chain order from the genesis.
    const rows = await new DomainEventRepository(db.orm).page(0, 1000);
    expect(rows).toHaveLength(124);
    const again = linkRows(
      { seq: 0, hash: genesisHash },
      rows.map(({ seq: _seq, prevHash: _prevHash, hash: _hash, ...row }) => row),
    );
    expect(again.map((link) => link.hash)).toEqual(rows.map((row) => row.hash));
  }, 120_000);

  it('does not fork the chain when two chainers (of two processes) run at once', async () => {
    const one = new AuditChainer(db.orm, silent);
    const other = new AuditChainer(db.orm, silent);
    await write(4, 15, 'c');
    const linked = await Promise.all([one.chainAll(), other.chainAll(), one.chainAll()]);
    expect(linked.reduce((sum, n) => sum + n, 0)).toBe(60);
    const verdict = await verify();
    expect(verdict.breaks).toEqual([]);
    expect(verdict).toMatchObject({ ok: true, rows: 184, headSeq: 184 });
    // All of these rows had committed before either chainer started: they are linked in the order of their ids.
    const written = verdict.inChainOrder.filter((row) => row.objectId.startsWith('c-')).map((row) => row.id);
    expect(written).toHaveLength(60);
    expect(written).toEqual(ascending(written));
  }, 120_000);
});
