import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { DEFAULT_POPULATION_SEED, generatePatient, MODEL_VERSION } from '@insilico/anatomy';

import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder, type Orm } from '../db/client';
import * as schema from '../db/schema';
import { CohortRepository } from '../repositories/cohort.repository';
import { VirtualPatientDatabase } from './cohort-population';
import { storedPatient, storeMissingRecords } from './cohort-records';
import { ServiceError } from './errors';

/**
 * Migration 0007 and its data step on a database that holds cohorts from before it (embedded database; the SQL is
 * the same on PostgreSQL): the schema step names the mesh model of existing cohorts, the start-up step stores the
 * patient records of every cohort whose population model this server still produces, once.
 */

let client: PGlite;
let orm: Orm;
let before: string;
const current = 'a0000000-0000-4000-8000-000000000001';
const gone = 'a0000000-0000-4000-8000-000000000002';
const indices = [3, 17, 1500];
/** The model the cohorts of a server before 0007 were ordered with (issue 23 made anatomy-population-2 current). */
const earlierModel = 'anatomy-population-1';

/** The migrations folder as it was before 0007 (journal cut after 0006). */
function migrationsUpTo0006(): string {
  const folder = mkdtempSync(join(tmpdir(), 'migrations-0006-'));
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalFile = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx <= 6);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

beforeAll(async () => {
  client = await PGlite.create('memory://');
  orm = drizzle(client, { schema });
  before = migrationsUpTo0006();
  await migrate(drizzle(client, { schema }), { migrationsFolder: before });
  // A workspace with two ready cohorts as a server before 0007 stored them: indices only.
  await client.exec(`
    insert into devices (id, name, device_type, body_parts, development_stages, company_name, country,
                         street_address, city, zip_code, data_region)
    values ('d0000000-0000-4000-8000-000000000001', 'Valve', 'valve_replacement', '[]', '[]', 'Co', 'DE',
            'A 1', 'Berlin', '10115', 'eu');
    insert into cohorts (id, device_id, name, criteria, size, status, population_seed, population_size,
                         model_version, sample_seed, matching_at_order)
    values ('${current}', 'd0000000-0000-4000-8000-000000000001', 'Earlier model', '{}', 5, 'ready',
            ${DEFAULT_POPULATION_SEED}, 2000, '${earlierModel}', 1, 100),
           ('${gone}', 'd0000000-0000-4000-8000-000000000001', 'Gone model', '{}', 5, 'ready',
            ${DEFAULT_POPULATION_SEED}, 2000, 'anatomy-population-0', 2, 100);
    insert into cohort_patients (cohort_id, patient_index, patient_id, position)
    values ${indices.map((index, i) => `('${current}', ${index}, 'SYN-${String(index + 1).padStart(6, '0')}', ${i + 1})`).join(', ')},
           ('${gone}', 1, 'SYN-000002', 1), ('${gone}', 2, 'SYN-000003', 2);
  `);
  await migrate(drizzle(client, { schema }), { migrationsFolder });
}, 60_000);

afterAll(async () => {
  await client?.close();
  if (before) rmSync(before, { recursive: true, force: true });
});

const generated = (index: number) =>
  JSON.parse(JSON.stringify(generatePatient(DEFAULT_POPULATION_SEED, index, earlierModel))) as unknown;

describe('migration 0007 on cohorts ordered before it', () => {
  it('names the mesh model their meshes were built with and leaves their records to the start-up step', async () => {
    const cohorts = await client.query<{ id: string; mesh_model_version: string }>(
      'select id, mesh_model_version from cohorts order by id',
    );
    expect(cohorts.rows).toEqual([
      { id: current, mesh_model_version: 'anatomy-meshes-1' },
      { id: gone, mesh_model_version: 'anatomy-meshes-1' },
    ]);
    const stored = await client.query<{ n: number }>(
      'select count(*)::int as n from cohort_patients where record is not null',
    );
    expect(stored.rows[0]?.n).toBe(0);
  });

  it('stores the records of cohorts whose model this server produces, once, and never replaces a stored one', async () => {
    const repository = new CohortRepository(orm);
    const database = new VirtualPatientDatabase();
    expect(await storeMissingRecords(repository, database)).toEqual({ filled: 1, unreadable: [gone] });

    const cohort = (await repository.findById(current))!;
    const rows = await repository.patients(current);
    expect(rows.map((row) => row.record)).toEqual(indices.map(generated));
    // Regenerated under the version the cohort names, not the current one (whose aortic roots differ).
    expect(MODEL_VERSION).not.toBe(earlierModel);
    expect(rows.map((row) => row.record)).not.toEqual(
      indices.map((index) => JSON.parse(JSON.stringify(generatePatient(DEFAULT_POPULATION_SEED, index))) as unknown),
    );
    // What a read makes of a record is the generated patient, every double exact.
    expect(rows.map((row) => storedPatient(cohort, row))).toEqual(indices.map(generated));

    // A second start finds nothing more to do for it; a record stored meanwhile is never overwritten.
    await client.query(
      `update cohort_patients set record = jsonb_set(record, '{body,height_cm}', '250') where patient_index = $1`,
      [indices[0]],
    );
    await client.query(`update cohort_patients set record = null where cohort_id = $1 and patient_index = $2`, [
      current,
      indices[1],
    ]);
    expect(await storeMissingRecords(repository, database)).toEqual({ filled: 1, unreadable: [gone] });
    const again = await repository.patients(current);
    expect((again[0]?.record as { body: { height_cm: number } }).body.height_cm).toBe(250);
    expect(again[1]?.record).toEqual(generated(indices[1]!));
    expect(await storeMissingRecords(repository, database)).toEqual({ filled: 0, unreadable: [gone] });
  });

  it('leaves a cohort of a model this server no longer produces unreadable, with a clear 409', async () => {
    const repository = new CohortRepository(orm);
    const cohort = (await repository.findById(gone))!;
    const [row] = await repository.patients(gone);
    expect(row?.record).toBeNull();
    let refusal: unknown;
    try {
      storedPatient(cohort, row!);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ServiceError);
    expect(refusal).toMatchObject({
      status: 409,
      code: 'cohort_unreadable',
      message:
        'The patients of cohort Gone model cannot be read: they were drawn from population model anatomy-population-0, ' +
        'which this server can no longer produce, and were not stored when the cohort was ordered.',
    });
  });

  it('refuses a stored record that is not a whole patient rather than showing part of it', async () => {
    const repository = new CohortRepository(orm);
    const cohort = (await repository.findById(current))!;
    const [row] = await repository.patients(current);
    const { cardiac: _cardiac, ...partial } = row!.record as Record<string, unknown>;
    expect(() => storedPatient(cohort, { ...row!, record: partial })).toThrow(
      `The patients of cohort Earlier model cannot be read: the stored record of patient ${row!.patientId} is incomplete.`,
    );
  });
});
