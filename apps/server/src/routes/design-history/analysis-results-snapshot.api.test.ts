import { createHash } from 'node:crypto';
import type { Analysis, DesignHistoryList, Signature } from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalJson } from '../../events/chain';
import { patchAnalysis } from '../../../test/fixtures/analysis.fixtures';
import { json, type Person } from '../../../test/fixtures/workspace.fixtures';
import { projectWorld } from '../../../test/fixtures/project-world';
import { unzipFiles } from '../../../test/helpers/exported-files';
import type { TestServer } from '../../../test/helpers/test-server';

/**
 * Results that stay (issue 20 item 7): when an analysis enters the design history its results are computed on the
 * server and kept append-only with their SHA-256 and the code version; the event names the hash, so a signature of
 * the event binds the results; later changes of the cohort or the analysis leave the kept results as they were; the
 * evidence ZIP holds them.
 */
let server: TestServer;
let admin: Person;
let deviceId = '';
let projectId = '';
let cohortId = '';
let analysis: Analysis;

interface SnapshotRow {
  id: string;
  object_id: string;
  revision: number;
  code_version: string;
  content: Record<string, unknown>;
  content_hash: string;
  taken_at: Date | string;
}

const sql = (text: string, values?: unknown[]) => server.context.db.executeSql(text, values);
const sha256 = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex');
const snapshotsOf = async (analysisId: string) =>
  (
    await sql(`select * from result_snapshots where object_type = 'analysis' and object_id = $1 order by revision`, [
      analysisId,
    ])
  ).rows as unknown as SnapshotRow[];
const history = async () =>
  json<DesignHistoryList>(await admin.browser.get(`/api/devices/${deviceId}/design-history?projectId=${projectId}`));
const analysisPath = () => `/api/devices/${deviceId}/projects/${projectId}/analyses/${analysis.id}`;

beforeAll(async () => {
  const world = await projectWorld({
    cohorts: { kept: { name: 'Kept twenty', size: 20, settleMs: 170_000 } },
    project: { team: ['admin'], cohorts: ['kept'], name: 'Kept results' },
  });
  ({ server, admin, deviceId, projectId } = world);
  cohortId = world.cohortIds.kept;
  const response = await admin.browser.postJson(`/api/devices/${deviceId}/projects/${projectId}/analyses`, {
    cohortId,
    name: 'Annulus',
    parameters: ['aorticAnnulusPerimeter_mm', 'aorticAnnulusArea_mm2', 'height_cm'],
  });
  expect(response.status).toBe(201);
  analysis = await json<Analysis>(response);
}, 200_000);
afterAll(async () => {
  await server?.stop();
});

