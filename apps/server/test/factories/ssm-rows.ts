import { normalizeSsmConfiguration, type SsmConfiguration } from '@insilico/contracts';
import { ssms } from '../../src/db/schema';
import type { TestServer } from '../helpers/test-server';

/**
 * Makes a ready SSM what a server before `ssm-2` built: its landmarks without their modes and its model card naming
 * the older code (the model file is the same format either way). For the rebuild path of older models.
 */
export async function asBuiltBeforeLandmarkModes(server: TestServer, ssmId: string): Promise<void> {
  const { rows } = await server.context.db.executeSql('select summary from ssms where id = $1', [ssmId]);
  const stored = (rows[0] as { summary: unknown } | undefined)?.summary;
  if (!stored) throw new Error(`SSM ${ssmId} has no summary: is it ready?`);
  const summary = (typeof stored === 'string' ? JSON.parse(stored) : stored) as {
    landmarks: Record<string, unknown>[];
    modelCard: Record<string, unknown>;
  };
  const older = {
    ...summary,
    landmarks: summary.landmarks.map(({ modes: _modes, ...landmark }) => landmark),
    modelCard: { ...summary.modelCard, codeVersion: 'ssm-1' },
  };
  await server.context.db.executeSql('update ssms set summary = $1::jsonb where id = $2', [
    JSON.stringify(older),
    ssmId,
  ]);
}

/**
 * A model whose build failed, as the build job leaves one (status failed, its reason, no summary nor file): a first
 * version, or with `rebuiltFrom` a failed rebuild of that model. `configuration` as stored (normalised); its key
 * is its JSON, as the service writes it. Answers its id.
 */
export async function insertFailedSsm(
  server: TestServer,
  input: {
    deviceId: string;
    projectId: string;
    createdBy: string;
    name: string;
    configuration: SsmConfiguration;
    shapeCount: number;
    error: string;
    version?: number;
    rebuiltFrom?: string;
  },
): Promise<string> {
  const { configuration, ...row } = input;
  const [inserted] = await server.context.db.orm
    .insert(ssms)
    .values({
      ...row,
      configuration: normalizeSsmConfiguration(configuration),
      configurationKey: JSON.stringify(normalizeSsmConfiguration(configuration)),
      status: 'failed',
    })
    .returning({ id: ssms.id });
  return inserted!.id;
}
