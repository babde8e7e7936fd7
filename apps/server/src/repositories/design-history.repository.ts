import { and, asc, desc, eq, inArray, isNotNull, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Orm } from '../db/client';
import {
  designHistoryAttachments,
  designHistoryEntries,
  designHistoryExports,
  domainEvents,
  electronicSignatures,
  projectMembers,
  projects,
  resultSnapshots,
} from '../db/schema';

export type DesignHistoryEntryRow = typeof designHistoryEntries.$inferSelect;
export type SignatureRow = typeof electronicSignatures.$inferSelect;
export type TimelineEventRow = typeof domainEvents.$inferSelect;
export type DesignHistoryExportRow = typeof designHistoryExports.$inferSelect;
export type DesignHistoryAttachmentRow = typeof designHistoryAttachments.$inferSelect;
export type NewDesignHistoryExport = Pick<
  typeof designHistoryExports.$inferInsert,
  'id' | 'deviceId' | 'projectId' | 'format' | 'requestedBy' | 'region' | 'storageKey'
>;

/** Whose design history: a workspace, and for a guest only the projects they are on. */
export interface DesignHistoryScope {
  deviceId: string;
  onTeamOf: string | null;
}

export interface TimelineFilter extends DesignHistoryScope {
  projectId?: string;
  /** The event actions of the chosen sections, and the kinds of the entries among them. */
  actions: string[];
  entryAction: string;
  entryKinds: string[];
  before?: number;
}

export interface TimelineRow {
  event: TimelineEventRow;
  projectName: string;
}

/** The design history file's entries and signatures, and its timeline read from the audit trail. */
export class DesignHistoryRepository {
  constructor(private readonly orm: Orm) {}

  /** A page of the timeline, newest first: the project events of the chosen actions and the chosen entries. */
  async timeline(filter: TimelineFilter, limit: number): Promise<TimelineRow[]> {
    const e = domainEvents;
    const chosen: SQL[] = [];
    if (filter.actions.length > 0) chosen.push(inArray(e.action, filter.actions));
    if (filter.entryKinds.length > 0)
      chosen.push(and(eq(e.action, filter.entryAction), inArray(sql<string>`${e.after}->>'kind'`, filter.entryKinds))!);
    if (chosen.length === 0) return [];
    return this.orm
      .select({ event: e, projectName: projects.name })
      .from(e)
      .innerJoin(projects, eq(projects.id, e.projectId))
      .where(
        and(
          eq(e.deviceId, filter.deviceId),
          this.onTeam(filter, e.projectId),
          isNotNull(e.projectId),
          filter.projectId ? eq(e.projectId, filter.projectId) : undefined,
          filter.before ? lt(e.id, filter.before) : undefined,
          or(...chosen),
        ),
      )
      .orderBy(desc(e.id))
      .limit(limit);
  }

  /** The projects of the scope, by name. */
  async projectsIn(scope: DesignHistoryScope): Promise<{ id: string; name: string }[]> {
    return this.orm
      .select({ id: projects.id, name: projects.name })
      .from(projects)
      .where(and(eq(projects.deviceId, scope.deviceId), this.onTeam(scope, projects.id)))
      .orderBy(asc(projects.name), asc(projects.id));
  }

  /** Of these projects, the ones whose team the user is on. */
  async teamProjectsOf(userId: string, projectIds: readonly string[]): Promise<Set<string>> {
    if (projectIds.length === 0) return new Set();
    const rows = await this.orm
      .select({ id: projectMembers.projectId })
      .from(projectMembers)
      .where(and(eq(projectMembers.userId, userId), inArray(projectMembers.projectId, [...projectIds])));
    return new Set(rows.map((row) => row.id));
  }

  /** A guest's projects only: the condition on a column holding project ids. */
  private onTeam(scope: DesignHistoryScope, projectColumn: typeof projects.id | typeof domainEvents.projectId) {
    return scope.onTeamOf
      ? inArray(
          projectColumn,
          this.orm
            .select({ id: projectMembers.projectId })
            .from(projectMembers)
            .where(eq(projectMembers.userId, scope.onTeamOf)),
        )
      : undefined;
  }

  /** The events of these projects with one of these actions (the change impact's facts), oldest first. */
  async projectEvents(
    projectIds: readonly string[],
    actions: readonly string[],
  ): Promise<{ id: number; projectId: string; action: string; objectId: string; after: unknown }[]> {
    if (projectIds.length === 0) return [];
    const e = domainEvents;
    const rows = await this.orm
      .select({ id: e.id, projectId: e.projectId, action: e.action, objectId: e.objectId, after: e.after })
      .from(e)
      .where(and(inArray(e.projectId, [...projectIds]), inArray(e.action, [...actions])))
      .orderBy(asc(e.id));
    return rows.map((row) => ({ ...row, projectId: row.projectId! }));
  }

