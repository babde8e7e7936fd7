import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client';
import { JobRepository } from '../src/repositories/job.repository';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PGlite leg: a dump of a migrated database, loaded by each test file. */
    pgliteTemplate: string | null;
    /** PostgreSQL leg: a migrated database to clone with CREATE DATABASE … TEMPLATE. */
    postgresTemplate: string | null;
  }
}

/** Builds one migrated database per run (with pg-boss's schema) that every test file clones. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.TEST_DATABASE_URL;
  const log = pino({ level: 'silent' });
  if (url) {
    // Unique per run, so that runs sharing one PostgreSQL (a developer's and CI's) never touch each other.
    const name = `insilico_tpl_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const admin = new pg.Client({ connectionString: url });
    try {
      await admin.connect();
    } catch (error) {
      throw new Error(`TEST_DATABASE_URL is set but PostgreSQL does not answer at it (${String(error)}).`);
    }
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end(); // an open client would keep vitest from closing
    const db = await openDatabase({ url: withDatabase(url, name), poolSize: 2 });
    const jobs = new JobRepository(db, { background: false });
    await jobs.start((error) => log.error(error));
    await jobs.stop();
    await db.close();
    project.provide('postgresTemplate', name);
    project.provide('pgliteTemplate', null);
    return async () => {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      const { rows } = await admin.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE starts_with(datname, $1)`,
        [name],
      );
      for (const row of rows) await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
      await admin.end();
    };
  }
  const db = await openDatabase({ pgliteDir: null });
  const jobs = new JobRepository(db, { background: false });
  await jobs.start((error) => log.error(error));
  await jobs.stop();
  const dir = mkdtempSync(join(tmpdir(), 'insilico-template-'));
  const file = join(dir, 'pgdata.tar');
  writeFileSync(file, Buffer.from(await (await db.dumpDataDir!()).arrayBuffer()));
  await db.close();
  project.provide('pgliteTemplate', file);
  project.provide('postgresTemplate', null);
  return async () => rmSync(dir, { recursive: true, force: true });
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
