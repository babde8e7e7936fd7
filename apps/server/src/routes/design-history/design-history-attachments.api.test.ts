import { createHash } from 'node:crypto';
import {
  attachmentDuplicateMessage,
  attachmentEmptyMessage,
  attachmentNameMessage,
  attachmentNotFoundMessage,
  attachmentSignedMessage,
  attachmentTypeMessage,
  type DesignHistoryAttachment,
  type DesignHistoryEntry,
  type DesignHistoryExport,
  type DesignHistoryExportList,
  type DesignHistoryList,
  type Signature,
} from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentStorageKey } from '../../services/design-history-attachments';
import { directExportLimits } from '../../services/design-history-exports';
import type { TestServer } from '../../../test/helpers/test-server';
import { designHistoryWorld } from '../../../test/fixtures/design-history.fixtures';
import { errorOf, json, type Person } from '../../../test/fixtures/workspace.fixtures';
import { unzipFiles } from '../../../test/helpers/exported-files';
import { pdfPhrases } from '../../../../../test/helpers/pdf-text';
import { putBytes } from '../../../test/helpers/pictures';
import { pollUntil } from '../../../test/helpers/server-process';

/**
 * Files attached to design history entries (issue 20 item 4): stored under their SHA-256 in the workspace's region,
 * recorded with one event, listed with the entry, downloaded by whoever may read the project, bound by a signature of
 * the entry (none can be attached after it, the database refuses changes), and carried by the evidence ZIP.
 */
let server: TestServer;
let admin: Person;
let member: Person;
let outsideMember: Person;
let guest: Person;
let stranger: Person;
let deviceId = '';
let projectId = '';
let otherProjectId = '';
let entryId = '';

const sql = (text: string, values?: unknown[]) => server.context.db.executeSql(text, values);
const base = () => `/api/devices/${deviceId}/design-history`;
const count = async (table: string) => Number((await sql(`select count(*)::int as n from ${table}`)).rows[0]!.n);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A file's bytes: `size` bytes of a repeating text with a marker, so different markers give different hashes. */
const fileBytes = (marker: string, size = 4096) =>
  new Uint8Array(Buffer.alloc(size, `${marker} verification protocol `));

function attach(
  person: Person,
  entry: string,
  name: string,
  bytes: Uint8Array,
  contentType = 'application/pdf',
): Promise<Response> {
  return putBytes(
    person.browser,
    `${base()}/entries/${entry}/attachments?${new URLSearchParams({ name }).toString()}`,
    bytes,
    {
      method: 'POST',
      contentType,
    },
  );
}

async function newEntry(person: Person, title: string, project = projectId): Promise<string> {
  const response = await person.browser.postJson(`${base()}/entries`, {
    projectId: project,
    kind: 'verification',
    title,
  });
  expect(response.status).toBe(201);
  return (await json<DesignHistoryEntry>(response)).id;
}

async function entryInTimeline(person: Person, id: string): Promise<DesignHistoryEntry> {
  const list = await json<DesignHistoryList>(await person.browser.get(`${base()}?limit=100`));
  return list.items.find((item) => item.entry?.id === id)!.entry!;
}

