import { createHash } from 'node:crypto';
import {
  designHistoryExportExpiredMessage,
  designHistoryExportNotFoundMessage,
  type DesignHistoryExport,
  type DesignHistoryExportList,
} from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directExportLimits } from '../../services/design-history-exports';
import type { TestServer } from '../../../test/helpers/test-server';
import { projectWorld } from '../../../test/fixtures/project-world';
import { errorOf, json, type Person } from '../../../test/fixtures/workspace.fixtures';

/**
 * The design history file of a large history (issue 20 item 6): the request queues an export job, the job makes the
 * file in the CPU pool and stores it, the trail records its SHA-256, the requester is told and downloads it; nobody
 * else may; after the retention the file is removed.
 */
let server: TestServer;
let admin: Person;
let member: Person;
let stranger: Person;
let deviceId = '';
let projectId = '';

const sql = (text: string, values?: unknown[]) => server.context.db.executeSql(text, values);
const base = () => `/api/devices/${deviceId}/design-history`;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function until<T>(read: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('Timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

beforeAll(async () => {
  const world = await projectWorld({
    people: { member: 'member', stranger: 'outsider' },
    project: { team: ['admin', 'member'], name: 'Long valve' },
  });
  ({ server, admin, deviceId, projectId } = world);
  ({ member, stranger } = world.people);
  // A history past the limit of a file made in the request: design inputs, written as the trail's rows.
  await sql(
    `insert into domain_events (actor_id, actor_name, action, object_type, object_id, device_id, project_id, after)
     select $1::uuid, 'Ada Admin', 'project.updated', 'project', $2::text, $3::uuid, $4::uuid,
       jsonb_build_object('name', 'Long valve ' || n)
     from generate_series(1, $5::int) as n`,
    [admin.id, projectId, deviceId, projectId, directExportLimits.items + 1],
  );
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

describe('the export of a large design history', () => {
  let queued: DesignHistoryExport;
  let ready: DesignHistoryExport;

  it('is queued as a job: 202 with the export, one event by the requester', async () => {
    const events = Number((await sql(`select count(*)::int as n from domain_events`)).rows[0]!.n);
    const response = await admin.browser.postJson(`${base()}/exports`, { projectId, format: 'pdf' });
    expect(response.status).toBe(202);
    queued = await json<DesignHistoryExport>(response);
    expect(queued).toMatchObject({ projectId, format: 'pdf', status: 'queued', download: null, sha256: null });
    const { rows } = await sql(`select action, actor_id, project_id from domain_events where id > $1 order by id`, [
      events,
    ]);
    expect(rows.filter((row) => row.actor_id === admin.id)).toEqual([
      { action: 'design_history.export_queued', actor_id: admin.id, project_id: projectId },
    ]);
  });

  it('becomes ready; the requester is told; the download is the file whose SHA-256 the trail records', async () => {
    ready = await until(async () => {
      const list = await json<DesignHistoryExportList>(await admin.browser.get(`${base()}/exports`));
      const found = list.items.find((item) => item.id === queued.id);
      expect(found?.status).not.toBe('failed');
      return found?.status === 'ready' ? found : undefined;
    });
    expect(ready.download).toBe(`${base()}/exports/${queued.id}/file`);
    expect(Date.parse(ready.expiresAt!) - Date.now()).toBeGreaterThan(6.9 * 24 * 3600_000);

    const response = await admin.browser.get(ready.download!);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const hash = sha256(bytes);
    expect(response.headers.get('x-content-sha256')).toBe(hash);
    expect(ready.sha256).toBe(hash);
    // The trail: the system made the file on behalf of the requester, with its hash and the items it holds.
    const { rows } = await sql(
      `select actor_id, actor_name, project_id, after from domain_events
       where action = 'design_history.exported' and after->>'exportId' = $1`,
      [queued.id],
    );
    expect(rows).toEqual([
      {
        actor_id: null,
        actor_name: expect.stringContaining(admin.account.fullName),
        project_id: projectId,
        after: expect.objectContaining({ sha256: hash, bytes: bytes.length, startedBy: admin.id }),
      },
    ]);
    expect((rows[0]!.after as { items: number }).items).toBeGreaterThan(directExportLimits.items);

    const notification = await until(async () => {
      const list = (await (await admin.browser.get('/api/notifications')).json()) as {
        items: { kind: string; link: string | null; body: string }[];
      };
      return list.items.find((item) => item.kind === 'design-history.export_ready');
    });
    expect(notification.link).toBe(`/design-history?export=${queued.id}`);
    expect(notification.body).toContain(ready.fileName!);
  });

  it('is refused to anyone but the requester, even a teammate who may export the same history', async () => {
    const teammate = await member.browser.get(ready.download!);
    expect(teammate.status).toBe(404);
    expect((await errorOf(teammate)).message).toBe(designHistoryExportNotFoundMessage);
    expect((await json<DesignHistoryExportList>(await member.browser.get(`${base()}/exports`))).items).toEqual([]);
    expect((await stranger.browser.get(ready.download!)).status).toBe(404);
  });

  it('is removed after the retention: the file is gone, the download says so', async () => {
    const later = new Date(Date.parse(ready.expiresAt!) + 1000);
    expect(await server.context.designHistoryExports.expire(later)).toBe(1);
    const response = await admin.browser.get(ready.download!);
    expect(response.status).toBe(410);
    expect((await errorOf(response)).message).toBe(designHistoryExportExpiredMessage);
    const list = await json<DesignHistoryExportList>(await admin.browser.get(`${base()}/exports`));
    expect(list.items.find((item) => item.id === queued.id)).toMatchObject({ status: 'expired', download: null });
  });
});
