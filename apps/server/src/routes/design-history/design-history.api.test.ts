import { createHash } from 'node:crypto';
import {
  alreadySignedMessage,
  designHistoryProjectNotFoundMessage,
  entryTitleRequiredMessage,
  signatureCredentialsMessage,
  signatureEmailRequiredMessage,
  signedEntryMessage,
  type DesignHistoryEntry,
  type DesignHistoryList,
  type Signature,
} from '@insilico/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../../test/helpers/test-server';
import { designHistoryWorld } from '../../../test/fixtures/design-history.fixtures';
import { errorOf, json, send, type Person } from '../../../test/fixtures/workspace.fixtures';
import { insertVersionWithModel } from '../../../test/factories/room-rows';
import { unzipFiles } from '../../../test/helpers/exported-files';
import { pdfPhrases } from '../../../../../test/helpers/pdf-text';

/**
 * The design history file and electronic signatures (issue 20 items 4–5): the timeline from the trail's events and
 * people's entries, role scope, filters and paging; signing with the password re-entered (both components at a
 * session's first signing), bound to the content hash, recorded as an event; a signed entry refuses edits.
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

const sql = (text: string, values?: unknown[]) => server.context.db.executeSql(text, values);
const base = () => `/api/devices/${deviceId}/design-history`;
const count = async (table: string) => Number((await sql(`select count(*)::int as n from ${table}`)).rows[0]!.n);

async function timeline(person: Person, query = ''): Promise<DesignHistoryList> {
  const response = await person.browser.get(`${base()}${query}`);
  expect(response.status).toBe(200);
  return json<DesignHistoryList>(response);
}

async function addEntry(person: Person, body: Record<string, unknown>): Promise<Response> {
  return person.browser.postJson(`${base()}/entries`, { projectId, kind: 'design_input', ...body });
}

beforeAll(async () => {
  const world = await designHistoryWorld('Signed valve');
  ({ server, admin, deviceId, projectId, otherProjectId } = world);
  ({ member, outsideMember, guest, stranger } = world.people);
  await admin.browser.postJson(`/api/devices/${deviceId}/projects/${projectId}/status`, {
    status: 'completed',
    reason: 'Bench tests passed',
  });
  await admin.browser.postJson(`/api/devices/${deviceId}/projects/${otherProjectId}/comments`, { body: 'Not design' });
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe('entries', () => {
  it('are added with their event in the trail, and refused with a message when not valid', async () => {
    const events = await count('domain_events');
    const refused = await addEntry(admin, { title: '   ' });
    expect(refused.status).toBe(400);
    expect((await errorOf(refused)).message).toBe(entryTitleRequiredMessage);
    const foreign = await addEntry(admin, { title: 'Cites another project', evidenceEventIds: [999_999] });
    expect(foreign.status).toBe(400);
    expect(await count('domain_events')).toBe(events);
    expect(await count('design_history_entries')).toBe(0);

    const response = await addEntry(admin, { title: 'Sizing range 20–29 mm', body: 'From the user needs.' });
    expect(response.status).toBe(201);
    const entry = await json<DesignHistoryEntry>(response);
    expect(entry).toMatchObject({ kind: 'design_input', title: 'Sizing range 20–29 mm', supersededById: null });
    const { rows } = await sql(`select action, actor_id, after from domain_events where object_id = $1`, [entry.id]);
    expect(rows).toEqual([
      expect.objectContaining({
        action: 'design_history.entry_added',
        actor_id: admin.id,
        after: expect.objectContaining({ title: 'Sizing range 20–29 mm' }),
      }),
    ]);
  });

  it('are for the project team that works on it: not for a guest or a member off the team', async () => {
    expect((await addEntry(guest, { title: 'Guest note' })).status).toBe(403);
    expect((await addEntry(outsideMember, { title: 'Outside note' })).status).toBe(403);
    expect((await addEntry(member, { title: 'Member note', kind: 'verification' })).status).toBe(201);
  });

  it('the list says per project who may work and sign there, by the same policy as the refusals', async () => {
    const rights = async (person: Person) =>
      Object.fromEntries(
        (await timeline(person)).projects.map((project) => [project.name, [project.canWork, project.canSign]]),
      );
    expect(await rights(admin)).toEqual({ 'Other valve': [true, true], 'Signed valve': [true, true] });
    expect(await rights(member)).toEqual({ 'Other valve': [false, false], 'Signed valve': [true, true] });
    expect(await rights(outsideMember)).toEqual({ 'Other valve': [false, false], 'Signed valve': [false, false] });
    expect(await rights(guest)).toEqual({ 'Signed valve': [false, false] });
  });
});

describe('the timeline', () => {
  it('holds the design events and entries by section, not the rest of the trail', async () => {
    const all = await timeline(admin);
    expect(all.items.map((item) => [item.section, item.action])).toEqual([
      ['evidence', 'design_history.entry_added'],
      ['input', 'design_history.entry_added'],
      ['review', 'project.status_changed'],
    ]);
    expect(all.items.some((item) => item.action.startsWith('comment.'))).toBe(false);
    const status = all.items[2]!;
    expect(status).toMatchObject({
      project: { id: projectId, name: 'Signed valve' },
      reason: 'Bench tests passed',
      snapshot: { before: { status: 'active' }, after: expect.objectContaining({ status: 'completed' }) },
      record: { type: 'event', id: String(status.id) },
      signatures: [],
    });
    expect(all.projects).toEqual([
      { id: otherProjectId, name: 'Other valve', canWork: true, canSign: true },
      { id: projectId, name: 'Signed valve', canWork: true, canSign: true },
    ]);
    expect(all.signing).toEqual({ method: 'password', needsEmail: true });
    const inputs = await timeline(admin, '?section=input');
    expect(inputs.items.map((item) => item.entry?.title)).toEqual(['Sizing range 20–29 mm']);
    expect((await timeline(admin, `?projectId=${otherProjectId}`)).items).toEqual([]);
  });

  it('pages, and shows a guest only the projects they are on', async () => {
    const first = await timeline(admin, '?limit=2');
    expect(first.items).toHaveLength(2);
    const second = await timeline(admin, `?limit=2&before=${first.nextBefore}`);
    expect(second.items.map((item) => item.action)).toEqual(['project.status_changed']);
    expect(second.nextBefore).toBeNull();
    const guestView = await timeline(guest);
    expect(guestView.projects).toEqual([{ id: projectId, name: 'Signed valve', canWork: false, canSign: false }]);
    expect(guestView.items).toHaveLength(3);
    expect((await stranger.browser.get(base())).status).toBe(404);
  });
});

describe('signing', () => {
  const sign = (person: Person, body: Record<string, unknown>) => person.browser.postJson(`${base()}/signatures`, body);
  let entryId = '';

  beforeAll(async () => {
    const list = await timeline(admin, '?section=input');
    entryId = list.items[0]!.entry!.id;
  });

  it('asks for the e-mail address too at the first signing of a session, and refuses a wrong password', async () => {
    const before = [await count('electronic_signatures'), await count('domain_events')];
    const noEmail = await sign(admin, {
      record: { type: 'entry', id: entryId },
      meaning: 'approval',
      password: admin.account.password,
    });
    expect(noEmail.status).toBe(400);
    expect((await errorOf(noEmail)).message).toBe(signatureEmailRequiredMessage);
    const wrong = await sign(admin, {
      record: { type: 'entry', id: entryId },
      meaning: 'approval',
      email: admin.account.email,
      password: 'not-my-password',
    });
    expect(wrong.status).toBe(400);
    expect((await errorOf(wrong)).message).toBe(signatureCredentialsMessage);
    const otherEmail = await sign(admin, {
      record: { type: 'entry', id: entryId },
      meaning: 'approval',
      email: member.account.email,
      password: member.account.password,
    });
    expect(otherEmail.status).toBe(400);
    expect([await count('electronic_signatures'), await count('domain_events')]).toEqual(before);
  });

  it('is for the project team: a guest or a member off the team is refused', async () => {
    const body = (person: Person) => ({
      record: { type: 'entry', id: entryId },
      meaning: 'review',
      email: person.account.email,
      password: person.account.password,
    });
    expect((await sign(guest, body(guest))).status).toBe(403);
    expect((await sign(outsideMember, body(outsideMember))).status).toBe(403);
  });

  it('signs with name, UTC time, meaning and the content hash, records the signing, and shows it on the record', async () => {
    const started = Date.now();
    const response = await sign(admin, {
      record: { type: 'entry', id: entryId },
      meaning: 'approval',
      email: admin.account.email,
      password: admin.account.password,
    });
    expect(response.status).toBe(201);
    const signature = await json<Signature>(response);
    expect(signature).toMatchObject({
      meaning: 'approval',
      signer: { id: admin.id, name: admin.account.fullName },
      contentHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      valid: true,
    });
    expect(signature.signedAt).toMatch(/Z$/);
    expect(Date.parse(signature.signedAt)).toBeGreaterThanOrEqual(started - 5_000);
    const { rows } = await sql(`select action, after from domain_events where object_id = $1`, [signature.id]);
    expect(rows).toEqual([
      {
        action: 'signature.signed',
        after: expect.objectContaining({
          meaning: 'approval',
          contentHash: signature.contentHash,
          record: { type: 'entry', id: entryId },
        }),
      },
    ]);
    const list = await timeline(admin);
    expect(list.signing.needsEmail).toBe(false);
    const signed = list.items.find((item) => item.entry?.id === entryId)!;
    expect(signed.signatures).toEqual([signature]);
    // The signing is part of the reviews, and the guest sees the signature on the record too.
    expect(list.items[0]).toMatchObject({ section: 'review', action: 'signature.signed' });
    const guestView = await timeline(guest);
    expect(guestView.items.find((item) => item.entry?.id === entryId)!.signatures).toEqual([signature]);
    // Later in the same session the password alone signs.
    const status = list.items.find((item) => item.action === 'project.status_changed')!;
    const again = await sign(admin, { record: status.record, meaning: 'review', password: admin.account.password });
    expect(again.status).toBe(201);
    // The same meaning twice (a double click) is refused; nothing more is written.
    const signatures = await count('electronic_signatures');
    const twice = await sign(admin, { record: status.record, meaning: 'review', password: admin.account.password });
    expect(twice.status).toBe(409);
    expect((await errorOf(twice)).message).toBe(alreadySignedMessage);
    expect(await count('electronic_signatures')).toBe(signatures);
  });

  it('leaves a signed entry unchangeable: the API answers 409, the database refuses; it is superseded instead', async () => {
    const patch = await send(admin.browser, 'PATCH', `${base()}/entries/${entryId}`, { title: 'Changed' });
    expect(patch.status).toBe(409);
    expect((await errorOf(patch)).message).toBe(signedEntryMessage);
    await expect(sql(`update design_history_entries set title = 'x' where id = $1`, [entryId])).rejects.toThrow(
      /signed design history entry/,
    );
    await expect(sql(`delete from design_history_entries where id = $1`, [entryId])).rejects.toThrow(/signed/);
    await expect(sql(`update electronic_signatures set meaning = 'review'`)).rejects.toThrow(/append-only/);
    await expect(sql(`delete from electronic_signatures`)).rejects.toThrow(/append-only/);
    const replacement = await addEntry(admin, { title: 'Sizing range 19–29 mm', supersedesId: entryId });
    expect(replacement.status).toBe(201);
    const replacementId = (await json<DesignHistoryEntry>(replacement)).id;
    const list = await timeline(admin, '?section=input');
    expect(list.items.map((item) => [item.entry?.id, item.entry?.supersededById])).toEqual([
      [replacementId, null],
      [entryId, replacementId],
    ]);
    // An unsigned entry still changes, with its event.
    const edited = await send(admin.browser, 'PATCH', `${base()}/entries/${replacementId}`, { body: 'Corrected' });
    expect(edited.status).toBe(200);
    expect((await json<DesignHistoryEntry>(edited)).body).toBe('Corrected');
  });

  it('is bound to what it signed: moved onto another record it no longer verifies', async () => {
    const list = await timeline(admin);
    const statusItem = list.items.find((item) => item.action === 'project.status_changed')!;
    const signature = statusItem.signatures[0]!;
    expect(signature.valid).toBe(true);
    const entryItem = list.items.find((item) => item.entry && item.signatures.length === 0)!;
    await sql('alter table electronic_signatures disable trigger user');
    try {
      await sql(`update electronic_signatures set record_type = 'entry', record_id = $1 where id = $2`, [
        entryItem.entry!.id,
        signature.id,
      ]);
      const moved = (await timeline(admin)).items.find((item) => item.entry?.id === entryItem.entry!.id)!;
      expect(moved.signatures).toEqual([expect.objectContaining({ id: signature.id, valid: false })]);
      await sql(`update electronic_signatures set record_type = 'event', record_id = $1 where id = $2`, [
        String(statusItem.id),
        signature.id,
      ]);
    } finally {
      await sql('alter table electronic_signatures enable trigger user');
    }
  });

  it('counts wrong passwords like sign-in: the sixth within a minute is refused with 429', async () => {
    const record = (await timeline(member)).items.find((item) => item.action === 'project.status_changed')!.record;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const response = await sign(member, {
        record,
        meaning: 'review',
        email: member.account.email,
        password: `wrong-${attempt}`,
      });
      expect(response.status).toBe(400);
    }
    const refused = await sign(member, {
      record,
      meaning: 'review',
      email: member.account.email,
      password: member.account.password,
    });
    expect(refused.status).toBe(429);
    expect((await errorOf(refused)).message).toMatch(/^Too many attempts/);
  });
});

describe('trace links and change impact', () => {
  const addVersion = async (name: string) => {
    const { versionId } = await insertVersionWithModel(server, deviceId, { name, status: 'ready' });
    const response = await admin.browser.postJson(`/api/devices/${deviceId}/projects/${projectId}/device-versions`, {
      versionId,
    });
    expect(response.status).toBe(200);
    return versionId;
  };

  it('cites evidence from an entry, and marks evidence of an older version "to be re-run" when a new one joins', async () => {
    const first = await addVersion('Gen 1');
    // A simulation's start as the simulation service records it (starting a real one needs a room on a cohort).
    const { rows } = await sql(
      `insert into domain_events (action, object_type, object_id, device_id, project_id, actor_id, actor_name, after)
       values ('simulation.started', 'simulation', gen_random_uuid()::text, $1, $2, $3, 'Admin',
               jsonb_build_object('name', 'Run 1', 'deviceVersionId', $4::text)) returning id`,
      [deviceId, projectId, admin.id, first],
    );
    const runId = Number(rows[0]!.id);
    const evidenceOf = async () => (await timeline(admin, '?section=evidence')).items.find((i) => i.id === runId)!;
    expect((await evidenceOf()).toBeRerun).toBeNull();

    const cited = await addEntry(admin, {
      kind: 'verification',
      title: 'Run 1 verifies the sizing',
      evidenceEventIds: [runId],
    });
    expect(cited.status).toBe(201);
    const citing = (await timeline(admin, '?section=evidence')).items.find(
      (item) => item.entry?.title === 'Run 1 verifies the sizing',
    )!;
    expect(citing.evidence).toEqual([
      { id: runId, summary: 'Admin started a simulation in the project Signed valve', link: expect.any(String) },
    ]);

    const second = await addVersion('Gen 2');
    expect((await evidenceOf()).toBeRerun).toEqual({ versionId: second, versionName: 'Gen 2' });
    // The new version is a design output of the project.
    const outputs = await timeline(admin, '?section=output');
    expect(outputs.items.map((item) => item.snapshot)).toEqual([
      { before: null, after: { name: 'Gen 2' } },
      { before: null, after: { name: 'Gen 1' } },
    ]);
  });
});

describe('the export', () => {
  it('is CSV of the timeline, oldest first, with the signatures', async () => {
    const response = await admin.browser.get(`${base()}/export?projectId=${projectId}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await response.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('event_id,occurred_at_utc,project,section,action,summary,actor,reason,entry_text,signatures');
    expect(lines[1]).toContain('project.status_changed');
    expect(lines.some((line) => line.includes(`approval by ${admin.account.fullName}`))).toBe(true);
  });
});

describe('the design history file (PDF and evidence ZIP)', () => {
  const exportFile = (person: Person, body: Record<string, unknown>) =>
    person.browser.postJson(`${base()}/exports`, body);
  const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
  const exported = async () =>
    (await sql(`select actor_id, project_id, after from domain_events where action = 'design_history.exported'`)).rows;

  it('is refused for a project the caller cannot see, a stranger or an unknown format, recording nothing', async () => {
    const events = await count('domain_events');
    const guestsOther = await exportFile(guest, { projectId: otherProjectId, format: 'pdf' });
    expect(guestsOther.status).toBe(404);
    expect((await errorOf(guestsOther)).message).toBe(designHistoryProjectNotFoundMessage);
    expect((await exportFile(stranger, { format: 'pdf' })).status).toBe(404);
    expect((await exportFile(admin, { format: 'docx' })).status).toBe(400);
    expect(await count('domain_events')).toBe(events);
  });

  it('is a PDF with the sections and the signatures’ manifestation, its SHA-256 recorded in the trail', async () => {
    const response = await exportFile(member, { projectId, format: 'pdf' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toMatch(
      /filename="design-history-signed-valve-\d{4}-\d{2}-\d{2}\.pdf"/,
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const hash = sha256(bytes);
    expect(response.headers.get('x-content-sha256')).toBe(hash);
    expect(await exported()).toEqual([
      {
        actor_id: member.id,
        project_id: projectId,
        after: expect.objectContaining({ format: 'pdf', sha256: hash, bytes: bytes.length }),
      },
    ]);
    const text = pdfPhrases(bytes);
    expect(text).toContain('Project Signed valve');
    expect(text).toContain('Reviews and approvals');
    expect(text).toContain('Sizing range 20–29 mm');
    expect(text).toMatch(new RegExp(`Approved by ${admin.account.fullName} on \\d\\d\\.\\d\\d\\.\\d{4} [\\d:]{8} UTC`));
    expect(text).toContain(`Reviewed by ${admin.account.fullName}`);
    expect(text).toContain('to be re-run on Gen 2');
  });

  it('is a ZIP of the PDF, the evidence, the signatures and the audit rows, each under its SHA-256', async () => {
    const response = await exportFile(admin, { projectId, format: 'zip' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect((await exported()).at(-1)).toMatchObject({ after: { format: 'zip', sha256: sha256(bytes) } });
    const files = await unzipFiles(bytes);
    const read = <T>(name: string) => JSON.parse(new TextDecoder().decode(files.get(name))) as T;
    const manifest = read<{ projectId: string; files: { name: string; sha256: string }[] }>('manifest.json');
    expect(manifest.projectId).toBe(projectId);
    for (const file of manifest.files) expect(sha256(files.get(file.name)!), file.name).toBe(file.sha256);
    expect([...files.keys()].filter((name) => name.startsWith('evidence/'))).toEqual([
      expect.stringMatching(/^evidence\/\d+-simulation-started\.json$/),
    ]);
    // Both signatures with the manifests they sign; the audit rows are the trail's, hashes and all.
    const { signatures } = read<{ signatures: { meaning: string; contentHash: string }[] }>('signatures.json');
    expect(signatures.map((s) => s.meaning).sort()).toEqual(['approval', 'review']);
    const { rows } = read<{ rows: { id: number; seq: number; hash: string }[] }>('audit-excerpt.json');
    const { items } = read<{ items: { id: number }[] }>('design-history.json');
    expect(rows.map((row) => row.id).sort((a, b) => a - b)).toEqual(items.map((item) => item.id).sort((a, b) => a - b));
    const stored = await sql(`select id, seq, hash from domain_events where id = any($1::bigint[])`, [
      rows.map((row) => row.id),
    ]);
    expect(
      stored.rows.map((row) => [Number(row.id), Number(row.seq), row.hash]).sort((a, b) => Number(a[0]) - Number(b[0])),
    ).toEqual(rows.map((row) => [row.id, row.seq, row.hash]).sort((a, b) => Number(a[0]) - Number(b[0])));
  });

  it('of the whole workspace holds only the projects the caller may see', async () => {
    const response = await exportFile(guest, { format: 'zip' });
    expect(response.status).toBe(200);
    const files = await unzipFiles(new Uint8Array(await response.arrayBuffer()));
    const { items } = JSON.parse(new TextDecoder().decode(files.get('design-history.json'))) as {
      items: { project: { id: string } }[];
    };
    expect(items.length).toBeGreaterThan(0);
    expect(new Set(items.map((item) => item.project.id))).toEqual(new Set([projectId]));
    expect((await exported()).at(-1)).toMatchObject({ actor_id: guest.id, project_id: null });
  });
});