beforeAll(async () => {
  const world = await designHistoryWorld('Attached valve');
  ({ server, admin, deviceId, projectId, otherProjectId } = world);
  ({ member, outsideMember, guest, stranger } = world.people);
  entryId = await newEntry(member, 'Bench verification protocol');
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe('attaching a file', () => {
  let attachment: DesignHistoryAttachment;
  const protocol = fileBytes('Protocol');

  it('stores it under its SHA-256, records one event and lists it with the entry', async () => {
    const last = await lastEventId();
    const response = await attach(member, entryId, 'Bench protocol – rev B.pdf', protocol);
    expect(response.status).toBe(201);
    attachment = await json<DesignHistoryAttachment>(response);
    expect(attachment).toMatchObject({
      fileName: 'Bench protocol – rev B.pdf',
      contentType: 'application/pdf',
      bytes: protocol.length,
      sha256: sha256(protocol),
      download: `${base()}/entries/${entryId}/attachments/${attachment.id}`,
    });
    expect(attachment.uploadedAt).toMatch(/Z$/);
    const stored = await server.context.blobs.get('eu', attachmentStorageKey(deviceId, sha256(protocol)));
    expect(stored && sha256(stored)).toBe(sha256(protocol));
    const { rows } = await sql(
      `select action, actor_id, project_id, object_id, after from domain_events where id > $1`,
      [last],
    );
    expect(rows).toEqual([
      {
        action: 'design_history.attachment_added',
        actor_id: member.id,
        project_id: projectId,
        object_id: attachment.id,
        after: {
          entryId,
          fileName: 'Bench protocol – rev B.pdf',
          contentType: 'application/pdf',
          bytes: protocol.length,
          sha256: sha256(protocol),
        },
      },
    ]);
    expect((await entryInTimeline(guest, entryId)).attachments).toEqual([attachment]);
    // The feed reads it, linked to the project's design history; its kind is the attachment.
    const feed = (await (await guest.browser.get(`/api/devices/${deviceId}/activity?limit=5`)).json()) as {
      items: { objectId: string; kind: string; summary: string; link: string | null }[];
    };
    expect(feed.items.find((item) => item.objectId === attachment.id)).toMatchObject({
      kind: 'design_history_attachment',
      summary: expect.stringContaining(
        'attached a file to an entry of the design history of the project Attached valve',
      ),
      link: `/design-history?projectId=${projectId}`,
    });
  });

  it('is downloaded, byte for byte, by whoever may read the project; others are refused', async () => {
    const response = await guest.browser.get(attachment.download);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename*=UTF-8''${encodeURIComponent('Bench protocol – rev B.pdf')}`,
    );
    expect(response.headers.get('x-content-sha256')).toBe(sha256(protocol));
    expect(sha256(new Uint8Array(await response.arrayBuffer()))).toBe(sha256(protocol));
    // A member reads every project; a stranger learns nothing.
    expect((await outsideMember.browser.get(attachment.download)).status).toBe(200);
    expect((await stranger.browser.get(attachment.download)).status).toBe(404);
    const unknown = await guest.browser.get(`${base()}/entries/${entryId}/attachments/${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).message).toBe(attachmentNotFoundMessage);
  });

  it('of another project is refused to a guest who is not on it', async () => {
    const otherEntry = await newEntry(admin, 'Other protocol', otherProjectId);
    const response = await attach(admin, otherEntry, 'other.txt', fileBytes('Other'), 'text/plain');
    expect(response.status).toBe(201);
    const { download } = await json<DesignHistoryAttachment>(response);
    expect([403, 404]).toContain((await guest.browser.get(download)).status);
  });

  it('is refused with a message when not valid or not allowed, changing nothing', async () => {
    const before = [await count('domain_events'), await count('design_history_attachments')];
    const refusals: [Response, number, string | null][] = [
      [await attach(member, entryId, 'empty.pdf', new Uint8Array(0)), 400, attachmentEmptyMessage],
      [await attach(member, entryId, 'folder/name.pdf', fileBytes('Slash')), 400, attachmentNameMessage],
      [await attach(member, entryId, '   ', fileBytes('Blank')), 400, attachmentNameMessage],
      [
        await attach(member, entryId, 'odd.pdf', fileBytes('Type'), `application/${'x'.repeat(200)}`),
        415,
        attachmentTypeMessage,
      ],
      [await attach(member, entryId, 'odd.pdf', fileBytes('Type'), 'not a type'), 415, null],
      [await attach(member, entryId, 'again.pdf', protocol), 409, attachmentDuplicateMessage],
      // Attaching is work on the project: a guest reads it, a member off its team does not work on it.
      [await attach(guest, entryId, 'guest.pdf', fileBytes('Guest')), 403, null],
      [await attach(outsideMember, entryId, 'outside.pdf', fileBytes('Outside')), 403, null],
      [await attach(member, crypto.randomUUID(), 'nowhere.pdf', fileBytes('Nowhere')), 404, null],
    ];
    for (const [response, status, message] of refusals) {
      expect(response.status).toBe(status);
      if (message) expect((await errorOf(response)).message).toBe(message);
    }
    expect([await count('domain_events'), await count('design_history_attachments')]).toEqual(before);
  });

  it('keeps the same bytes once, whichever entries they are attached to', async () => {
    const second = await newEntry(member, 'Second protocol');
    const response = await attach(member, second, 'copy.pdf', protocol);
    expect(response.status).toBe(201);
    const { rows } = await sql(
      `select count(*)::int as n, count(distinct storage_key)::int as keys from design_history_attachments where sha256 = $1`,
      [sha256(protocol)],
    );
    expect(rows[0]).toEqual({ n: 2, keys: 1 });
  });
});

describe('a signed entry', () => {
  let signedEntry = '';
  let report: DesignHistoryAttachment;
  let signature: Signature;

  it('binds its attachments: the signature’s manifest lists their hashes', async () => {
    signedEntry = await newEntry(admin, 'Fatigue test report');
    report = await json<DesignHistoryAttachment>(
      await attach(admin, signedEntry, 'fatigue.csv', fileBytes('Fatigue'), 'text/csv'),
    );
    const response = await admin.browser.postJson(`${base()}/signatures`, {
      record: { type: 'entry', id: signedEntry },
      meaning: 'approval',
      email: admin.account.email,
      password: admin.account.password,
    });
    expect(response.status).toBe(201);
    signature = await json<Signature>(response);
    expect(signature.valid).toBe(true);
    const { rows } = await sql(`select manifest from electronic_signatures where id = $1`, [signature.id]);
    expect(rows[0]!.manifest).toMatchObject({
      content: {
        attachments: [
          {
            id: report.id,
            fileName: 'fatigue.csv',
            contentType: 'text/csv',
            bytes: report.bytes,
            sha256: report.sha256,
          },
        ],
      },
    });
  });

  it('takes no more files: the API answers 409, the database refuses; attachments are never changed', async () => {
    const events = await count('domain_events');
    const refused = await attach(admin, signedEntry, 'late.pdf', fileBytes('Late'));
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).message).toBe(attachmentSignedMessage);
    expect(await count('domain_events')).toBe(events);
    await expect(
      sql(
        `insert into design_history_attachments (device_id, project_id, entry_id, file_name, content_type, bytes, sha256,
           region, storage_key, uploaded_by)
         values ($1, $2, $3, 'x.pdf', 'application/pdf', 1, 'aa', 'eu', 'k', $4)`,
        [deviceId, projectId, signedEntry, admin.id],
      ),
    ).rejects.toThrow(/signed design history entry/);
    await expect(sql(`update design_history_attachments set file_name = 'renamed.csv'`)).rejects.toThrow(/immutable/);
    await expect(sql(`delete from design_history_attachments`)).rejects.toThrow(/immutable/);
    // The signature still holds: the record as it is now gives the signed hash.
    const entry = (await json<DesignHistoryList>(await admin.browser.get(`${base()}?limit=100`))).items.find(
      (item) => item.entry?.id === signedEntry,
    )!;
    expect(entry.signatures).toEqual([signature]);
    expect(entry.entry!.attachments).toEqual([report]);
  });

  it('is exported with its files: the ZIP carries them under their SHA-256, the PDF lists them', async () => {
    const response = await admin.browser.postJson(`${base()}/exports`, { projectId, format: 'zip' });
    expect(response.status).toBe(200);
    const files = await unzipFiles(new Uint8Array(await response.arrayBuffer()));
    const manifest = JSON.parse(new TextDecoder().decode(files.get('manifest.json'))) as {
      attachments: number;
      files: { name: string; sha256: string }[];
    };
    const attached = manifest.files.filter((file) => file.name.startsWith('attachments/'));
    expect(manifest.attachments).toBe(attached.length);
    expect(attached).toContainEqual({
      name: `attachments/${signedEntry}/${report.id}-fatigue.csv`,
      bytes: report.bytes,
      sha256: report.sha256,
    });
    for (const file of attached) expect(sha256(files.get(file.name)!)).toBe(file.sha256);
    const text = pdfPhrases(files.get('design-history.pdf')!);
    expect(text).toContain(`Attachment: fatigue.csv (${report.bytes} bytes, SHA-256 ${report.sha256})`);
  });
});