  /** Events of one project by id (an entry's evidence), with the project's name. */
  async eventsOf(projectId: string, ids: readonly number[]): Promise<TimelineRow[]> {
    if (ids.length === 0) return [];
    return this.orm
      .select({ event: domainEvents, projectName: projects.name })
      .from(domainEvents)
      .innerJoin(projects, eq(projects.id, domainEvents.projectId))
      .where(and(eq(domainEvents.projectId, projectId), inArray(domainEvents.id, [...ids])));
  }

  /** One event of a workspace's trail. */
  async event(deviceId: string, id: number): Promise<TimelineEventRow | null> {
    const rows = await this.orm
      .select()
      .from(domainEvents)
      .where(and(eq(domainEvents.deviceId, deviceId), eq(domainEvents.id, id)));
    return rows[0] ?? null;
  }

  async entry(deviceId: string, id: string): Promise<DesignHistoryEntryRow | null> {
    const rows = await this.orm
      .select()
      .from(designHistoryEntries)
      .where(and(eq(designHistoryEntries.deviceId, deviceId), eq(designHistoryEntries.id, id)));
    return rows[0] ?? null;
  }

  async entries(ids: readonly string[]): Promise<DesignHistoryEntryRow[]> {
    if (ids.length === 0) return [];
    return this.orm
      .select()
      .from(designHistoryEntries)
      .where(inArray(designHistoryEntries.id, [...ids]));
  }

  /** For each of these entries, the entry that supersedes it (the first one written). */
  async supersedingOf(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.orm
      .select({ id: designHistoryEntries.id, supersedesId: designHistoryEntries.supersedesId })
      .from(designHistoryEntries)
      .where(inArray(designHistoryEntries.supersedesId, [...ids]))
      .orderBy(desc(designHistoryEntries.createdAt));
    return new Map(rows.map((row) => [row.supersedesId!, row.id]));
  }

  async insertEntry(entry: typeof designHistoryEntries.$inferInsert): Promise<DesignHistoryEntryRow> {
    const [row] = await this.orm.insert(designHistoryEntries).values(entry).returning();
    return row!;
  }

  /** The database refuses it once the entry is signed (migration 0018's trigger). */
  async updateEntry(
    id: string,
    patch: Partial<Pick<DesignHistoryEntryRow, 'kind' | 'title' | 'body'>>,
  ): Promise<DesignHistoryEntryRow> {
    const [row] = await this.orm
      .update(designHistoryEntries)
      .set({ ...patch, updatedAt: sql`clock_timestamp()` })
      .where(eq(designHistoryEntries.id, id))
      .returning();
    return row!;
  }

  /**
   * The entry, locked until the transaction ends: attaching a file and signing the entry take this lock, so a file is
   * never attached after a signature whose manifest does not list it.
   */
  async lockEntry(deviceId: string, id: string): Promise<DesignHistoryEntryRow | null> {
    const rows = await this.orm
      .select()
      .from(designHistoryEntries)
      .where(and(eq(designHistoryEntries.deviceId, deviceId), eq(designHistoryEntries.id, id)))
      .for('update');
    return rows[0] ?? null;
  }

  /** The files attached to these entries, oldest first. */
  async attachmentsOf(entryIds: readonly string[]): Promise<DesignHistoryAttachmentRow[]> {
    if (entryIds.length === 0) return [];
    const a = designHistoryAttachments;
    return this.orm
      .select()
      .from(a)
      .where(inArray(a.entryId, [...entryIds]))
      .orderBy(asc(a.uploadedAt), asc(a.id));
  }

  async attachment(deviceId: string, entryId: string, id: string): Promise<DesignHistoryAttachmentRow | null> {
    const a = designHistoryAttachments;
    const rows = await this.orm
      .select()
      .from(a)
      .where(and(eq(a.deviceId, deviceId), eq(a.entryId, entryId), eq(a.id, id)));
    return rows[0] ?? null;
  }

  /** The database refuses it once the entry is signed (migration 0035's trigger). */
  async insertAttachment(row: typeof designHistoryAttachments.$inferInsert): Promise<DesignHistoryAttachmentRow> {
    const [inserted] = await this.orm.insert(designHistoryAttachments).values(row).returning();
    return inserted!;
  }

  /** The attached files' bytes of these projects: what an evidence ZIP would carry besides the kept results. */
  async attachmentBytes(projectIds: readonly string[]): Promise<number> {
    if (projectIds.length === 0) return 0;
    const rows = await this.orm
      .select({ bytes: sql<string | number | null>`sum(${designHistoryAttachments.bytes})` })
      .from(designHistoryAttachments)
      .where(inArray(designHistoryAttachments.projectId, [...projectIds]));
    return Number(rows[0]?.bytes ?? 0);
  }

