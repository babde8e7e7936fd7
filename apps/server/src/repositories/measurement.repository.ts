import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Orm } from '../db/client';
import {
  cohorts,
  jobRuns,
  measurementCorrections,
  measurementDefinitions,
  measurementOrders,
  measurementResults,
  ssms,
  users,
} from '../db/schema';

export type { OrderedMeasurementRecord } from '../db/schema/measurements';
export type MeasurementDefinitionRow = typeof measurementDefinitions.$inferSelect;
export type NewMeasurementDefinition = typeof measurementDefinitions.$inferInsert;
export type MeasurementOrderRow = typeof measurementOrders.$inferSelect;
export type NewMeasurementOrder = typeof measurementOrders.$inferInsert;
export type MeasurementResultRow = typeof measurementResults.$inferSelect;

/**
 * An order with its subject's name (the cohort's, or the shape model's for an order on an SSM's shapes, with the
 * model's project), the orderer's name and its job's progress.
 */
export interface MeasurementOrderListRow {
  order: MeasurementOrderRow;
  cohortName: string;
  ssmProjectId: string | null;
  creatorName: string | null;
  progress: number | null;
}

/** A correction with the corrector's name. */
export interface MeasurementCorrectionRow {
  patientIndex: number;
  phase: 'end-diastole' | 'end-systole';
  landmarks: Record<string, { position: number[]; normal?: number[] }>;
  correctedBy: string | null;
  correctorName: string | null;
  correctedAt: Date;
}

/** One cell's value to write: the value, or the failure. */
export interface MeasurementCellWrite {
  patientIndex: number;
  measurement: number;
  value: number | null;
  failure: string | null;
}

/** Measurement definitions (versions), orders, results and corrections. Every read by id names its workspace. */
export class MeasurementRepository {
  constructor(private readonly orm: Orm) {}

  async insertDefinition(row: NewMeasurementDefinition): Promise<MeasurementDefinitionRow | null> {
    // A concurrent edit of the same definition loses the race on (lineage, version): null, the caller says so.
    const rows = await this.orm.insert(measurementDefinitions).values(row).onConflictDoNothing().returning();
    return rows[0] ?? null;
  }

  /** The latest version of each of the workspace's definitions, oldest definition first. */
  async latestDefinitions(deviceId: string): Promise<MeasurementDefinitionRow[]> {
    const rows = await this.orm
      .select()
      .from(measurementDefinitions)
      .where(eq(measurementDefinitions.deviceId, deviceId))
      .orderBy(asc(measurementDefinitions.createdAt), asc(measurementDefinitions.version));
    const latest = new Map<string, MeasurementDefinitionRow>();
    for (const row of rows) {
      const seen = latest.get(row.lineageId);
      if (!seen || seen.version < row.version) latest.set(row.lineageId, row);
    }
    return [...latest.values()];
  }

  /** Versions of the workspace by id (missing ids are left out). */
  async definitionsByIds(deviceId: string, ids: string[]): Promise<MeasurementDefinitionRow[]> {
    if (ids.length === 0) return [];
    return this.orm
      .select()
      .from(measurementDefinitions)
      .where(and(eq(measurementDefinitions.deviceId, deviceId), inArray(measurementDefinitions.id, ids)));
  }

  /** The newest version of a lineage in the workspace, or null. */
  async latestOfLineage(deviceId: string, lineageId: string): Promise<MeasurementDefinitionRow | null> {
    const rows = await this.orm
      .select()
      .from(measurementDefinitions)
      .where(and(eq(measurementDefinitions.deviceId, deviceId), eq(measurementDefinitions.lineageId, lineageId)))
      .orderBy(desc(measurementDefinitions.version))
      .limit(1);
    return rows[0] ?? null;
  }

  async insertOrder(row: NewMeasurementOrder): Promise<MeasurementOrderRow> {
    const rows = await this.orm.insert(measurementOrders).values(row).returning();
    return rows[0] as MeasurementOrderRow;
  }

  async setJob(orderId: string, jobId: string): Promise<void> {
    await this.orm.update(measurementOrders).set({ jobId }).where(eq(measurementOrders.id, orderId));
  }

  async findOrderById(orderId: string): Promise<MeasurementOrderRow | null> {
    const rows = await this.orm.select().from(measurementOrders).where(eq(measurementOrders.id, orderId));
    return rows[0] ?? null;
  }

  /** An order by id with its names (for the job), or null. */
  async findOrderWithNames(orderId: string): Promise<MeasurementOrderListRow | null> {
    const rows = await this.selectOrders().where(eq(measurementOrders.id, orderId));
    return rows[0] ?? null;
  }

  /** An order of the workspace with names and progress, or null. */
  async findOrder(deviceId: string, orderId: string): Promise<MeasurementOrderListRow | null> {
    const rows = await this.selectOrders().where(
      and(eq(measurementOrders.deviceId, deviceId), eq(measurementOrders.id, orderId)),
    );
    return rows[0] ?? null;
  }

  /** The workspace's orders, newest first. */
  async listOrders(deviceId: string): Promise<MeasurementOrderListRow[]> {
    return this.selectOrders()
      .where(eq(measurementOrders.deviceId, deviceId))
      .orderBy(desc(measurementOrders.createdAt));
  }

