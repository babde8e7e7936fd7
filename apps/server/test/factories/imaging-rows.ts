import { randomUUID } from 'node:crypto';
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