describe('an analysis entering the design history', () => {
  it('keeps its results with their SHA-256 and code version, named by its event', async () => {
    const [kept, ...more] = await snapshotsOf(analysis.id);
    expect(more).toEqual([]);
    expect(kept).toMatchObject({ revision: 1, code_version: server.context.config.version });
    // The content gives its hash again (the trail's canonical JSON), and holds the results of the 20 patients.
    expect(sha256(canonicalJson(kept!.content))).toBe(kept!.content_hash);
    const content = kept!.content as {
      refusal: string | null;
      results: { patients: string[]; analysis: { patients: number; parameters: { summary: unknown }[] } };
    };
    expect(content.refusal).toBeNull();
    expect(content.results.patients).toHaveLength(20);
    expect(content.results.analysis.patients).toBe(20);
    expect(content.results.analysis.parameters).toHaveLength(3);
    const { rows } = await sql(`select after from domain_events where object_id = $1 and action = 'analysis.created'`, [
      analysis.id,
    ]);
    expect(rows[0]!.after).toMatchObject({
      results: { snapshotId: kept!.id, sha256: kept!.content_hash, codeVersion: kept!.code_version },
    });
    // The design history shows the evidence as a snapshot: its hash and time.
    const item = (await history()).items.find((i) => i.action === 'analysis.created')!;
    expect(item.resultsSnapshot).toEqual({
      id: kept!.id,
      sha256: kept!.content_hash,
      takenAt: new Date(kept!.taken_at).toISOString(),
      codeVersion: kept!.code_version,
      revision: 1,
    });
  });

  it('is append-only: the database refuses to change or delete kept results', async () => {
    await expect(sql(`update result_snapshots set content_hash = 'x'`)).rejects.toThrow(/append-only/);
    await expect(sql(`delete from result_snapshots`)).rejects.toThrow(/append-only/);
  });

  it('signs the results: the signed manifest carries their hash, which later changes of data leave valid', async () => {
    const item = (await history()).items.find((i) => i.action === 'analysis.created')!;
    const response = await admin.browser.postJson(`/api/devices/${deviceId}/design-history/signatures`, {
      record: item.record,
      meaning: 'approval',
      email: admin.account.email,
      password: admin.account.password,
    });
    expect(response.status).toBe(201);
    const signature = await json<Signature>(response);
    const [kept] = await snapshotsOf(analysis.id);
    const { rows } = await sql(`select manifest, content_hash from electronic_signatures where id = $1`, [
      signature.id,
    ]);
    const manifest = rows[0]!.manifest as { content: { after: { results: { sha256: string } } } };
    expect(manifest.content.after.results.sha256).toBe(kept!.content_hash);
    expect(sha256(canonicalJson(manifest))).toBe(signature.contentHash);

    // The cohort's data change (five patients gone) and the analysis changes: a new revision gets its own
    // snapshot (now refused: too few patients), the signed one stays as it was and its signature stays valid.
    const patients = (
      await sql(`select patient_id from cohort_patients where cohort_id = $1 order by patient_id limit 5`, [cohortId])
    ).rows.map((row) => row.patient_id as string);
    await sql(`delete from cohort_patients where cohort_id = $1 and patient_id = any($2::text[])`, [
      cohortId,
      patients,
    ]);
    const changed = await patchAnalysis(admin.browser, analysisPath(), { name: 'Annulus, renamed' }, 1);
    expect(changed.status).toBe(200);
    const [first, second, ...none] = await snapshotsOf(analysis.id);
    expect(none).toEqual([]);
    expect(first).toEqual(kept);
    expect(second).toMatchObject({ revision: 2 });
    expect(second!.content_hash).not.toBe(kept!.content_hash);
    expect((second!.content as { refusal: string | null }).refusal).toMatch(/20/);
    const items = (await history()).items;
    const signed = items.find((i) => i.action === 'analysis.created')!;
    expect(signed.resultsSnapshot?.sha256).toBe(kept!.content_hash);
    expect(signed.signatures).toEqual([expect.objectContaining({ id: signature.id, valid: true })]);
    expect(items.find((i) => i.action === 'analysis.updated')!.resultsSnapshot?.sha256).toBe(second!.content_hash);
  });

  it('puts the kept results in the evidence ZIP, each giving its hash again', async () => {
    const response = await admin.browser.postJson(`/api/devices/${deviceId}/design-history/exports`, {
      projectId,
      format: 'zip',
    });
    expect(response.status).toBe(200);
    const files = await unzipFiles(new Uint8Array(await response.arrayBuffer()));
    const kept = await snapshotsOf(analysis.id);
    expect([...files.keys()].filter((name) => name.startsWith('results/')).sort()).toEqual(
      kept.map((row) => `results/${row.id}.json`).sort(),
    );
    for (const row of kept) {
      const file = JSON.parse(new TextDecoder().decode(files.get(`results/${row.id}.json`))) as {
        content: unknown;
        contentHash: string;
      };
      expect(file.contentHash).toBe(row.content_hash);
      expect(sha256(canonicalJson(file.content))).toBe(row.content_hash);
    }
  });
});