  /** Writes automatic values (idempotent: a retried job writes the same cells again). */
  async writeAutomatic(orderId: string, cells: MeasurementCellWrite[]): Promise<void> {
    if (cells.length === 0) return;
    await this.orm
      .insert(measurementResults)
      .values(
        cells.map((c) => ({
          orderId,
          patientIndex: c.patientIndex,
          measurement: c.measurement,
          automaticValue: c.value,
          failure: c.failure,
        })),
      )
      .onConflictDoUpdate({
        target: [measurementResults.orderId, measurementResults.patientIndex, measurementResults.measurement],
        set: { automaticValue: sql`excluded.automatic_value`, failure: sql`excluded.failure` },
      });
  }

  /** Patients (by index) whose cells are all written (a retried job skips them). */
  async measuredPatients(orderId: string, measurements: number): Promise<Set<number>> {
    const rows = await this.orm
      .select({ patientIndex: measurementResults.patientIndex, n: sql<number>`count(*)::int` })
      .from(measurementResults)
      .where(eq(measurementResults.orderId, orderId))
      .groupBy(measurementResults.patientIndex);
    return new Set(rows.filter((r) => r.n === measurements).map((r) => r.patientIndex));
  }

  async results(orderId: string): Promise<MeasurementResultRow[]> {
    return this.orm
      .select()
      .from(measurementResults)
      .where(eq(measurementResults.orderId, orderId))
      .orderBy(asc(measurementResults.patientIndex), asc(measurementResults.measurement));
  }

  /**
   * Marks an order in progress ready; false when it was settled already: a retried job changes nothing, and a stale
   * job never turns a failed order ready (in_progress → ready | failed only).
   */
  async markReady(orderId: string): Promise<boolean> {
    const rows = await this.orm
      .update(measurementOrders)
      .set({ status: 'ready', readyAt: sql`coalesce(${measurementOrders.readyAt}, now())`, error: null })
      .where(and(eq(measurementOrders.id, orderId), eq(measurementOrders.status, 'in_progress')))
      .returning({ id: measurementOrders.id });
    return rows.length > 0;
  }

  /** Marks an order in progress failed; false when it was not in progress. */
  async markFailed(orderId: string, error: string): Promise<boolean> {
    const rows = await this.orm
      .update(measurementOrders)
      .set({ status: 'failed', error })
      .where(and(eq(measurementOrders.id, orderId), eq(measurementOrders.status, 'in_progress')))
      .returning({ id: measurementOrders.id });
    return rows.length > 0;
  }

  /**
   * Stores a hand correction of one patient at one phase (who, when, which landmarks) and the corrected values of
   * the measurements taken at that phase, in one transaction; the automatic values stay as they are.
   */
  async saveCorrection(
    orderId: string,
    patientIndex: number,
    phase: 'end-diastole' | 'end-systole',
    landmarks: Record<string, { position: number[]; normal?: number[] }>,
    userId: string,
    cells: MeasurementCellWrite[],
  ): Promise<void> {
    await this.orm.transaction(async (tx) => {
      await tx
        .insert(measurementCorrections)
        .values({ orderId, patientIndex, phase, landmarks, correctedBy: userId })
        .onConflictDoUpdate({
          target: [measurementCorrections.orderId, measurementCorrections.patientIndex, measurementCorrections.phase],
          set: { landmarks, correctedBy: userId, correctedAt: sql`now()` },
        });
      for (const c of cells)
        await tx
          .update(measurementResults)
          .set({ correctedValue: c.value, correctedFailure: c.failure })
          .where(
            and(
              eq(measurementResults.orderId, orderId),
              eq(measurementResults.patientIndex, c.patientIndex),
              eq(measurementResults.measurement, c.measurement),
            ),
          );
    });
  }

  async corrections(orderId: string): Promise<MeasurementCorrectionRow[]> {
    return this.orm
      .select({
        patientIndex: measurementCorrections.patientIndex,
        phase: measurementCorrections.phase,
        landmarks: measurementCorrections.landmarks,
        correctedBy: measurementCorrections.correctedBy,
        correctorName: users.fullName,
        correctedAt: measurementCorrections.correctedAt,
      })
      .from(measurementCorrections)
      .leftJoin(users, eq(users.id, measurementCorrections.correctedBy))
      .where(eq(measurementCorrections.orderId, orderId));
  }

  private selectOrders() {
    return this.orm
      .select({
        order: measurementOrders,
        cohortName: sql<string>`coalesce(${cohorts.name}, ${ssms.name}, '')`,
        ssmProjectId: ssms.projectId,
        creatorName: users.fullName,
        progress: jobRuns.progress,
      })
      .from(measurementOrders)
      .leftJoin(cohorts, eq(cohorts.id, measurementOrders.cohortId))
      .leftJoin(ssms, eq(ssms.id, measurementOrders.ssmId))
      .leftJoin(users, eq(users.id, measurementOrders.createdBy))
      .leftJoin(jobRuns, eq(jobRuns.id, measurementOrders.jobId))
      .$dynamic();
  }
}
