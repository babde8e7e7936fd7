import { and, asc, desc, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import {
  cohortPatients,
  cohorts,
  deviceVersionFiles,
  deviceVersions,
  devices,
  projects,
  roomPlacements,
  rooms,
  simulationParticleNames,
  simulations,
  storedFiles,
  users,
} from '../db/schema';

export type SimulationRow = typeof simulations.$inferSelect;
export type NewSimulation = typeof simulations.$inferInsert;

/** A simulation with its creator's name and its room's name (for the lists). */
export interface SimulationListRow {
  simulation: SimulationRow;
  roomName: string;
  createdByName: string | null;
}

export interface SimulationListFilter {
  projectId: string;
  roomId?: string;
  search: string;
  sort: 'name' | 'createdAt' | 'status' | 'progress';
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
}

/** The first placement of a room with its version's STL files in storage (what a case is built from). */
export interface PlacementWithFiles {
  versionId: string;
  versionName: string;
  versionStatus: string;
  transform: Record<string, unknown>;
  files: { fileName: string; region: string; storageKey: string }[];
}

/** Simulations (issue 16) and the room data a case is built from. */
export class SimulationRepository {
  constructor(private readonly orm: Database['orm']) {}

  /** Inserts; null when the name is taken in the room (case-insensitive). */
  async create(row: NewSimulation): Promise<SimulationRow | null> {
    const inserted = await this.orm.insert(simulations).values(row).onConflictDoNothing().returning();
    return inserted[0] ?? null;
  }

  async find(projectId: string, id: string): Promise<SimulationRow | null> {
    const rows = await this.orm
      .select()
      .from(simulations)
      .where(and(eq(simulations.projectId, projectId), eq(simulations.id, id)));
    return rows[0] ?? null;
  }

  async findById(id: string): Promise<SimulationRow | null> {
    const rows = await this.orm.select().from(simulations).where(eq(simulations.id, id));
    return rows[0] ?? null;
  }

  async nameTaken(roomId: string, name: string, exceptId?: string): Promise<boolean> {
    const rows = await this.orm
      .select({ id: simulations.id })
      .from(simulations)
      .where(
        and(
          eq(simulations.roomId, roomId),
          sql`lower(${simulations.name}) = lower(${name})`,
          ...(exceptId ? [ne(simulations.id, exceptId)] : []),
        ),
      );
    return rows.length > 0;
  }

  async list(filter: SimulationListFilter): Promise<{ rows: SimulationListRow[]; total: number }> {
    const conditions: SQL[] = [eq(simulations.projectId, filter.projectId)];
    if (filter.roomId) conditions.push(eq(simulations.roomId, filter.roomId));
    const search = filter.search.trim();
    if (search) {
      const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      conditions.push(
        or(
          ilike(simulations.name, pattern),
          ilike(simulations.deviceVersionName, pattern),
          ilike(rooms.name, pattern),
        )!,
      );
    }
    const where = and(...conditions);
    const column = {
      name: sql`lower(${simulations.name})`,
      createdAt: simulations.createdAt,
      status: simulations.status,
      progress: simulations.progress,
    }[filter.sort];
    const direction = filter.order === 'asc' ? asc : desc;
    const rows = await this.orm
      .select({ simulation: simulations, roomName: rooms.name, createdByName: users.fullName })
      .from(simulations)
      .innerJoin(rooms, eq(rooms.id, simulations.roomId))
      .leftJoin(users, eq(users.id, simulations.createdBy))
      .where(where)
      .orderBy(direction(column), desc(simulations.createdAt), asc(simulations.id))
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize);
    const counted = await this.orm
      .select({ total: sql<number>`count(*)::int` })
      .from(simulations)
      .innerJoin(rooms, eq(rooms.id, simulations.roomId))
      .where(where);
    return { rows, total: counted[0]?.total ?? 0 };
  }

  /** Renames unless another simulation of the room has the name (case-insensitive); null when it has. */
  async rename(id: string, roomId: string, name: string): Promise<SimulationRow | null> {
    const rows = await this.orm
      .update(simulations)
      .set({ name })
      .where(
        and(
          eq(simulations.id, id),
          sql`not exists (select 1 from ${simulations} s where s.room_id = ${roomId}
               and lower(s.name) = lower(${name}) and s.id <> ${id})`,
        ),
      )
      .returning();
    return rows[0] ?? null;
  }

  /** The names people gave particles of the simulation. */
  async particleNames(simulationId: string): Promise<{ object: string; particle: number; name: string }[]> {
    return this.orm
      .select({
        object: simulationParticleNames.object,
        particle: simulationParticleNames.particle,
        name: simulationParticleNames.name,
      })
      .from(simulationParticleNames)
      .where(eq(simulationParticleNames.simulationId, simulationId))
      .orderBy(asc(simulationParticleNames.object), asc(simulationParticleNames.particle));
  }

  /**
   * Names a particle; false when another particle of the simulation has the name (case-insensitive). The particle's
   * old name goes and the new one is inserted in one transaction, so the unique index decides even between two
   * renames at the same moment (the losing insert does nothing and the old name comes back).
   */
  async nameParticle(simulationId: string, object: string, particle: number, name: string): Promise<boolean> {
    const refused = new Error('particle name taken');
    try {
      await this.orm.transaction(async (tx) => {
        await tx
          .delete(simulationParticleNames)
          .where(
            and(
              eq(simulationParticleNames.simulationId, simulationId),
              eq(simulationParticleNames.object, object),
              eq(simulationParticleNames.particle, particle),
            ),
          );
        const inserted = await tx
          .insert(simulationParticleNames)
          .values({ simulationId, object, particle, name })
          .onConflictDoNothing()
          .returning();
        if (inserted.length === 0) throw refused;
      });
      return true;
    } catch (error) {
      if (error === refused) return false;
      throw error;
    }
  }

  async update(id: string, values: Partial<NewSimulation>): Promise<SimulationRow | null> {
    const rows = await this.orm.update(simulations).set(values).where(eq(simulations.id, id)).returning();
    return rows[0] ?? null;
  }

  /** Sets the status only when the simulation is in one of `from` (so a cancel never overwrites a finish). */
  async transition(
    id: string,
    from: readonly SimulationRow['status'][],
    values: Partial<NewSimulation> & { status: SimulationRow['status'] },
  ): Promise<SimulationRow | null> {
    const rows = await this.orm
      .update(simulations)
      .set(values)
      .where(and(eq(simulations.id, id), inArray(simulations.status, [...from])))
      .returning();
    return rows[0] ?? null;
  }

  /**
   * Marks a queued (or interrupted, running) simulation as running when its workspace runs fewer than `limit`
   * others; false when the workspace is at its limit. One statement, so two workers cannot both take the last slot.
   */
  async claim(id: string, deviceId: string, limit: number): Promise<boolean> {
    const rows = await this.orm
      .update(simulations)
      .set({ status: 'running' })
      .where(
        and(
          eq(simulations.id, id),
          inArray(simulations.status, ['queued', 'running']),
          sql`(select count(*) from ${simulations} s join ${projects} p on p.id = s.project_id
               where p.device_id = ${deviceId} and s.status = 'running' and s.id <> ${id}) < ${limit}`,
        ),
      )
      .returning({ id: simulations.id });
    return rows.length > 0;
  }

  async remove(id: string): Promise<void> {
    await this.orm.delete(simulations).where(eq(simulations.id, id));
  }

  /** A simulation with its room's and creator's names. */
  async findListRow(id: string): Promise<SimulationListRow | null> {
    const rows = await this.orm
      .select({ simulation: simulations, roomName: rooms.name, createdByName: users.fullName })
      .from(simulations)
      .innerJoin(rooms, eq(rooms.id, simulations.roomId))
      .leftJoin(users, eq(users.id, simulations.createdBy))
      .where(eq(simulations.id, id));
    return rows[0] ?? null;
  }

  /** The data region of a workspace ('eu' or 'us'). */
  async dataRegionOf(deviceId: string): Promise<string | null> {
    const rows = await this.orm.select({ region: devices.dataRegion }).from(devices).where(eq(devices.id, deviceId));
    return rows[0]?.region ?? null;
  }

  /** The workspace of a project. */
  async deviceOf(projectId: string): Promise<string | null> {
    const rows = await this.orm
      .select({ deviceId: projects.deviceId })
      .from(projects)
      .where(eq(projects.id, projectId));
    return rows[0]?.deviceId ?? null;
  }

  /** The stored patient record of a room's cohort patient. */
  async patientRecord(cohortId: string, patientId: string) {
    const rows = await this.orm
      .select({
        cohort: cohorts,
        record: cohortPatients.record,
        patientId: cohortPatients.patientId,
        patientIndex: cohortPatients.patientIndex,
      })
      .from(cohortPatients)
      .innerJoin(cohorts, eq(cohorts.id, cohortPatients.cohortId))
      .where(and(eq(cohortPatients.cohortId, cohortId), eq(cohortPatients.patientId, patientId)));
    return rows[0] ?? null;
  }

  /** The placements of a room in placing order, each with its version and its valid STL files in storage. */
  async placements(roomId: string): Promise<PlacementWithFiles[]> {
    const rows = await this.orm
      .select({
        placementId: roomPlacements.id,
        versionId: deviceVersions.id,
        versionName: deviceVersions.name,
        versionStatus: deviceVersions.status,
        transform: roomPlacements.transform,
        fileName: deviceVersionFiles.fileName,
        fileStatus: deviceVersionFiles.status,
        region: storedFiles.region,
        storageKey: storedFiles.storageKey,
      })
      .from(roomPlacements)
      .innerJoin(deviceVersions, eq(deviceVersions.id, roomPlacements.versionId))
      .leftJoin(deviceVersionFiles, eq(deviceVersionFiles.versionId, deviceVersions.id))
      .leftJoin(storedFiles, eq(storedFiles.id, deviceVersionFiles.fileId))
      .where(eq(roomPlacements.roomId, roomId))
      .orderBy(asc(roomPlacements.updatedAt), asc(roomPlacements.id), asc(deviceVersionFiles.fileName));
    const out = new Map<string, PlacementWithFiles>();
    for (const row of rows) {
      let entry = out.get(row.placementId);
      if (!entry) {
        entry = {
          versionId: row.versionId,
          versionName: row.versionName,
          versionStatus: row.versionStatus,
          transform: row.transform,
          files: [],
        };
        out.set(row.placementId, entry);
      }
      if (row.fileStatus === 'valid' && row.storageKey && row.region && row.fileName)
        entry.files.push({ fileName: row.fileName, region: row.region, storageKey: row.storageKey });
    }
    return [...out.values()];
  }

  /** Whether the device version still exists and is ready. */
  async versionReady(versionId: string): Promise<boolean> {
    const rows = await this.orm
      .select({ status: deviceVersions.status })
      .from(deviceVersions)
      .where(eq(deviceVersions.id, versionId));
    return rows[0]?.status === 'ready';
  }
}
