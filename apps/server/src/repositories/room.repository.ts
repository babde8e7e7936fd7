import { and, asc, count, desc, eq, ilike, inArray, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Orm } from '../db/client';
import {
  cohortPatients,
  cohorts,
  deviceVersionFiles,
  deviceVersions,
  imagingDatasets,
  projectCohorts,
  projectDeviceVersions,
  projectMembers,
  roomPlacements,
  rooms,
  simulations,
  roomScreenshots,
  roomShares,
  ssms,
  storedFiles,
  users,
} from '../db/schema';

export type RoomRecord = typeof rooms.$inferSelect;
export type StoredFileRecord = typeof storedFiles.$inferSelect;

/** A room with what its card shows about the subject. */
export interface RoomListRow {
  room: RoomRecord;
  cohortName: string | null;
  /** The patient's id: `SYN-…` of a cohort, or the folder name of an imaging cohort's patient. */
  patientId: string | null;
  /** The imaging cohort's name (rooms on an imaging patient, issue 19). */
  imagingDatasetName: string | null;
  createdByName: string | null;
}

export interface RoomFilter {
  search: string;
  cohortId?: string | undefined;
  patientId?: string | undefined;
  ssmId?: string | undefined;
  subject: 'any' | 'patient' | 'ssm';
  /** No simulations exist yet: `yes` matches nothing. */
  hasSimulation: 'any' | 'yes' | 'no';
}

export interface ScreenshotRow {
  id: string;
  roomId: string;
  createdAt: Date;
  createdBy: string | null;
  createdByName: string | null;
  file: StoredFileRecord;
}

export interface PlacementRow {
  id: string;
  versionId: string;
  versionName: string;
  transform: Record<string, unknown>;
  landmark: string | null;
}

export interface NewPlacement {
  versionId: string;
  transform: Record<string, unknown>;
  landmark: string | null;
}

export interface TeamPerson {
  userId: string;
  name: string;
  email: string;
}

/** Escapes `%`, `_` and `\` so a search is a plain substring match. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** Rooms of projects: rooms, placements, shares and screenshots (the tables of schema/rooms.ts). */
export class RoomRepository {
  constructor(private readonly orm: Orm) {}

  private listSelection() {
    return this.orm
      .select({
        room: rooms,
        cohortName: cohorts.name,
        patientId: sql<string | null>`coalesce(${cohortPatients.patientId}, ${rooms.imagingPatient})`,
        imagingDatasetName: imagingDatasets.name,
        createdByName: users.fullName,
      })
      .from(rooms)
      .leftJoin(cohorts, eq(cohorts.id, rooms.cohortId))
      .leftJoin(imagingDatasets, eq(imagingDatasets.id, rooms.imagingDatasetId))
      .leftJoin(
        cohortPatients,
        and(eq(cohortPatients.cohortId, rooms.cohortId), eq(cohortPatients.patientIndex, rooms.patientIndex)),
      )
      .leftJoin(users, eq(users.id, rooms.createdBy));
  }

  private filterOf(projectId: string, filter: RoomFilter): SQL | undefined {
    const conditions: (SQL | undefined)[] = [eq(rooms.projectId, projectId)];
    if (filter.search !== '') conditions.push(ilike(rooms.name, likePattern(filter.search)));
    if (filter.cohortId) conditions.push(eq(rooms.cohortId, filter.cohortId));
    if (filter.patientId) conditions.push(eq(cohortPatients.patientId, filter.patientId));
    if (filter.ssmId) conditions.push(eq(rooms.ssmId, filter.ssmId));
    if (filter.subject === 'patient') conditions.push(or(isNotNull(rooms.cohortId), isNotNull(rooms.imagingDatasetId)));
    if (filter.subject === 'ssm') conditions.push(isNull(rooms.cohortId), isNotNull(rooms.ssmId));
    const simulated = sql`exists (select 1 from ${simulations} where ${simulations.roomId} = ${rooms.id})`;
    if (filter.hasSimulation === 'yes') conditions.push(simulated);
    if (filter.hasSimulation === 'no') conditions.push(sql`not ${simulated}`);
    return and(...conditions);
  }