describe('the evidence ZIP of a history with large attachments', () => {
  it('is made by a job: the attached bytes count toward the limit of a file made in the request', async () => {
    const entry = await newEntry(member, 'CT scans of the bench');
    const large = fileBytes('Large', directExportLimits.snapshotBytes + 1024);
    expect((await attach(member, entry, 'scans.bin', large, 'application/octet-stream')).status).toBe(201);
    const zip = await member.browser.postJson(`${base()}/exports`, { projectId, format: 'zip' });
    expect(zip.status).toBe(202);
    const queued = await json<DesignHistoryExport>(zip);
    expect(queued).toMatchObject({ format: 'zip', status: 'queued' });
    const ready = await pollUntil(
      'the queued export',
      async () =>
        (await json<DesignHistoryExportList>(await member.browser.get(`${base()}/exports`))).items.find(
          (item) => item.id === queued.id,
        ) ?? null,
      (found) => found.status !== 'queued',
      90_000,
    );
    expect(ready.status).toBe('ready');
    const files = await unzipFiles(new Uint8Array(await (await member.browser.get(ready.download!)).arrayBuffer()));
    const carried = [...files].find(([name]) => name.startsWith(`attachments/${entry}/`));
    expect(carried && sha256(carried[1])).toBe(sha256(large));
    // The PDF lists the files without carrying them: still made in the request.
    expect((await member.browser.postJson(`${base()}/exports`, { projectId, format: 'pdf' })).status).toBe(200);
  }, 120_000);
});

/** The id of the trail's last event (the rows after it are the ones a call added). */
async function lastEventId(): Promise<number> {
  const { rows } = await sql(`select coalesce(max(id), 0) as id from domain_events`);
  return Number(rows[0]!.id);
}
