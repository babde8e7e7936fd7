import { createHash } from 'node:crypto';
import {
  alreadySignedMessage,
  designHistoryEntryKinds,
  designHistoryProjectNotFoundMessage,
  signatureCredentialsMessage,
  signatureEmailRequiredMessage,
  signatureMeanings,
  signatureWithIssuerMessage,
  signedEntryMessage,
  type DesignHistoryEntry,
  type DesignHistoryEntryPatch,
  type DesignHistoryFileRequest,
  type DesignHistoryItem,
  type DesignHistoryList,
  type DesignHistoryQuery,
  type NewDesignHistoryEntry,
  type Signature,
  type SignatureMeaning,
  type SignedRecord,
  type SignRequest,
} from '@insilico/contracts';
import { toCsv } from '@insilico/contracts/csv';
import type { CpuRunner } from '../cpu/pool';
import { designHistoryFileTask } from '../cpu/design-history-file.task';
import { canonicalJson } from '../events/chain';
import { projectEvent, workspaceEvent } from '../events/kinds';
import type { AccountRow } from '../issuer/account.repository';
import { decideProject } from '../policies/project.policy';
import { type WorkspaceGrant } from '../policies/workspace.policy';
import type {
  DesignHistoryAttachmentRow,
  DesignHistoryEntryRow,
  DesignHistoryRepository,
  DesignHistoryScope,
  SignatureRow,
  TimelineEventRow,
  TimelineRow,
} from '../repositories/design-history.repository';
import type { ResultSnapshotRow } from '../repositories/result-snapshot.repository';
import { resultsSnapshotIdOf } from './result-snapshots';
import { presentResultSnapshot } from './result-snapshot.service';
import type { DeviceRepository } from '../repositories/device.repository';
import type { UnitOfWork } from '../repositories/unit-of-work';
import type { UserRow } from '../repositories/user.repository';
import { toItem as activityItemOf } from './activity.service';
import type { AuditService } from './audit.service';
import { AuthThrottle, tooManyAttempts } from './auth-throttle.service';
import { authorize } from './authorize';
import { presentAttachment, type DesignHistoryAttachmentService } from './design-history-attachments';
import { gathered } from '../lib/streamed-output';
import { designHistoryFileName, designHistoryFileStream } from './design-history-bundle';
import { rerunNeeded, versionFactActions } from './design-history-impact';
import {
  entryAddedAction,
  entryEditedAction,
  exportedAction,
  sectionOf,
  selectionOf,
  signedAction,
} from './design-history-sections';
import { ServiceError } from './errors';
import type { ProjectAccessService } from './project-access.service';
import { callerGrant } from './caller-grant';

/** Re-entry of the sign-in components (the embedded issuer's accounts); null with an external identity provider. */
export interface SignerAccounts {
  authenticate(email: string, password: string): Promise<AccountRow | null>;
  findById(id: string): Promise<AccountRow | null>;
}

/** A record of a project's design history as it is signed: its project and what its manifest is made of. */
export interface SignableRecord {
  projectId: string;
  manifestSource: { type: 'event'; row: TimelineEventRow } | { type: 'entry'; row: DesignHistoryEntryRow };
}

