import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** The ORM handle repositories use; the same type whichever engine is underneath. */
export type Orm = PgDatabase<PgQueryResultHKT, Schema>;

export interface SqlResult {
  rows: Record<string, unknown>[];
  rowCount: number;
}

/** One database, embedded (PGlite) or PostgreSQL, behind the few operations the server needs. */
export interface Database {
  readonly kind: 'pglite' | 'postgres';
  readonly orm: Orm;
  /** Raw SQL; without values several statements may be sent at once (pg-boss's own migrations do). */
  executeSql(text: string, values?: unknown[]): Promise<SqlResult>;
  /** Subscribes to `NOTIFY channel`; returns the unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** PGlite only: the whole database as a tarball, loadable with `loadDataDir` (test templates). */
  dumpDataDir?(): Promise<Blob>;
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * Sees the text of every statement the server sends (ORM queries, prepared ones included, and raw SQL), called
 * where the statement is issued, so in the async context of the request that runs it (tests count statements per
 * request with it).
 */
export type StatementObserver = (text: string) => void;

/** PostgreSQL by URL, or PGlite in a folder (null: in memory), optionally started from a dump. */
export type DatabaseTarget = ({ url: string; poolSize?: number } | { pgliteDir: string | null; loadDataDir?: Blob }) & {
  onStatement?: StatementObserver;
};

/** The ORM's logger as a statement observer. */
function observing(onStatement: StatementObserver | undefined) {
  return onStatement ? { logger: { logQuery: (text: string) => onStatement(text) } } : {};
}

/** Opens the database and brings its schema up to date (same SQL migrations for both engines). */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  return 'url' in target
    ? openPostgres(target.url, target.poolSize ?? 10, target.onStatement)
    : openPglite(target.pgliteDir, target.loadDataDir, target.onStatement);
}

async function openPglite(dir: string | null, loadDataDir?: Blob, onStatement?: StatementObserver): Promise<Database> {
  if (dir) mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir ?? 'memory://', loadDataDir ? { loadDataDir } : {});
  await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
  const orm = drizzlePglite(client, { schema, ...observing(onStatement) });
  return {
    kind: 'pglite',
    orm: orm as unknown as Orm,
    async executeSql(text, values) {
      onStatement?.(text);
      if (!values || values.length === 0) {
        const results = await client.exec(text);
        const last = results[results.length - 1];
        return { rows: last?.rows ?? [], rowCount: last?.affectedRows ?? 0 };
      }
      const result = await client.query<Record<string, unknown>>(text, values);
      return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
    },
    async listen(channel, onPayload) {
      const unsubscribe = await client.listen(channel, onPayload);
      return unsubscribe;
    },
    async close() {
      await client.close();
    },
    async dumpDataDir() {
      return client.dumpDataDir('none');
    },
  };
}

const migrationLockKey = 7_140_271_001;

async function openPostgres(url: string, poolSize: number, onStatement?: StatementObserver): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on the next query.
  });
  // Several servers may start at once: one migrates, the others wait on the advisory lock.
  const lockClient = await pool.connect();
  try {
    await lockClient.query('select pg_advisory_lock($1)', [migrationLockKey]);
    await migratePg(drizzlePg(lockClient, { schema }), { migrationsFolder });
  } finally {
    await lockClient.query('select pg_advisory_unlock($1)', [migrationLockKey]).catch(() => undefined);
    lockClient.release();
  }
  const orm = drizzlePg(pool, { schema, ...observing(onStatement) });
  const listeners = new Set<pg.PoolClient>();
  return {
    kind: 'postgres',
    orm: orm as unknown as Orm,
    async executeSql(text, values) {
      onStatement?.(text);
      const result = await pool.query(text, values);
      const last = Array.isArray(result) ? (result[result.length - 1] as pg.QueryResult) : result;
      return { rows: last.rows as Record<string, unknown>[], rowCount: last.rowCount ?? 0 };
    },
    async listen(channel, onPayload) {
      const client = await pool.connect();
      listeners.add(client);
      client.on('notification', (message) => {
        if (message.channel === channel) onPayload(message.payload ?? '');
      });
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      return async () => {
        if (!listeners.delete(client)) return;
        await client.query(`UNLISTEN ${pg.escapeIdentifier(channel)}`).catch(() => undefined);
        client.release();
      };
    },
    async close() {
      for (const client of listeners) client.release();
      listeners.clear();
      await pool.end();
    },
  };
}

/** Where the embedded database lives inside DATA_DIR. */
export function pgliteDirIn(dataDir: string): string {
  return join(dataDir, 'pgdata');
}