  /** The signatures of these records, oldest first. */
  async signaturesOf(records: readonly { type: string; id: string }[]): Promise<SignatureRow[]> {
    if (records.length === 0) return [];
    const s = electronicSignatures;
    return this.orm
      .select()
      .from(s)
      .where(or(...records.map((record) => and(eq(s.recordType, record.type), eq(s.recordId, record.id)))))
      .orderBy(asc(s.signedAt), asc(s.id));
  }

  async isSigned(recordType: string, recordId: string): Promise<boolean> {
    const rows = await this.orm
      .select({ id: electronicSignatures.id })
      .from(electronicSignatures)
      .where(and(eq(electronicSignatures.recordType, recordType), eq(electronicSignatures.recordId, recordId)))
      .limit(1);
    return rows.length > 0;
  }

  /** Whether this signer has signed this record with this meaning already. */
  async hasSigned(recordType: string, recordId: string, signerId: string, meaning: string): Promise<boolean> {
    const s = electronicSignatures;
    const rows = await this.orm
      .select({ id: s.id })
      .from(s)
      .where(
        and(eq(s.recordType, recordType), eq(s.recordId, recordId), eq(s.signerId, signerId), eq(s.meaning, meaning)),
      )
      .limit(1);
    return rows.length > 0;
  }

  /** Whether this signer has signed anything in this session already. */
  async hasSignedInSession(signerId: string, sessionKey: string): Promise<boolean> {
    const rows = await this.orm
      .select({ id: electronicSignatures.id })
      .from(electronicSignatures)
      .where(and(eq(electronicSignatures.signerId, signerId), eq(electronicSignatures.sessionKey, sessionKey)))
      .limit(1);
    return rows.length > 0;
  }

  async insertSignature(signature: typeof electronicSignatures.$inferInsert): Promise<SignatureRow> {
    const [row] = await this.orm.insert(electronicSignatures).values(signature).returning();
    return row!;
  }

  /** The kept results' size (their JSON's bytes) of these projects: what an evidence ZIP would carry. */
  async resultSnapshotBytes(projectIds: readonly string[]): Promise<number> {
    if (projectIds.length === 0) return 0;
    const rows = await this.orm
      .select({ bytes: sql<string | number | null>`sum(octet_length(${resultSnapshots.content}::text))` })
      .from(resultSnapshots)
      .where(inArray(resultSnapshots.projectId, [...projectIds]));
    return Number(rows[0]?.bytes ?? 0);
  }

  async insertExport(row: NewDesignHistoryExport): Promise<DesignHistoryExportRow> {
    const [inserted] = await this.orm.insert(designHistoryExports).values(row).returning();
    return inserted!;
  }

  async exportById(id: string): Promise<DesignHistoryExportRow | null> {
    const rows = await this.orm.select().from(designHistoryExports).where(eq(designHistoryExports.id, id));
    return rows[0] ?? null;
  }

  /** A person's exports in a workspace, newest first. */
  async exportsOf(userId: string, deviceId: string, limit: number): Promise<DesignHistoryExportRow[]> {
    return this.orm
      .select()
      .from(designHistoryExports)
      .where(and(eq(designHistoryExports.requestedBy, userId), eq(designHistoryExports.deviceId, deviceId)))
      .orderBy(desc(designHistoryExports.createdAt))
      .limit(limit);
  }

  /** Moves a queued export on (ready or failed); null when it was not queued any more (a retried job). */
  async finishExport(
    id: string,
    change: Partial<
      Pick<DesignHistoryExportRow, 'status' | 'fileName' | 'bytes' | 'sha256' | 'error' | 'finishedAt' | 'expiresAt'>
    >,
  ): Promise<DesignHistoryExportRow | null> {
    const rows = await this.orm
      .update(designHistoryExports)
      .set(change)
      .where(and(eq(designHistoryExports.id, id), eq(designHistoryExports.status, 'queued')))
      .returning();
    return rows[0] ?? null;
  }

  /** Ready exports whose time ran out (their files are to be removed). */
  async expiredExports(now: Date, limit: number): Promise<DesignHistoryExportRow[]> {
    return this.orm
      .select()
      .from(designHistoryExports)
      .where(and(eq(designHistoryExports.status, 'ready'), lt(designHistoryExports.expiresAt, now)))
      .limit(limit);
  }

  async markExpired(id: string): Promise<void> {
    await this.orm
      .update(designHistoryExports)
      .set({ status: 'expired' })
      .where(and(eq(designHistoryExports.id, id), eq(designHistoryExports.status, 'ready')));
  }
}