/** Who asks, from where: the session (the first signing of a session needs both components) and the client. */
export interface SigningContext {
  sessionToken: string | null;
  clientAddress: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The session's key among signatures: not the session's own id hash, which would find the session row. */
export function signingSessionKey(sessionToken: string): string {
  return sha256(`e-signature-session\n${sessionToken}`);
}

/**
 * The canonical manifest of what a signature signs (21 CFR Part 11 §11.70): the record's type and id and its content.
 * Its SHA-256 is kept with the signature; a signature copied onto another record, or a record changed after signing,
 * no longer gives the kept hash.
 */
export function manifestOf(
  record:
    | { type: 'event'; row: TimelineEventRow }
    | { type: 'entry'; row: DesignHistoryEntryRow; attachments?: readonly DesignHistoryAttachmentRow[] },
) {
  if (record.type === 'event') {
    const e = record.row;
    return {
      record: { type: 'event', id: String(e.id) },
      content: {
        occurredAt: e.occurredAt.toISOString(),
        actorId: e.actorId,
        actorName: e.actorName,
        action: e.action,
        objectType: e.objectType,
        objectId: e.objectId,
        deviceId: e.deviceId,
        projectId: e.projectId,
        before: e.before,
        after: e.after,
        reason: e.reason,
      },
    };
  }
  const entry = record.row;
  return {
    record: { type: 'entry', id: entry.id },
    content: {
      deviceId: entry.deviceId,
      projectId: entry.projectId,
      kind: entry.kind,
      title: entry.title,
      body: entry.body,
      evidenceEventIds: entry.evidenceEventIds,
      supersedesId: entry.supersedesId,
      createdBy: entry.createdBy,
      createdAt: entry.createdAt.toISOString(),
      // Only when there are some: the manifests of entries signed without attachments keep their hashes.
      ...(record.attachments?.length
        ? {
            attachments: record.attachments.map((a) => ({
              id: a.id,
              fileName: a.fileName,
              contentType: a.contentType,
              bytes: a.bytes,
              sha256: a.sha256,
            })),
          }
        : {}),
    },
  };
}

/** The item's `resultsSnapshot`: the kept results the event names, with their hash, time and code version. */
function resultsSnapshotOf(
  after: unknown,
  kept: ReadonlyMap<string, ResultSnapshotRow>,
): Pick<DesignHistoryItem, 'resultsSnapshot'> {
  const id = resultsSnapshotIdOf(after);
  const row = id === null ? undefined : kept.get(id);
  if (!row) return {};
  return {
    resultsSnapshot: {
      id: row.id,
      sha256: row.contentHash,
      takenAt: row.takenAt.toISOString(),
      codeVersion: row.codeVersion,
      revision: row.revision,
    },
  };
}

export function contentHashOf(manifest: unknown): string {
  return sha256(canonicalJson(manifest));
}

function entryOf(
  row: DesignHistoryEntryRow,
  supersededById: string | null,
  attachments: readonly DesignHistoryAttachmentRow[],
): DesignHistoryEntry {
  return {
    id: row.id,
    kind: designHistoryEntryKinds.find((kind) => kind === row.kind) ?? 'note',
    title: row.title,
    body: row.body,
    evidenceEventIds: row.evidenceEventIds,
    supersedesId: row.supersedesId,
    supersededById,
    attachments: attachments.map(presentAttachment),
  };
}

function signatureOf(row: SignatureRow, currentHash: string | null): Signature {
  return {
    id: row.id,
    meaning: signatureMeanings.find((meaning) => meaning === row.meaning) ?? 'review',
    signer: { id: row.signerId, name: row.signerName },
    signedAt: row.signedAt.toISOString(),
    contentHash: row.contentHash,
    // Bound: the kept manifest still gives the kept hash, and the record as it is now gives it too.
    valid: contentHashOf(row.manifest) === row.contentHash && currentHash === row.contentHash,
  };
}

const recordKey = (record: { type: string; id: string }) => `${record.type}:${record.id}`;

/**
 * The design history file (issue 20 item 4) and electronic signatures (item 5): a project's timeline from the audit
 * trail's events and people's entries, entries that cannot change once signed, and signing with the password
 * re-entered (the e-mail address too at a session's first signing), throttled like sign-in.
 */
export class DesignHistoryService {
  constructor(
    private readonly deps: {
      unitOfWork: UnitOfWork;
      repository: DesignHistoryRepository;
      devices: DeviceRepository;
      projectAccess: ProjectAccessService;
      /** The audit trail's rows of the exported items (their hashes, for the file's audit excerpt). */
      audit: Pick<AuditService, 'excerpt'>;
      /** The file is laid out, zipped and hashed in the CPU pool. */
      cpu: CpuRunner;
      throttle: AuthThrottle;
      accounts: SignerAccounts | null;
      /** Results kept when evidence entered the history (issue 20 item 7), by the ids its events name. */
      resultSnapshots?: (ids: readonly string[]) => Promise<ResultSnapshotRow[]>;
      /** A workspace's measurement snapshots on these projects' cohorts that the user may read (item 7). */
      measurementSnapshots?: (userId: string, deviceId: string, projectIds: string[]) => Promise<ResultSnapshotRow[]>;
      /** The entries' attached files in storage, streamed into the evidence ZIP. */
      attachmentFiles?: Pick<DesignHistoryAttachmentService, 'storedFiles'>;
    },
  ) {}

