import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { imagingDatasets } from '../../src/db/schema';
import type { TestServer } from '../helpers/test-server';

/**
 * An accepted imaging dataset of a project waiting for its patient models (status modelling), written straight into
 * the database: the upload and the re-check have their own suite (imaging.api.test.ts); suites of imaging patients
 * start where support staff deliver the models. Its zip is never read here, so none is stored.
 */
export async function insertModellingDataset(
  server: TestServer,
  seed: { deviceId: string; projectId: string | null; uploadedBy: string; name?: string },
): Promise<string> {
  const id = randomUUID();
  await server.context.db.orm.insert(imagingDatasets).values({
    id,
    deviceId: seed.deviceId,
    projectId: seed.projectId,
    name: seed.name ?? `CT ${id.slice(0, 8)}`,
    status: 'modelling',
    uploadedBy: seed.uploadedBy,
    region: 'eu',
    storageKey: `imaging-test/${id}.zip`,
    bytes: 0,
    patients: 2,
    studies: 2,
    series: 2,
    files: 2,
    checkedAt: new Date(),
  });
  return id;
}

/** One delivered patient as the models check records it (volumes in mm³). */
export interface DeliveredPatientSeed {
  patient: string;
  models: { organ: string; phase: string; volume: number }[];
}

/**
 * A project's imaging dataset whose patient models were delivered (status ready), written straight into the
 * database with the models as the check records them: suites that use the delivered patients' measurements (the
 * population analysis) need many patients and no zip (its surfaces are never read there).
 */
export async function insertReadyDataset(
  server: TestServer,
  seed: { deviceId: string; projectId: string; uploadedBy: string; name?: string },
  patients: readonly DeliveredPatientSeed[],
): Promise<string> {
  const id = await insertModellingDataset(server, seed);
  await server.context.db.orm
    .update(imagingDatasets)
    .set({
      status: 'ready',
      readyAt: new Date(),
      modelsStorageKey: `imaging-models/${id}/${randomUUID()}.zip`,
      models: {
        patients: patients.map((p) => ({
          patient: p.patient,
          landmarks: [{ name: 'annulus', position: [0, 0, 0] as [number, number, number] }],
          models: p.models.map((m) => ({
            patient: p.patient,
            organ: m.organ,
            phase: m.phase,
            triangles: 12,
            volume: m.volume,
          })),
        })),
      },
    })
    .where(eq(imagingDatasets.id, id));
  return id;
}
