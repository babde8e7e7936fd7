// `npm run bench -- audit`: issue 20's speed targets for the audit trail, on PostgreSQL (DATABASE_URL or
// TEST_DATABASE_URL; a database of its own is created there and dropped afterwards).
//   append — AUDIT_BENCH_WRITERS (default 20) concurrent writers, each AUDIT_BENCH_TRANSACTIONS (default 200)
//            transactions in a loop: the reference transaction inserts one row into a scratch table; the audited one
//            does the same and appends one domain event with an actor the way UnitOfWork does, and after its
//            commit schedules the chainer as the server does (the chainer links rows in its own transactions, so its
//            work competes for the same database). AUDIT_BENCH_ROUNDS (default 3) rounds of: the reference, the
//            audited one with the chainer running, and with the chaining left until after the load (the chainer's
//            share). Prints p50/p95/p99 of each, the p95 difference and ratios (target ≤ 2 ms) and how long the
//            chainer took to link everything after the last commit;
//            then the outbox row's share (migration 0027's trigger): one-event transactions on one connection, blocks
//            with the trigger on and off.
//   verify — AUDIT_BENCH_ROWS (default 1,000,000) chained rows written in bulk, then the verifier
//            (AuditService.verify: read in pages, recompute every hash and link). Target: ≤ 30 s.
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../apps/server/src/db/client';
import { AuditChainer } from '../apps/server/src/events/audit-chainer';
import { genesisHash, hashOf } from '../apps/server/src/events/chain';
import { DomainEventRepository } from '../apps/server/src/events/domain-event.repository';
import { AuditService } from '../apps/server/src/services/audit.service';

const postgresUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || null;
const writers = Number(process.env.AUDIT_BENCH_WRITERS ?? 20);
const transactions = Number(process.env.AUDIT_BENCH_TRANSACTIONS ?? 200);
const rows = Number(process.env.AUDIT_BENCH_ROWS ?? 1_000_000);
const rounds = Number(process.env.AUDIT_BENCH_ROUNDS ?? 3);

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summary(name: string, times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(sorted, p));
  console.log(`${name.padEnd(10)} p50 ${p50!.toFixed(2)} ms  p95 ${p95!.toFixed(2)} ms  p99 ${p99!.toFixed(2)} ms`);
  return p95!;
}

async function writeLoad(
  db: Database,
  audited: boolean,
  chainer: AuditChainer | null,
  actorId: string | null,
): Promise<number[]> {
  const times: number[] = [];
  const event = {
    actorId,
    action: 'bench.row_written',
    objectType: 'bench',
    objectId: 'x',
    deviceId: null,
    projectId: null,
    after: { value: 'bench' },
  };
  await Promise.all(
    Array.from({ length: writers }, async () => {
      for (let i = 0; i < transactions; i += 1) {
        const started = performance.now();
        await db.orm.transaction(async (orm) => {
          await orm.execute(sql`insert into bench_rows (value) values ('bench')`);
          if (audited) await new DomainEventRepository(orm).append([{ ...event, objectId: String(i) }]);
        });
        times.push(performance.now() - started);
        if (audited) chainer?.schedule();
      }
    }),
  );
  return times;
}

async function fillChain(db: Database, count: number): Promise<void> {
  const head = await db.executeSql(
    'select seq, hash from domain_events where seq is not null order by seq desc limit 1',
  );
  let seq = Number(head.rows[0]?.seq ?? 0);
  let prevHash = String(head.rows[0]?.hash ?? genesisHash);
  const batch = 10_000;
  for (let done = 0; done < count; done += batch) {
    const size = Math.min(batch, count - done);
    const ids = (
      await db.executeSql(`select nextval('domain_events_id_seq')::bigint as id from generate_series(1, ${size})`)
    ).rows.map((row) => Number(row.id));
    const columns: unknown[][] = Array.from({ length: 9 }, () => []);
    for (let i = 0; i < size; i += 1) {
      seq += 1;
      const content = {
        seq,
        id: ids[i]!,
        occurredAt: '2026-02-02T10:00:00.123456Z',
        actorId: null,
        actorName: 'Bench Writer',
        action: 'bench.row_written',
        objectType: 'bench',
        objectId: String(seq),
        deviceId: null,
        projectId: null,
        before: null,
        after: { value: seq },
        reason: null,
        requestId: null,
        prevHash,
      };
      const hash = hashOf(content);
      const values = [
        seq,
        content.occurredAt,
        content.actorName,
        content.objectId,
        JSON.stringify(content.after),
        prevHash,
        hash,
        content.action,
        content.id,
      ];
      values.forEach((value, k) => columns[k]!.push(value));
      prevHash = hash;
    }
    await db.executeSql(
      `insert into domain_events (seq, occurred_at, actor_name, object_id, after, prev_hash, hash, action, id, object_type)
       select s, t::timestamptz, n, o, a::jsonb, p, h, ac, i, 'bench'
       from unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
         $9::bigint[]) as u(s, t, n, o, a, p, h, ac, i)`,
      columns,
    );
  }
}

/**
 * The outbox row each event gets from migration 0027's trigger (in the event's INSERT statement): one connection,
 * one-event transactions, in alternating blocks with the trigger on and off (so load on the machine falls on both).
 */