  /** One page of the project's rooms matching the filter, newest first, and how many match in all. */
  async list(
    projectId: string,
    filter: RoomFilter,
    page: { offset: number; limit: number },
  ): Promise<{ rows: RoomListRow[]; total: number }> {
    const where = this.filterOf(projectId, filter);
    const [rows, totals] = await Promise.all([
      this.listSelection()
        .where(where)
        .orderBy(desc(rooms.createdAt), asc(rooms.id))
        .offset(page.offset)
        .limit(page.limit),
      this.orm
        .select({ total: count() })
        .from(rooms)
        .leftJoin(
          cohortPatients,
          and(eq(cohortPatients.cohortId, rooms.cohortId), eq(cohortPatients.patientIndex, rooms.patientIndex)),
        )
        .where(where),
    ]);
    return { rows, total: totals[0]?.total ?? 0 };
  }

  async find(projectId: string, roomId: string): Promise<RoomListRow | null> {
    const rows = await this.listSelection().where(and(eq(rooms.projectId, projectId), eq(rooms.id, roomId)));
    return rows[0] ?? null;
  }

  /** The patients the project's rooms are on (the patient filter's choices). */
  async patientFacets(projectId: string): Promise<{ cohortId: string; cohortName: string; patientId: string }[]> {
    return this.orm
      .selectDistinct({ cohortId: cohorts.id, cohortName: cohorts.name, patientId: cohortPatients.patientId })
      .from(rooms)
      .innerJoin(cohorts, eq(cohorts.id, rooms.cohortId))
      .innerJoin(
        cohortPatients,
        and(eq(cohortPatients.cohortId, rooms.cohortId), eq(cohortPatients.patientIndex, rooms.patientIndex)),
      )
      .where(eq(rooms.projectId, projectId))
      .orderBy(asc(cohorts.name), asc(cohortPatients.patientId));
  }

  /** The cohort when it belongs to the project. */
  async projectCohort(projectId: string, cohortId: string): Promise<typeof cohorts.$inferSelect | null> {
    const rows = await this.orm
      .select({ cohort: cohorts })
      .from(projectCohorts)
      .innerJoin(cohorts, eq(cohorts.id, projectCohorts.cohortId))
      .where(and(eq(projectCohorts.projectId, projectId), eq(projectCohorts.cohortId, cohortId)));
    return rows[0]?.cohort ?? null;
  }

  /** The project's cohorts, by name. */
  async projectCohorts(projectId: string): Promise<{ cohortId: string; name: string; status: string }[]> {
    return this.orm
      .select({ cohortId: cohorts.id, name: cohorts.name, status: cohorts.status })
      .from(projectCohorts)
      .innerJoin(cohorts, eq(cohorts.id, projectCohorts.cohortId))
      .where(eq(projectCohorts.projectId, projectId))
      .orderBy(asc(cohorts.name));
  }

  /** The index of a patient (by its `SYN-…` id) in a cohort, or null. */
  async patientIndex(cohortId: string, patientId: string): Promise<number | null> {
    const rows = await this.orm
      .select({ patientIndex: cohortPatients.patientIndex })
      .from(cohortPatients)
      .where(and(eq(cohortPatients.cohortId, cohortId), eq(cohortPatients.patientId, patientId)));
    return rows[0]?.patientIndex ?? null;
  }