  private async resultSnapshotsOf(ids: readonly (string | null)[]): Promise<Map<string, ResultSnapshotRow>> {
    const wanted = [...new Set(ids.filter((id) => id !== null))];
    const rows = this.deps.resultSnapshots && wanted.length > 0 ? await this.deps.resultSnapshots(wanted) : [];
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** Refuses (404/403) unless the user may read the workspace's record; answers their scope (guests: their projects). */
  private async scope(userId: string, deviceId: string): Promise<DesignHistoryScope> {
    return (await this.standing(userId, deviceId)).scope;
  }

  private async standing(userId: string, deviceId: string) {
    const grant = await callerGrant(userId, deviceId, (device, user) => this.deps.devices.findMembership(device, user));
    authorize('activity.read', grant);
    return { grant, scope: { deviceId, onTeamOf: grant.role === 'guest' ? userId : null } };
  }

  /** The projects of the scope with what the user may do on each (the project policy, so the page offers no 403). */
  private async projectsWithRights(userId: string, standing: { grant: WorkspaceGrant; scope: DesignHistoryScope }) {
    const projects = await this.deps.repository.projectsIn(standing.scope);
    const onTeam = await this.deps.repository.teamProjectsOf(
      userId,
      projects.map((project) => project.id),
    );
    return projects.map((project) => {
      const projectStanding = { grant: standing.grant, onTeam: onTeam.has(project.id) };
      return {
        ...project,
        canWork: decideProject('project.work', projectStanding).allowed,
        canSign: decideProject('project.sign', projectStanding).allowed,
      };
    });
  }

  async list(
    user: UserRow,
    deviceId: string,
    query: DesignHistoryQuery,
    context: SigningContext,
  ): Promise<DesignHistoryList> {
    const standing = await this.standing(user.id, deviceId);
    const { scope } = standing;
    const rows = await this.deps.repository.timeline(
      {
        ...scope,
        ...selectionOf(query.section),
        entryAction: entryAddedAction,
        ...(query.projectId ? { projectId: query.projectId } : {}),
        ...(query.before ? { before: query.before } : {}),
      },
      query.limit + 1,
    );
    const page = rows.slice(0, query.limit);
    const needsEmail =
      !context.sessionToken ||
      !(await this.deps.repository.hasSignedInSession(user.id, signingSessionKey(context.sessionToken)));
    return {
      items: await this.itemsOf(page),
      nextBefore: rows.length > query.limit ? page[page.length - 1]!.event.id : null,
      projects: await this.projectsWithRights(user.id, standing),
      signing: { method: this.signingMethod, needsEmail },
    };
  }

  /** The timeline's items with their entries and signatures (each checked against its record). */
  private async itemsOf(rows: readonly TimelineRow[]): Promise<DesignHistoryItem[]> {
    const entryIds = rows.filter((row) => row.event.action === entryAddedAction).map((row) => row.event.objectId);
    const entries = new Map((await this.deps.repository.entries(entryIds)).map((entry) => [entry.id, entry]));
    const superseding = await this.deps.repository.supersedingOf(entryIds);
    const attachments = new Map<string, DesignHistoryAttachmentRow[]>();
    for (const attachment of await this.deps.repository.attachmentsOf(entryIds))
      attachments.set(attachment.entryId, [...(attachments.get(attachment.entryId) ?? []), attachment]);
    const recordOf = (row: TimelineRow): SignedRecord =>
      row.event.action === entryAddedAction
        ? { type: 'entry', id: row.event.objectId }
        : { type: 'event', id: String(row.event.id) };
    const signatures = await this.deps.repository.signaturesOf(rows.map(recordOf));
    const currentHashes = new Map<string, string>();
    for (const row of rows) {
      const record = recordOf(row);
      const entry = record.type === 'entry' ? entries.get(record.id) : undefined;
      const manifest =
        record.type === 'entry'
          ? entry && manifestOf({ type: 'entry', row: entry, attachments: attachments.get(entry.id) ?? [] })
          : manifestOf({ type: 'event', row: row.event });
      if (manifest) currentHashes.set(recordKey(record), contentHashOf(manifest));
    }
    const projectIds = [...new Set(rows.map((row) => row.event.projectId!))];
    const versionFacts = await this.deps.repository.projectEvents(projectIds, versionFactActions);
    const kept = await this.resultSnapshotsOf(rows.map((row) => resultsSnapshotIdOf(row.event.after)));
    const evidence = new Map<number, DesignHistoryItem['evidence'][number]>();
    for (const entry of entries.values())
      for (const cited of await this.deps.repository.eventsOf(entry.projectId, entry.evidenceEventIds)) {
        const item = activityItemOf(cited);
        evidence.set(cited.event.id, { id: cited.event.id, summary: item.summary, link: item.link });
      }
    return rows.map((row) => {
      const record = recordOf(row);
      const entry = record.type === 'entry' ? entries.get(record.id) : undefined;
      const activity = activityItemOf(row);
      return {
        id: row.event.id,
        occurredAt: activity.occurredAt,
        section: sectionOf(row.event.action, row.event.after) ?? 'review',
        action: row.event.action,
        summary: entry ? entry.title : activity.summary,
        actor: activity.actor,
        project: { id: row.event.projectId!, name: row.projectName },
        reason: row.event.reason,
        link: activity.link,
        snapshot: { before: row.event.before, after: row.event.after },
        entry: entry ? entryOf(entry, superseding.get(entry.id) ?? null, attachments.get(entry.id) ?? []) : null,
        evidence: (entry?.evidenceEventIds ?? []).flatMap((id) => evidence.get(id) ?? []),
        toBeRerun: rerunNeeded({ ...row.event, projectId: row.event.projectId! }, versionFacts),
        ...resultsSnapshotOf(row.event.after, kept),
        record,
        signatures: signatures
          .filter(
            (signature) => recordKey({ type: signature.recordType, id: signature.recordId }) === recordKey(record),
          )
          .map((signature) => signatureOf(signature, currentHashes.get(recordKey(record)) ?? null)),
      };
    });
  }

  /** A manual entry (isAddingNewEntry → newDesignHistoryEntry), recorded in the trail in the same transaction. */
  async addEntry(userId: string, deviceId: string, input: NewDesignHistoryEntry): Promise<DesignHistoryEntry> {
    await this.deps.projectAccess.require('project.work', userId, deviceId, input.projectId);
    const evidence = [...new Set(input.evidenceEventIds)];
    const found = await this.deps.repository.eventsOf(input.projectId, evidence);
    if (found.length !== evidence.length)
      throw new ServiceError(400, 'evidence_not_found', 'An evidence link names an event that is not in this project.');
    if (input.supersedesId) {
      const replaced = await this.deps.repository.entry(deviceId, input.supersedesId);
      if (!replaced || replaced.projectId !== input.projectId)
        throw new ServiceError(400, 'entry_not_found', 'The entry to supersede is not in this project.');
    }
    const row = await this.deps.unitOfWork.run(async (tx) => {
      const inserted = await tx.designHistory.insertEntry({
        deviceId,
        projectId: input.projectId,
        kind: input.kind,
        title: input.title,
        body: input.body,
        evidenceEventIds: evidence,
        supersedesId: input.supersedesId ?? null,
        createdBy: userId,
      });
      tx.events.record({
        ...projectEvent(userId, deviceId, input.projectId, entryAddedAction, {
          type: 'design_history_entry',
          id: inserted.id,
        }),
        after: {
          kind: inserted.kind,
          title: inserted.title,
          body: inserted.body,
          evidenceEventIds: evidence,
          supersedesId: inserted.supersedesId,
        },
      });
      return inserted;
    });
    return entryOf(row, null, []);
  }

  /** Changes an entry nobody has signed; a signed one is refused (409) and stays as it is. */
  async editEntry(
    userId: string,
    deviceId: string,
    entryId: string,
    patch: DesignHistoryEntryPatch,
  ): Promise<DesignHistoryEntry> {
    const entry = await this.deps.repository.entry(deviceId, entryId);
    if (!entry) throw new ServiceError(404, 'entry_not_found', 'This design history entry does not exist.');
    await this.deps.projectAccess.require('project.work', userId, deviceId, entry.projectId);
    const row = await this.deps.unitOfWork.run(async (tx) => {
      // Checked again inside the transaction; the database's trigger refuses it too.
      if (await tx.designHistory.isSigned('entry', entryId))
        throw new ServiceError(409, 'entry_signed', signedEntryMessage);
      const updated = await tx.designHistory.updateEntry(entryId, patch);
      tx.events.record({
        ...projectEvent(userId, deviceId, entry.projectId, entryEditedAction, {
          type: 'design_history_entry',
          id: entryId,
        }),
        before: { kind: entry.kind, title: entry.title, body: entry.body },
        after: { kind: updated.kind, title: updated.title, body: updated.body },
      });
      return updated;
    });
    return entryOf(
      row,
      (await this.deps.repository.supersedingOf([entryId])).get(entryId) ?? null,
      await this.deps.repository.attachmentsOf([entryId]),
    );
  }

  /**
   * Signs an entry or an evidence snapshot (an event of the project's trail) with a meaning, after the signer
   * re-enters their password (and their e-mail address at the session's first signing). A wrong one is counted like
   * a wrong sign-in and changes nothing; the signature and its event are written in one transaction.
   */
  async sign(user: UserRow, deviceId: string, input: SignRequest, context: SigningContext): Promise<Signature> {
    const record = await this.signable(user, deviceId, input.record);
    const accounts = this.deps.accounts;
    if (!accounts) throw new ServiceError(409, 'signature_with_issuer', signatureWithIssuerMessage);
    if (!context.sessionToken) throw new ServiceError(401, 'unauthenticated', 'Please sign in.');
    const sessionKey = signingSessionKey(context.sessionToken);
    const email = input.email?.trim() ? input.email.trim() : null;
    if (!email && !(await this.deps.repository.hasSignedInSession(user.id, sessionKey)))
      throw new ServiceError(400, 'email_required', signatureEmailRequiredMessage, { field: 'email' });

    const account = await accounts.findById(user.subject);
    const keys = AuthThrottle.passwordKeys(account?.email ?? user.email.toLowerCase(), context.clientAddress);
    const wait = await this.deps.throttle.refusal(keys);
    if (wait !== null) throw tooManyAttempts(wait);
    const authenticated = account ? await accounts.authenticate(email ?? account.email, input.password) : null;
    if (!authenticated || authenticated.id !== user.subject) {
      await this.deps.throttle.count(keys);
      throw new ServiceError(400, 'signature_credentials', signatureCredentialsMessage, { field: 'password' });
    }
    await this.deps.throttle.clear(keys.slice(0, 1));
    return this.writeSignature(user, deviceId, record, input, sessionKey, null);
  }

  /** How signers prove it is them here: the password (embedded issuer) or a fresh sign-in at an external issuer. */
  get signingMethod(): 'password' | 'issuer' {
    return this.deps.accounts ? 'password' : 'issuer';
  }

  /**
   * The record to be signed, after the checks every signing makes before the sign-in components are asked for:
   * the record is in the workspace's design history (404), the caller may sign it (`project.sign`).
   */
  async signable(user: UserRow, deviceId: string, input: SignedRecord): Promise<SignableRecord> {
    const record = await this.loadRecord(deviceId, input);
    await this.deps.projectAccess.require('project.sign', user.id, deviceId, record.projectId);
    return record;
  }

  /** Refuses (409) a meaning the user has given this record already, before a sign-in is asked for. */
  async refuseSignedAlready(user: UserRow, record: SignableRecord, meaning: SignatureMeaning): Promise<void> {
    const source = record.manifestSource;
    if (await this.deps.repository.hasSigned(source.type, String(source.row.id), user.id, meaning))
      throw new ServiceError(409, 'already_signed', alreadySignedMessage);
  }

  /**
   * Writes the signature of a record whose signer has just proved it is them (password re-entered, or a fresh
   * sign-in at the external issuer: `authentication` says which and when, and goes into the signing's event), with
   * its event in one transaction.
   */
  async writeSignature(
    user: UserRow,
    deviceId: string,
    record: SignableRecord,
    input: { record: SignedRecord; meaning: SignatureMeaning },
    sessionKey: string,
    authentication: { method: 'issuer'; issuer: string; authenticatedAt: string } | null,
  ): Promise<Signature> {
    const { row, contentHash } = await this.deps.unitOfWork.run(async (tx) => {
      // An entry is signed as it stands under its lock: no edit or attachment slips in between the manifest and the
      // signature (attaching takes the same lock; the database refuses both once the signature is in).
      const source = record.manifestSource;
      const locked = source.type === 'entry' ? await tx.designHistory.lockEntry(deviceId, source.row.id) : null;
      const manifest =
        source.type === 'entry'
          ? manifestOf({
              type: 'entry',
              row: locked ?? source.row,
              attachments: await tx.designHistory.attachmentsOf([source.row.id]),
            })
          : manifestOf(source);
      const contentHash = contentHashOf(manifest);
      if (await tx.designHistory.hasSigned(input.record.type, manifest.record.id, user.id, input.meaning))
        throw new ServiceError(409, 'already_signed', alreadySignedMessage);
      const signed = await tx.designHistory.insertSignature({
        deviceId,
        projectId: record.projectId,
        recordType: input.record.type,
        recordId: manifest.record.id,
        meaning: input.meaning,
        signerId: user.id,
        signerName: user.fullName,
        manifest,
        contentHash,
        sessionKey,
      });
      tx.events.record({
        ...projectEvent(user.id, deviceId, record.projectId, signedAction, { type: 'signature', id: signed.id }),
        after: {
          meaning: signed.meaning,
          signerName: signed.signerName,
          record: manifest.record,
          contentHash,
          signedAt: signed.signedAt.toISOString(),
          ...(authentication ? { authentication } : {}),
        },
      });
      return { row: signed, contentHash };
    });
    return signatureOf(row, contentHash);
  }

  private async loadRecord(deviceId: string, record: SignedRecord): Promise<SignableRecord> {
    const notFound = () =>
      new ServiceError(404, 'record_not_found', 'This record is not in the design history of this workspace.');
    if (record.type === 'entry') {
      const entry = /^[0-9a-f-]{36}$/i.test(record.id) ? await this.deps.repository.entry(deviceId, record.id) : null;
      if (!entry) throw notFound();
      return { projectId: entry.projectId, manifestSource: { type: 'entry', row: entry } };
    }
    const id = /^\d{1,15}$/.test(record.id) ? Number(record.id) : null;
    const event = id === null ? null : await this.deps.repository.event(deviceId, id);
    // An evidence snapshot is an event of a project's design history (an entry is signed as the entry).
    if (!event?.projectId || sectionOf(event.action, event.after) === null || event.action === entryAddedAction)
      throw notFound();
    return { projectId: event.projectId, manifestSource: { type: 'event', row: event } };
  }

  /** Every item of the caller's scope (one project, or all they may see), newest first. */
  private async allItems(user: UserRow, deviceId: string, projectId: string | undefined): Promise<DesignHistoryList> {
    const items: DesignHistoryItem[] = [];
    let first: DesignHistoryList | undefined;
    let before: number | undefined;
    for (;;) {
      const page = await this.list(
        user,
        deviceId,
        { limit: 100, ...(projectId ? { projectId } : {}), ...(before ? { before } : {}) },
        { sessionToken: null, clientAddress: '' },
      );
      first ??= page;
      items.push(...page.items);
      if (page.nextBefore === null) break;
      before = page.nextBefore;
    }
    return { ...first, items, nextBefore: null };
  }

  /** The design history as CSV (the one CSV writer): every item of the scope, oldest first, with its signatures. */
  async exportCsv(user: UserRow, deviceId: string, projectId: string | undefined): Promise<string> {
    const rows = (await this.allItems(user, deviceId, projectId)).items;
    const header = [
      'event_id',
      'occurred_at_utc',
      'project',
      'section',
      'action',
      'summary',
      'actor',
      'reason',
      'entry_text',
      'signatures',
    ];
    return toCsv([
      header,
      ...rows
        .reverse()
        .map((item) => [
          item.id,
          item.occurredAt,
          item.project.name,
          item.section,
          item.action,
          item.summary,
          item.actor?.name ?? 'The system',
          item.reason ?? '',
          item.entry?.body ?? '',
          item.signatures
            .map((s) => `${s.meaning} by ${s.signer.name} at ${s.signedAt} (sha256 ${s.contentHash})`)
            .join('; '),
        ]),
    ]);
  }

  /**
   * How large an export of this scope would be (the timeline's items, counted up to `atMost`, and the kept results'
   * bytes), refused as the export is (404 for a project outside the caller's scope): it decides whether the file is
   * answered in the request or made by a job (design-history-exports.ts).
   */
  async exportSize(
    user: UserRow,
    deviceId: string,
    request: DesignHistoryFileRequest,
    atMost: number,
  ): Promise<{ items: number; snapshotBytes: number }> {
    const scope = await this.scope(user.id, deviceId);
    const projects = await this.deps.repository.projectsIn(scope);
    if (request.projectId && !projects.some((p) => p.id === request.projectId))
      throw new ServiceError(404, 'project_not_found', designHistoryProjectNotFoundMessage);
    const rows = await this.deps.repository.timeline(
      {
        ...scope,
        ...selectionOf(undefined),
        entryAction: entryAddedAction,
        ...(request.projectId ? { projectId: request.projectId } : {}),
      },
      atMost + 1,
    );
    const projectIds = request.projectId ? [request.projectId] : projects.map((p) => p.id);
    return {
      items: rows.length,
      // The ZIP carries the kept results and the attached files.
      snapshotBytes:
        request.format === 'zip'
          ? (await this.deps.repository.resultSnapshotBytes(projectIds)) +
            (await this.deps.repository.attachmentBytes(projectIds))
          : 0,
    };
  }

  /**
   * The design history file for sign-off and inspection (issue 20 item 6): a PDF (sections, trace matrix, signatures,
   * the audit excerpt) or a ZIP of it with the evidence and a manifest of SHA-256 hashes, made in the CPU pool from
   * the record as it stands now. Whoever may read the design history may export what they may read; the export and
   * the file's SHA-256 are recorded in the trail before the file is answered.
   */
  async exportFile(
    user: UserRow,
    deviceId: string,
    request: DesignHistoryFileRequest,
  ): Promise<{ bytes: Uint8Array; fileName: string; sha256: string }> {
    // In memory: a file answered in the request is a small one (design-history-exports.ts, `directExportLimits`).
    let bytes: Uint8Array = new Uint8Array();
    const file = await this.makeFile(user, deviceId, request, new Date(), async (source) => {
      bytes = await gathered(source);
    });
    await this.deps.unitOfWork.run(async (tx) => {
      const event = file.projectId
        ? projectEvent(user.id, deviceId, file.projectId, exportedAction, { type: 'project', id: file.projectId })
        : workspaceEvent(user.id, deviceId, exportedAction, { type: 'device', id: deviceId });
      tx.events.record({ ...event, after: file.recorded });
    });
    return { bytes, fileName: file.fileName, sha256: file.sha256 };
  }

  /**
   * Makes the file of a user's scope as it stands now (the request's export, or the export job's): the PDF and the
   * ZIP's own files in the CPU pool, then the file's bytes handed to `store` as they are written (the evidence ZIP
   * streams each attached file from storage into it: up to 20 files of a gigabyte an entry, never held whole).
   * Answers its name, size and SHA-256 (hashed on the way to `store`), and what `design_history.exported` records of
   * it. Records nothing itself; a file whose attached bytes no longer give their SHA-256 fails `store`'s source.
   */
  async makeFile(
    user: UserRow,
    deviceId: string,
    request: DesignHistoryFileRequest,
    generatedAt: Date,
    store: (source: AsyncIterable<Uint8Array>) => Promise<unknown>,
  ): Promise<{
    bytes: number;
    fileName: string;
    sha256: string;
    projectId: string | null;
    recorded: Record<string, unknown>;
  }> {
    const history = await this.allItems(user, deviceId, request.projectId);
    const project = request.projectId ? history.projects.find((p) => p.id === request.projectId) : undefined;
    if (request.projectId && !project)
      throw new ServiceError(404, 'project_not_found', designHistoryProjectNotFoundMessage);
    const items = history.items.reverse();
    const records = items.map((item) => item.record);
    const signatures = await this.deps.repository.signaturesOf(records);
    const attachments =
      request.format === 'zip' && this.deps.attachmentFiles
        ? await this.deps.attachmentFiles.storedFiles(items.flatMap((item) => (item.entry ? [item.entry.id] : [])))
        : [];
    const input = {
      format: request.format,
      generatedAt: generatedAt.toISOString(),
      generatedBy: user.fullName,
      workspace: (await this.deps.devices.findById(deviceId))?.name ?? '',
      deviceId,
      projectId: project?.id ?? null,
      project: project?.name ?? null,
      items,
      audit: await this.deps.audit.excerpt(
        deviceId,
        items.map((item) => item.id),
      ),
      resultSnapshots: [
        ...(await this.resultSnapshotsOf(items.map((item) => item.resultsSnapshot?.id ?? null))).values(),
        ...((await this.deps.measurementSnapshots?.(
          user.id,
          deviceId,
          project ? [project.id] : history.projects.map((p) => p.id),
        )) ?? []),
      ].map(presentResultSnapshot),
      attachments: attachments.map(({ entryId, id, fileName, sha256, bytes }) => ({
        entryId,
        id,
        fileName,
        sha256,
        bytes,
      })),
      signatures: signatures.map((row) => ({
        id: row.id,
        recordType: row.recordType,
        recordId: row.recordId,
        meaning: row.meaning,
        signerId: row.signerId,
        signerName: row.signerName,
        signedAt: row.signedAt.toISOString(),
        contentHash: row.contentHash,
        manifest: row.manifest,
      })),
    };
    const parts = await this.deps.cpu.run(designHistoryFileTask, input);
    const hash = createHash('sha256');
    let bytes = 0;
    await store(
      (async function* hashed() {
        for await (const chunk of designHistoryFileStream(parts, attachments)) {
          hash.update(chunk);
          bytes += chunk.byteLength;
          yield chunk;
        }
      })(),
    );
    const sha256 = hash.digest('hex');
    const fileName = designHistoryFileName(input);
    return {
      bytes,
      fileName,
      sha256,
      projectId: project?.id ?? null,
      recorded: {
        format: request.format,
        fileName,
        bytes,
        sha256,
        items: items.length,
        signatures: signatures.length,
        lastEventId: items.at(-1)?.id ?? null,
      },
    };
  }
}
