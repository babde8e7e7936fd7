import { spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipFiles } from '../../../test/helpers/exported-files';
import { reasonRequiredMessage, type ActivityList, type AuditVerdict } from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/helpers/test-server';
import { projectWorld } from '../../../test/fixtures/project-world';
import { errorOf, json, signedIn, type Person } from '../../../test/fixtures/workspace.fixtures';
import { insertProject } from '../../../test/factories/project-rows';
import { systemEvent } from '../../events/kinds';
import { UnitOfWork } from '../../repositories/unit-of-work';

/**
 * The regulated record (issue 20): a change writes one domain event in its transaction (actor, before → after,
 * reason, request id, the database's UTC time); the audit table refuses UPDATE, DELETE and TRUNCATE; the verifier
 * names any row changed behind the trigger's back; the export; the activity feed's role scope.
 */
let server: TestServer;
let admin: Person;
let member: Person;
let guest: Person;
let deviceId = '';
let projectId = '';
let otherProjectId = '';

const sql = (text: string, values?: unknown[]) => server.context.db.executeSql(text, values);
const statusUrl = (id: string) => `/api/devices/${deviceId}/projects/${id}/status`;

beforeAll(async () => {
  ({
    server,
    admin,
    deviceId,
    people: { member, guest },
    projectId,
  } = await projectWorld({
    people: { member: 'member', guest: 'guest' },
    project: { team: ['admin', 'guest'], name: 'Audited valve' },
  }));
  otherProjectId = await insertProject(server, { deviceId, team: [admin.id], name: 'Hidden valve' });
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

async function verdict(): Promise<AuditVerdict> {
  const response = await admin.browser.get(`/api/devices/${deviceId}/audit/verify`);
  expect(response.status).toBe(200);
  return json<AuditVerdict>(response);
}

/** Runs `work` with the table's triggers off, as only its owner can (a superuser bypassing the application). */
async function behindTheTriggersBack(work: () => Promise<unknown>): Promise<void> {
  await sql('alter table domain_events disable trigger user');
  try {
    await work();
  } finally {
    await sql('alter table domain_events enable trigger user');
  }
}

/** A row as the database's own JSON (times to the microsecond, which a JS Date would round). */
async function rowText(seq: number): Promise<string> {
  const { rows } = await sql('select row_to_json(d)::text as row from domain_events d where seq = $1', [seq]);
  return String(rows[0]!.row);
}

/** Puts a row back exactly as `rowText` read it. */
async function restore(row: string): Promise<void> {
  const seq = (JSON.parse(row) as { seq: number }).seq;
  await sql('delete from domain_events where seq = $1', [seq]);
  await sql('insert into domain_events select * from json_populate_record(null::domain_events, $1::json)', [row]);
}

describe('a project status move', () => {
  it('is refused without a reason for change, and nothing is recorded', async () => {
    const before = await sql('select count(*)::int as n from domain_events');
    const response = await admin.browser.postJson(statusUrl(projectId), { status: 'completed', reason: '  ' });
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toBe(reasonRequiredMessage);
    expect((await sql('select count(*)::int as n from domain_events')).rows).toEqual(before.rows);
  });

  it('writes one event with actor, before → after, reason, request id and the database time', async () => {
    const started = Date.now();
    const response = await admin.browser.request(statusUrl(projectId), {
      method: 'POST',
      body: JSON.stringify({ status: 'completed', reason: 'Sizing study finished' }),
      headers: { 'content-type': 'application/json', 'x-request-id': 'audit-test-1' },
    });
    expect(response.status).toBe(200);
    const { rows } = await sql(
      `select action, actor_id, actor_name, object_type, object_id, device_id, project_id, before, after, reason,
              request_id, occurred_at from domain_events where request_id = 'audit-test-1'`,
    );
    expect(rows).toEqual([
      expect.objectContaining({
        action: 'project.status_changed',
        actor_id: admin.id,
        actor_name: expect.any(String),
        object_type: 'project',
        object_id: projectId,
        device_id: deviceId,
        project_id: projectId,
        before: { status: 'active' },
        after: { status: 'completed', name: 'Audited valve' },
        reason: 'Sizing study finished',
        request_id: 'audit-test-1',
      }),
    ]);
    const at = new Date(rows[0]!.occurred_at as string | Date).getTime();
    expect(at).toBeGreaterThanOrEqual(started - 5_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 5_000);
  });

  it('tells the team through the event subscriber (not the whole team: never the one who moved it)', async () => {
    await expect
      .poll(async () => {
        const list = await json<{ items: { kind: string; title: string }[] }>(
          await guest.browser.get('/api/notifications'),
        );
        return list.items.filter((item) => item.kind === 'project.status').map((item) => item.title);
      })
      .toEqual(['Project Audited valve was completed']);
    const mine = await json<{ items: { kind: string }[] }>(await admin.browser.get('/api/notifications'));
    expect(mine.items.filter((item) => item.kind === 'project.status')).toEqual([]);
  });
});

describe('the audit table', () => {
  it('refuses UPDATE, DELETE and TRUNCATE, whoever asks', async () => {
    await expect(sql(`update domain_events set reason = 'changed'`)).rejects.toThrow(/append-only/);
    await expect(sql('delete from domain_events')).rejects.toThrow(/append-only/);
    await expect(sql('truncate domain_events')).rejects.toThrow(/append-only/);
    expect((await verdict()).ok).toBe(true);
    // Linked rows cannot be linked again, and linking cannot change what a row says.
    await expect(sql(`update domain_events set hash = repeat('0', 64) where seq = 1`)).rejects.toThrow(/append-only/);
    await admin.browser.postJson(statusUrl(otherProjectId), { status: 'completed', reason: 'Checked' });
    const { rows } = await sql('select id from domain_events order by id desc limit 1');
    await expect(
      sql(`update domain_events set seq = 999, prev_hash = 'x', hash = 'y', reason = 'Other' where id = $1`, [
        rows[0]!.id,
      ]),
    ).rejects.toThrow(/append-only/);
    await admin.browser.postJson(statusUrl(otherProjectId), { status: 'active', reason: 'Reopened' });
    expect((await verdict()).ok).toBe(true);
  });

  it('has its every single row edit behind the triggers detected and named, in 100 % of trials', async () => {
    // More rows: a few more moves.
    await admin.browser.postJson(statusUrl(projectId), { status: 'active', reason: 'More sizes' });
    await admin.browser.postJson(statusUrl(otherProjectId), { status: 'abandoned', reason: 'Replaced' });
    expect((await verdict()).ok).toBe(true); // links them
    const { rows } = await sql('select seq, reason, after from domain_events order by seq');
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) {
      const seq = Number(row.seq);
      for (const edit of [
        `update domain_events set reason = 'Tampered' where seq = ${seq}`,
        `update domain_events set occurred_at = occurred_at + interval '1 microsecond' where seq = ${seq}`,
        `update domain_events set after = '{"status":"abandoned"}'::jsonb where seq = ${seq}`,
        `update domain_events set actor_id = null where seq = ${seq}`,
      ]) {
        const original = await rowText(seq);
        await behindTheTriggersBack(() => sql(edit));
        const found = await verdict();
        expect(found.ok, edit).toBe(false);
        expect(found.breaks[0], edit).toMatchObject({ seq, problem: 'edited' });
        await behindTheTriggersBack(() => restore(original));
      }
    }
    expect((await verdict()).ok).toBe(true);
  });

  it('names a deleted row and an inserted one', async () => {
    expect((await verdict()).pending).toBe(0);
    const { rows } = await sql('select seq from domain_events order by seq');
    const middle = Number(rows[1]!.seq);
    const original = await rowText(middle);
    await behindTheTriggersBack(() => sql(`delete from domain_events where seq = ${middle}`));
    let found = await verdict();
    expect(found.breaks).toEqual([
      expect.objectContaining({
        seq: middle + 1,
        problem: 'deleted_before',
        message: expect.stringContaining(`Row ${middle} was deleted`),
      }),
    ]);
    const head = Number(rows[rows.length - 1]!.seq);
    await sql(
      `insert into domain_events (seq, occurred_at, actor_id, actor_name, action, object_type, object_id, device_id,
         project_id, before, after, reason, request_id, prev_hash, hash)
       select $1, occurred_at, actor_id, actor_name, action, object_type, object_id, device_id, project_id, before,
         after, reason, request_id, hash, hash from domain_events where seq = $2`,
      [head + 1, head],
    );
    found = await verdict();
    expect(found.breaks.map((item) => [item.seq, item.problem])).toEqual([
      [middle + 1, 'deleted_before'],
      [head + 1, 'edited'],
    ]);
    // Put the chain back as it was for the tests below.
    await behindTheTriggersBack(async () => {
      await sql(`delete from domain_events where seq = $1`, [head + 1]);
      await restore(original);
    });
    expect((await verdict()).ok).toBe(true);
  });
});

describe('the verifier and the export', () => {
  it('are for the workspace admins only', async () => {
    expect((await member.browser.get(`/api/devices/${deviceId}/audit/verify`)).status).toBe(403);
    expect((await guest.browser.get(`/api/devices/${deviceId}/audit/export`)).status).toBe(403);
    const stranger = await signedIn(server);
    expect((await stranger.browser.get(`/api/devices/${deviceId}/audit/verify`)).status).toBe(404);
  });

  it('exports CSV (the one CSV writer) and JSON with the chain and the verdict', async () => {
    const csv = await admin.browser.get(`/api/devices/${deviceId}/audit/export?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await csv.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'seq,id,occurred_at_utc,actor_id,actor_name,action,object_type,object_id,device_id,project_id,before,after,reason,request_id,prev_hash,hash',
    );
    expect(lines.some((line) => line.includes('Sizing study finished'))).toBe(true);
    const exported = await json<{ verdict: AuditVerdict; rows: { seq: number; hash: string; prevHash: string }[] }>(
      await admin.browser.get(`/api/devices/${deviceId}/audit/export?format=json`),
    );
    expect(exported.verdict.ok).toBe(true);
    expect(exported.rows.length).toBe(lines.length - 1);
    expect(exported.rows[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('bundles both exports in a ZIP with their SHA-256 in a manifest and SHA256SUMS, which sha256sum accepts', async () => {
    expect((await guest.browser.get(`/api/devices/${deviceId}/audit/export?format=zip`)).status).toBe(403);
    const response = await admin.browser.get(`/api/devices/${deviceId}/audit/export?format=zip`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toMatch(/filename="audit-trail-\d{4}-\d{2}-\d{2}\.zip"/);
    const files = await unzipFiles(new Uint8Array(await response.arrayBuffer()));
    expect([...files.keys()].sort()).toEqual([
      'README.txt',
      'SHA256SUMS',
      'audit-trail.csv',
      'audit-trail.json',
      'manifest.json',
    ]);
    const text = (name: string) => new TextDecoder().decode(files.get(name));
    const manifest = JSON.parse(text('manifest.json')) as {
      rows: number;
      headHash: string;
      verdictOk: boolean;
      files: { name: string; bytes: number; sha256: string }[];
    };
    const trail = JSON.parse(text('audit-trail.json')) as { verdict: AuditVerdict; rows: { hash: string }[] };
    expect(manifest).toMatchObject({ rows: trail.rows.length, headHash: trail.verdict.headHash, verdictOk: true });
    expect(text('audit-trail.csv').trimEnd().split('\r\n')).toHaveLength(trail.rows.length + 1);
    for (const file of manifest.files)
      expect(file).toEqual({
        name: file.name,
        bytes: files.get(file.name)!.length,
        sha256: createHash('sha256').update(files.get(file.name)!).digest('hex'),
      });
    // An inspector's own tool agrees (coreutils), and finds a changed file.
    const dir = await mkdtemp(join(tmpdir(), 'audit-bundle-'));
    try {
      for (const [name, bytes] of files) await writeFile(join(dir, name), bytes);
      const check = spawnSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: dir, encoding: 'utf8' });
      expect(check.status, check.stderr).toBe(0);
      expect(check.stdout).toContain('audit-trail.csv: OK');
      await writeFile(join(dir, 'audit-trail.csv'), `${text('audit-trail.csv')}1,forged\r\n`);
      expect(spawnSync('sha256sum', ['-c', 'SHA256SUMS'], { cwd: dir, encoding: 'utf8' }).stdout).toContain(
        'audit-trail.csv: FAILED',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the activity feed', () => {
  it('shows a guest only the events of projects they are on', async () => {
    const mine = await json<ActivityList>(await guest.browser.get(`/api/devices/${deviceId}/activity`));
    expect(mine.items.length).toBeGreaterThan(0);
    expect(new Set(mine.items.map((item) => item.project?.id))).toEqual(new Set([projectId]));
    // The filters offer only what the guest may see.
    expect(mine.projects).toEqual([{ id: projectId, name: 'Audited valve' }]);
    expect(mine.kinds).toEqual(['project']);
    const all = await json<ActivityList>(await member.browser.get(`/api/devices/${deviceId}/activity`));
    // Members see the workspace's events too (the invitations of the set-up), guests never.
    expect(new Set(all.items.map((item) => item.project?.id ?? null))).toEqual(
      new Set([projectId, otherProjectId, null]),
    );
    expect(mine.items.some((item) => item.project === null)).toBe(false);
    expect(all.items[0]).toMatchObject({
      kind: 'project',
      summary: expect.stringMatching(/abandoned the project Hidden valve$/),
      reason: 'Replaced',
      link: expect.stringContaining(otherProjectId),
    });
  });

  it('filters by project, person, kind and date, and pages', async () => {
    const base = `/api/devices/${deviceId}/activity`;
    const byProject = await json<ActivityList>(await admin.browser.get(`${base}?projectId=${otherProjectId}`));
    expect(byProject.items.length).toBeGreaterThan(0);
    expect(new Set(byProject.items.map((item) => item.project?.id))).toEqual(new Set([otherProjectId]));
    const byPerson = await json<ActivityList>(await admin.browser.get(`${base}?actorId=${member.id}`));
    // The member's only change is accepting the invitation (issue 20: the invitee is its actor).
    expect(byPerson.items.map((item) => [item.action, item.link])).toEqual([
      ['team.invitation_accepted', `/manage-team?device=${deviceId}`],
    ]);
    const byKind = await json<ActivityList>(await admin.browser.get(`${base}?kind=comment`));
    expect(byKind.items).toEqual([]);
    const future = await json<ActivityList>(await admin.browser.get(`${base}?from=2999-01-01`));
    expect(future.items).toEqual([]);
    const first = await json<ActivityList>(await admin.browser.get(`${base}?limit=1`));
    expect(first.items).toHaveLength(1);
    expect(first.nextBefore).toBe(first.items[0]!.id);
    const second = await json<ActivityList>(await admin.browser.get(`${base}?limit=1&before=${first.nextBefore}`));
    expect(second.items[0]!.id).toBeLessThan(first.items[0]!.id);
  });

  it('names the system working for someone "System (for <their name>)", with no person to filter by', async () => {
    const cohortId = randomUUID();
    await new UnitOfWork(server.context.db.orm).run(async (tx) => {
      tx.events.record(
        systemEvent(admin.id, deviceId, null, 'cohort.prepared', { type: 'cohort', id: cohortId }, { name: 'Tall' }),
      );
    });
    await server.context.auditChainer.chainAll();
    const feed = await json<ActivityList>(await admin.browser.get(`/api/devices/${deviceId}/activity?kind=cohort`));
    expect(feed.items[0]).toMatchObject({
      action: 'cohort.prepared',
      actor: null,
      summary: `System (for ${admin.account.fullName}) finished preparing a cohort`,
      link: `/patient-cohort/cohorts/${cohortId}?device=${deviceId}`,
    });
    expect(feed.people.every((person) => person.name !== `System (for ${admin.account.fullName})`)).toBe(true);
  });
});