async function outboxShare(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const one = async () => {
    const started = performance.now();
    await client.query('begin');
    await client.query(
      `insert into domain_events (action, object_type, object_id, after) values ('bench.row_written', 'bench', 'x', '{}')`,
    );
    await client.query('commit');
    return performance.now() - started;
  };
  const times = { on: [] as number[], off: [] as number[] };
  for (let i = 0; i < 300; i += 1) await one(); // warm-up
  for (let round = 0; round < 10; round += 1)
    for (const state of ['on', 'off'] as const) {
      await client.query(
        `alter table domain_events ${state === 'on' ? 'enable' : 'disable'} trigger domain_events_outbox`,
      );
      for (let i = 0; i < transactions; i += 1) times[state].push(await one());
    }
  await client.query('alter table domain_events enable trigger domain_events_outbox');
  await client.end();
  const on = summary('outbox on', times.on);
  const off = summary('outbox off', times.off);
  const median = (list: number[]) =>
    percentile(
      [...list].sort((a, b) => a - b),
      50,
    );
  console.log(
    `the outbox row adds ${(median(times.on) - median(times.off)).toFixed(3)} ms at p50, ${(on - off).toFixed(3)} ms at p95`,
  );
}

if (!postgresUrl) {
  console.log('audit: skipped (set DATABASE_URL or TEST_DATABASE_URL to a PostgreSQL server)');
  process.exit(0);
}
const name = `insilico_audit_bench_${process.pid}`;
const admin = new pg.Client({ connectionString: postgresUrl });
await admin.connect();
await admin.query(`create database ${name}`);
let met = true;
try {
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ url: url.toString(), poolSize: writers });
  try {
    await db.executeSql('create table bench_rows (id serial primary key, value text not null)');
    // A request's event names its actor: the trail keeps the actor's name, read from users by the INSERT.
    const actor = await db.executeSql(
      `insert into users (issuer, subject, email, full_name) values ('bench', 'bench', 'bench@example.com', 'Bench Writer') returning id`,
    );
    const actorId = String(actor.rows[0]!.id);
    console.log(
      `append: ${writers} writers × ${transactions} transactions each, events with an actor, ${rounds} rounds of` +
        ' reference / audited with the chainer running (as the server) / audited with the chaining after the load',
    );
    const log = { error: (details: object, message: string) => console.error(message, details) };
    const chainer = new AuditChainer(db.orm, log);
    const times = { reference: [] as number[], chained: [] as number[], deferred: [] as number[] };
    const lag: number[] = [];
    await writeLoad(db, true, chainer, actorId); // warm-up (connections, plans)
    await chainer.idle();
    for (let round = 0; round < rounds; round += 1) {
      times.reference.push(...(await writeLoad(db, false, chainer, actorId)));
      times.chained.push(...(await writeLoad(db, true, chainer, actorId)));
      const lagStarted = performance.now();
      await chainer.idle();
      await chainer.chainAll();
      lag.push(performance.now() - lagStarted);
      // The chainer's share: the same audited load with the chaining left until after it.
      times.deferred.push(...(await writeLoad(db, true, null, actorId)));
      await chainer.chainAll();
    }
    const reference = summary('reference', times.reference);
    const median = (list: number[]) =>
      percentile(
        [...list].sort((a, b) => a - b),
        50,
      );
    const chained = summary('chained', times.chained);
    console.log(
      `chained: added at p95 ${(chained - reference).toFixed(2)} ms, p95 ratio ${(chained / reference).toFixed(2)},` +
        ` p50 ratio ${(median(times.chained) / median(times.reference)).toFixed(2)}; chainer done` +
        ` ${lag.map((ms) => ms.toFixed(0)).join(' / ')} ms after the last commit`,
    );
    const deferred = summary('deferred', times.deferred);
    console.log(
      `deferred (no chaining during the load): added at p95 ${(deferred - reference).toFixed(2)} ms, p95 ratio` +
        ` ${(deferred / reference).toFixed(2)}, p50 ratio ${(median(times.deferred) / median(times.reference)).toFixed(2)}`,
    );
    const added = chained - reference;
    console.log(`added at p95: ${added.toFixed(2)} ms (target ≤ 2 ms)`);
    met = added <= 2 && met;
    await outboxShare(url.toString());
    // History loaded in bulk below: no outbox rows.
    await db.executeSql('alter table domain_events disable trigger domain_events_outbox');

    const fillStarted = performance.now();
    await fillChain(db, rows);
    console.log(
      `verify: ${rows.toLocaleString('en')} rows written in ${((performance.now() - fillStarted) / 1000).toFixed(1)} s`,
    );
    const audit = new AuditService(
      new DomainEventRepository(db.orm),
      () => Promise.reject(new Error('unused')),
      chainer,
    );
    const started = performance.now();
    const verdict = await audit.verify();
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `verified ${verdict.rows.toLocaleString('en')} rows in ${seconds.toFixed(1)} s, ok: ${verdict.ok} (target ≤ 30 s)`,
    );
    met = verdict.ok && seconds <= 30 && met;
    await chainer.close();
  } finally {
    await db.close();
  }
} finally {
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}
console.log(met ? 'audit: targets met' : 'audit: targets NOT met');
process.exit(met ? 0 : 1);
