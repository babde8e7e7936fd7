import { randomUUID } from 'node:crypto';
import {
  deviceVersionFiles,
  deviceVersions,
  projectDeviceVersions,
  rooms,
  ssms,
  storedFiles,
} from '../../src/db/schema';
import type { TestServer } from '../helpers/test-server';

/** Rows the room suites need, written straight into the database (processing is the device-version suites'). */

/** A small closed binary STL (a tetrahedron, mm). */
export function tetrahedronStl(): Buffer {
  const vertices = [
    [0, 0, 0],
    [10, 0, 0],
    [0, 10, 0],
    [0, 0, 10],
  ] as const;
  const faces = [
    [0, 2, 1],
    [0, 1, 3],
    [0, 3, 2],
    [1, 2, 3],
  ] as const;
  const bytes = Buffer.alloc(84 + 50 * faces.length);
  bytes.writeUInt32LE(faces.length, 80);
  faces.forEach((face, index) => {
    const at = 84 + 50 * index + 12;
    face.forEach((vertex, corner) =>
      vertices[vertex].forEach((value, axis) => bytes.writeFloatLE(value, at + 12 * corner + 4 * axis)),
    );
  });
  return bytes;
}

/**
 * A device version of the workspace with one STL model file (bytes in storage), in the given state, optionally on
 * a project: what the scene lists and places.
 */
export async function insertVersionWithModel(
  server: TestServer,
  deviceId: string,
  input: { name: string; status: 'ready' | 'processing'; projectId?: string; stl?: Uint8Array },
): Promise<{ versionId: string; fileId: string }> {
  const orm = server.context.db.orm;
  const storageKey = `device-versions/test-${Math.random().toString(36).slice(2)}.stl`;
  const stl = input.stl ?? tetrahedronStl();
  await server.context.blobs.put('eu', storageKey, stl);
  const [file] = await orm
    .insert(storedFiles)
    .values({ deviceId, purpose: 'device_version_model', storageKey, contentType: 'model/stl', bytes: stl.length })
    .returning({ id: storedFiles.id });
  const [version] = await orm
    .insert(deviceVersions)
    .values({ deviceId, name: input.name, status: input.status })
    .returning({ id: deviceVersions.id });
  const [row] = await orm
    .insert(deviceVersionFiles)
    .values({
      versionId: version!.id,
      position: 0,
      fileName: 'valve.stl',
      bytes: stl.length,
      fileId: file!.id,
      status: input.status === 'ready' ? 'valid' : 'pending',
    })
    .returning({ id: deviceVersionFiles.id });
  if (input.projectId)
    await orm.insert(projectDeviceVersions).values({ projectId: input.projectId, versionId: version!.id });
  return { versionId: version!.id, fileId: row!.id };
}

/**
 * A room on a shape-model row of the project (no cohort needed): the SSM row is written as it stands, not built, so
 * suites that only need "a room of the project" do not wait for an SSM job.
 */
export async function insertSsmRoom(
  server: TestServer,
  input: { deviceId: string; projectId: string; name: string },
): Promise<string> {
  const orm = server.context.db.orm;
  const [ssm] = await orm
    .insert(ssms)
    .values({
      deviceId: input.deviceId,
      projectId: input.projectId,
      name: `${input.name} SSM`,
      configuration: {},
      configurationKey: randomUUID(),
      shapeCount: 10,
    })
    .returning({ id: ssms.id });
  const [room] = await orm
    .insert(rooms)
    .values({ projectId: input.projectId, name: input.name, ssmId: ssm!.id })
    .returning({ id: rooms.id });
  return room!.id;
}