  /** Names of the project's rooms that start with `prefix` (any letter case), to pick a free default name. */
  async namesStartingWith(projectId: string, prefix: string): Promise<string[]> {
    const rows = await this.orm
      .select({ name: rooms.name })
      .from(rooms)
      .where(and(eq(rooms.projectId, projectId), ilike(rooms.name, `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)));
    return rows.map((row) => row.name);
  }

  async nameTaken(projectId: string, name: string, exceptRoomId?: string): Promise<boolean> {
    const rows = await this.orm
      .select({ id: rooms.id })
      .from(rooms)
      .where(
        and(
          eq(rooms.projectId, projectId),
          sql`lower(${rooms.name}) = lower(${name})`,
          exceptRoomId ? ne(rooms.id, exceptRoomId) : undefined,
        ),
      );
    return rows.length > 0;
  }

  /** Inserts the room; null when the project already has a room of that name (any letter case). */
  /** The SSMs the project's rooms are on (the Rooms tab's SSM filter). */
  async ssmFacets(projectId: string): Promise<{ ssmId: string; name: string }[]> {
    return this.orm
      .selectDistinct({ ssmId: ssms.id, name: ssms.name })
      .from(rooms)
      .innerJoin(ssms, eq(ssms.id, rooms.ssmId))
      .where(eq(rooms.projectId, projectId))
      .orderBy(asc(ssms.name), asc(ssms.id));
  }

  async insert(room: typeof rooms.$inferInsert): Promise<RoomRecord | null> {
    const rows = await this.orm.insert(rooms).values(room).onConflictDoNothing().returning();
    return rows[0] ?? null;
  }

  async rename(roomId: string, name: string): Promise<void> {
    await this.orm.update(rooms).set({ name, updatedAt: new Date() }).where(eq(rooms.id, roomId));
  }

  async touch(roomId: string, scene?: Record<string, unknown>): Promise<void> {
    await this.orm
      .update(rooms)
      .set({ updatedAt: new Date(), ...(scene ? { scene } : {}) })
      .where(eq(rooms.id, roomId));
  }

  /** Deletes the room (placements, shares and screenshot rows cascade) and its screenshots' file rows. */
  async delete(roomId: string): Promise<StoredFileRecord[]> {
    const files = await this.orm
      .select({ file: storedFiles })
      .from(roomScreenshots)
      .innerJoin(storedFiles, eq(storedFiles.id, roomScreenshots.fileId))
      .where(eq(roomScreenshots.roomId, roomId));
    await this.orm.delete(rooms).where(eq(rooms.id, roomId));
    if (files.length > 0)
      await this.orm.delete(storedFiles).where(
        inArray(
          storedFiles.id,
          files.map((row) => row.file.id),
        ),
      );
    return files.map((row) => row.file);
  }

  async placementCounts(roomIds: readonly string[]): Promise<Map<string, number>> {
    if (roomIds.length === 0) return new Map();
    const rows = await this.orm
      .select({ roomId: roomPlacements.roomId, placements: count() })
      .from(roomPlacements)
      .where(inArray(roomPlacements.roomId, [...roomIds]))
      .groupBy(roomPlacements.roomId);
    return new Map(rows.map((row) => [row.roomId, row.placements]));
  }

  /** Those of the rooms that have a simulation (in any state). */
  async simulated(roomIds: readonly string[]): Promise<Set<string>> {
    if (roomIds.length === 0) return new Set();
    const rows = await this.orm
      .selectDistinct({ roomId: simulations.roomId })
      .from(simulations)
      .where(inArray(simulations.roomId, [...roomIds]));
    return new Set(rows.map((row) => row.roomId));
  }

  async placements(roomId: string): Promise<PlacementRow[]> {
    return this.orm
      .select({
        id: roomPlacements.id,
        versionId: roomPlacements.versionId,
        versionName: deviceVersions.name,
        transform: roomPlacements.transform,
        landmark: roomPlacements.landmark,
      })
      .from(roomPlacements)
      .innerJoin(deviceVersions, eq(deviceVersions.id, roomPlacements.versionId))
      .where(eq(roomPlacements.roomId, roomId))
      .orderBy(asc(roomPlacements.updatedAt), asc(roomPlacements.id));
  }

  async replacePlacements(roomId: string, placements: readonly NewPlacement[], userId: string): Promise<void> {
    await this.orm.delete(roomPlacements).where(eq(roomPlacements.roomId, roomId));
    if (placements.length === 0) return;
    // One timestamp per save, each row a millisecond apart, so the saved order is the order read back.
    const base = Date.now();
    await this.orm.insert(roomPlacements).values(
      placements.map((placement, index) => ({
        roomId,
        versionId: placement.versionId,
        transform: placement.transform,
        landmark: placement.landmark,
        updatedBy: userId,
        updatedAt: new Date(base + index),
      })),
    );
  }

  /** The project's ready device versions and their valid model files (id, name, stored file). */
  async readyVersions(
    projectId: string,
  ): Promise<{ id: string; name: string; files: { id: string; fileName: string; fileId: string }[] }[]> {
    const rows = await this.orm
      .select({
        id: deviceVersions.id,
        name: deviceVersions.name,
        fileRowId: deviceVersionFiles.id,
        fileName: deviceVersionFiles.fileName,
        fileId: deviceVersionFiles.fileId,
        fileStatus: deviceVersionFiles.status,
      })
      .from(projectDeviceVersions)
      .innerJoin(deviceVersions, eq(deviceVersions.id, projectDeviceVersions.versionId))
      .leftJoin(deviceVersionFiles, eq(deviceVersionFiles.versionId, deviceVersions.id))
      .where(and(eq(projectDeviceVersions.projectId, projectId), eq(deviceVersions.status, 'ready')))
      .orderBy(asc(deviceVersions.name), asc(deviceVersionFiles.position));
    const versions = new Map<
      string,
      { id: string; name: string; files: { id: string; fileName: string; fileId: string }[] }
    >();
    for (const row of rows) {
      const version = versions.get(row.id) ?? { id: row.id, name: row.name, files: [] };
      versions.set(row.id, version);
      if (row.fileRowId && row.fileId && row.fileName && row.fileStatus === 'valid')
        version.files.push({ id: row.fileRowId, fileName: row.fileName, fileId: row.fileId });
    }
    return [...versions.values()];
  }

  async team(projectId: string): Promise<TeamPerson[]> {
    return this.orm
      .select({ userId: users.id, name: users.fullName, email: users.email })
      .from(projectMembers)
      .innerJoin(users, eq(users.id, projectMembers.userId))
      .where(eq(projectMembers.projectId, projectId))
      .orderBy(asc(users.fullName), asc(users.email));
  }

  async shares(
    roomIds: readonly string[],
  ): Promise<{ roomId: string; userId: string; name: string; sharedAt: Date }[]> {
    if (roomIds.length === 0) return [];
    return this.orm
      .select({
        roomId: roomShares.roomId,
        userId: roomShares.userId,
        name: users.fullName,
        sharedAt: roomShares.sharedAt,
      })
      .from(roomShares)
      .innerJoin(users, eq(users.id, roomShares.userId))
      .where(inArray(roomShares.roomId, [...roomIds]))
      .orderBy(asc(users.fullName));
  }

  /** Shares the room; answers the users it was newly shared with. */
  async share(roomId: string, userIds: readonly string[], sharedBy: string): Promise<string[]> {
    if (userIds.length === 0) return [];
    const rows = await this.orm
      .insert(roomShares)
      .values(userIds.map((userId) => ({ roomId, userId, sharedBy })))
      .onConflictDoNothing()
      .returning({ userId: roomShares.userId });
    return rows.map((row) => row.userId);
  }

  private screenshotSelection() {
    return this.orm
      .select({
        id: roomScreenshots.id,
        roomId: roomScreenshots.roomId,
        createdAt: roomScreenshots.createdAt,
        createdBy: roomScreenshots.createdBy,
        createdByName: users.fullName,
        file: storedFiles,
      })
      .from(roomScreenshots)
      .innerJoin(storedFiles, eq(storedFiles.id, roomScreenshots.fileId))
      .leftJoin(users, eq(users.id, roomScreenshots.createdBy));
  }

  /** A room's screenshots, newest first. */
  async screenshots(roomId: string): Promise<ScreenshotRow[]> {
    return this.screenshotSelection()
      .where(eq(roomScreenshots.roomId, roomId))
      .orderBy(desc(roomScreenshots.createdAt), desc(roomScreenshots.id));
  }

  async screenshot(roomId: string, screenshotId: string): Promise<ScreenshotRow | null> {
    const rows = await this.screenshotSelection().where(
      and(eq(roomScreenshots.roomId, roomId), eq(roomScreenshots.id, screenshotId)),
    );
    return rows[0] ?? null;
  }

  /** The newest screenshot and the number of screenshots of each room. */
  async screenshotSummaries(
    roomIds: readonly string[],
  ): Promise<Map<string, { latest: ScreenshotRow; count: number }>> {
    if (roomIds.length === 0) return new Map();
    const rows = await this.screenshotSelection()
      .where(inArray(roomScreenshots.roomId, [...roomIds]))
      .orderBy(desc(roomScreenshots.createdAt), desc(roomScreenshots.id));
    const summaries = new Map<string, { latest: ScreenshotRow; count: number }>();
    for (const row of rows) {
      const summary = summaries.get(row.roomId);
      if (summary) summary.count += 1;
      else summaries.set(row.roomId, { latest: row, count: 1 });
    }
    return summaries;
  }

  async insertScreenshot(
    roomId: string,
    file: typeof storedFiles.$inferInsert,
    createdBy: string,
  ): Promise<{ id: string }> {
    const [stored] = await this.orm.insert(storedFiles).values(file).returning({ id: storedFiles.id });
    const [screenshot] = await this.orm
      .insert(roomScreenshots)
      .values({ roomId, fileId: stored!.id, createdBy })
      .returning({ id: roomScreenshots.id });
    return screenshot!;
  }
}
