import { randomUUID } from 'node:crypto';
import {
  InsufficientMatchesError,
  MESH_MODEL_VERSION,
  normalizeNewPathologyName,
  seedFromString,
  summarizeCriteria,
  type CohortCriteria,
  type SyntheticPatient,
} from '@insilico/anatomy';
import {
  cohortNameTakenMessage,
  type Cohort,
  type CohortCount,
  type CohortCriteriaBody,
  type CohortList,
  type CohortParameterTable,
  type CohortPatient,
  type CohortPatientPage,
  type CohortPatientsQuery,
  type CohortSummary,
  type PathologyRequestAnswer,
} from '@insilico/contracts';
import { cohortOrderJob, type CohortOrderData } from '../jobs/cohort-order.job';
import { mayListCohorts, type CohortVisibility } from '../policies/cohort.policy';
import type { WorkspaceGrant } from '../policies/workspace.policy';
import type { DataRegion } from '../repositories/blob.repository';
import type { CohortListRow, CohortRepository, CohortRow } from '../repositories/cohort.repository';
import type { DeviceRepository } from '../repositories/device.repository';
import type { Transaction, UnitOfWork } from '../repositories/unit-of-work';
import { systemEvent, workspaceEvent } from '../events/kinds';
import { cohortCsv } from './cohort-csv';
import { parameterTableOf } from './cohort-parameter-table';
import { orderedPhasesOf, patientPhase, type PatientMeshCache } from './cohort-mesh.service';
import { searchTextOf, sortPatients, toCohortPatient, toPatientRow } from './cohort-patient.mapper';
import type { VirtualPatientDatabase } from './cohort-population';
import { storedPatient, toStoredPatient } from './cohort-records';
import { ServiceError } from './errors';
import { authorizeCohort } from './authorize';
import { callerGrant } from './caller-grant';

const cohortObject = (id: string) => ({ type: 'cohort', id });
/** A new order, already parsed by its contract schema. */
export interface NewCohortOrder {
  name: string;
  description: string;
  size: number;
  criteria: CohortCriteriaBody;
}

/** What the order job reports back through progress. */
export interface OrderProgress {
  progress(fraction: number, message?: string): Promise<void>;
  signal: AbortSignal;
}

const notFound = () => new ServiceError(404, 'not_found', 'No such patient cohort in this device workspace.');

/**
 * Patient cohorts: the live count, orders (validated, refused up front when too few patients match, then a
 * durable job), the list, one cohort, its patients (search, sort, paging, CSV), one patient and its meshes.
 */
/** Called once for each new pathology request (the context files it in the support inbox). */
export type PathologyRequestListener = (request: { deviceId: string; userId: string; name: string }) => Promise<void>;

/**
 * Called in the transaction that marks an order ready or failed, so what waits for the cohort (SSMs chained onto
 * it in the project wizard, issue 18) moves on with it or not at all.
 */
export type CohortSettledListener = (
  tx: Transaction,
  cohort: { id: string; name: string },
  status: 'ready' | 'failed',
) => Promise<void>;

export class CohortService {
  constructor(
    private readonly repository: CohortRepository,
    private readonly devices: DeviceRepository,
    private readonly database: VirtualPatientDatabase,
    private readonly meshes: PatientMeshCache,
    private readonly unitOfWork: UnitOfWork,
    /** Tells support about a pathology asked for the first time in a workspace (spec: support sees it). */
    private readonly onPathologyRequested: PathologyRequestListener = async () => {},
    private readonly onSettled: CohortSettledListener = async () => {},
  ) {}

  /** Stores a pathology request once per user, workspace and name, and tells support when it is new. */
  private async recordPathologyRequest(deviceId: string, userId: string, name: string): Promise<boolean> {
    const created = (await this.repository.requestPathology(deviceId, userId, name)) !== null;
    if (created) await this.onPathologyRequested({ deviceId, userId, name });
    return created;
  }

  async count(userId: string, deviceId: string, body: CohortCriteriaBody): Promise<CohortCount> {
    authorizeCohort('cohort.order', await this.grant(userId, deviceId));
    const criteria = this.database.criteria(body);
    return { matching: this.database.count(criteria), population: this.database.current().patients.length };
  }

  async order(userId: string, deviceId: string, input: NewCohortOrder): Promise<Cohort> {
    authorizeCohort('cohort.order', await this.grant(userId, deviceId));
    const criteria = this.database.criteria(input.criteria);
    if (await this.repository.nameTaken(deviceId, input.name))
      throw new ServiceError(409, 'cohort_name_taken', cohortNameTakenMessage);
    const population = this.database.current();
    const matching = this.database.count(criteria);
    if (matching < input.size) {
      const refusal = new InsufficientMatchesError(matching, input.size);
      throw new ServiceError(
        422,
        'too_few_matches',
        `${refusal.message} Widen the criteria or choose a smaller cohort.`,
        { matching, requested: input.size },
      );
    }
    const id = randomUUID();
    const cohort = {
      id,
      deviceId,
      name: input.name,
      description: input.description,
      criteria: criteria as unknown as Record<string, unknown>,
      size: input.size,
      status: 'in_progress' as const,
      populationSeed: population.seed,
      populationSize: population.patients.length,
      modelVersion: population.modelVersion,
      meshModelVersion: MESH_MODEL_VERSION,
      sampleSeed: seedFromString(id),
      matchingAtOrder: matching,
      createdBy: userId,
    };
    // The patients are drawn now and stored with the cohort: they are its evidence, whatever the generator becomes.
    const patients = this.database.sample({ ...cohort, criteria }).map(toStoredPatient);
    // The cohort, its patients and its job commit together: an order is never left in progress without a job.
    const row = await this.unitOfWork.run(async (tx) => {
      const inserted = await tx.cohorts.insert(cohort, patients);
      if (!inserted) return null;
      const data: CohortOrderData = { cohortId: id, userId };
      const run = await tx.jobs.enqueue(cohortOrderJob, data, userId);
      await tx.cohorts.setJob(id, run.id);
      tx.events.record({
        ...workspaceEvent(userId, deviceId, 'cohort.ordered', { type: 'cohort', id }),
        after: {
          name: input.name,
          description: input.description,
          size: input.size,
          criteria: cohort.criteria,
          matching,
          modelVersion: population.modelVersion,
        },
      });
      return inserted;
    });
    if (!row) throw new ServiceError(409, 'cohort_name_taken', cohortNameTakenMessage);
    for (const name of newPathologies(criteria)) await this.recordPathologyRequest(deviceId, userId, name);
    return this.get(userId, deviceId, id);
  }

  async list(userId: string, deviceId: string): Promise<CohortList> {
    const grant = await this.grant(userId, deviceId);
    if (!mayListCohorts(grant)) authorizeCohort('cohort.read', grant);
    const [rows, visible] = await Promise.all([
      this.repository.list(deviceId),
      this.visibleToGuest(grant, deviceId, userId),
    ]);
    return {
      items: rows
        .filter((row) => !visible || this.visibility(visible, row.cohort).onCallersProject)
        .map((row) => toSummary(row)),
    };
  }

  async get(userId: string, deviceId: string, cohortId: string): Promise<Cohort> {
    const row = await this.readableCohort(userId, deviceId, cohortId);
    return {
      ...toSummary(row),
      matchingAtOrder: row.cohort.matchingAtOrder,
      modelVersion: row.cohort.modelVersion,
      error: row.cohort.error,
      progressMessage: row.cohort.status === 'in_progress' ? row.progressMessage : null,
    };
  }

  async patients(
    userId: string,
    deviceId: string,
    cohortId: string,
    query: CohortPatientsQuery,
  ): Promise<CohortPatientPage> {
    const row = await this.readableCohort(userId, deviceId, cohortId);
    const search = query.search.trim().toLowerCase();
    const patients = (await this.patientsOf(row.cohort)).filter(
      (patient) => search === '' || searchTextOf(patient).includes(search),
    );
    const sorted = sortPatients(patients, query.sort, query.order);
    const start = (query.page - 1) * query.pageSize;
    return {
      items: sorted.slice(start, start + query.pageSize).map(toPatientRow),
      total: sorted.length,
      page: query.page,
      pageSize: query.pageSize,
    };
  }

  /** The CSV export and a file name that says what it holds and when it was taken (UTC date of the export). */
  async csv(userId: string, deviceId: string, cohortId: string): Promise<{ fileName: string; text: string }> {
    const row = await this.readableCohort(userId, deviceId, cohortId);
    const patients = await this.patientsOf(row.cohort);
    const base = row.cohort.name.replace(/[^\p{L}\p{N}_-]+/gu, '-').replace(/^-+|-+$/g, '') || 'cohort';
    const exported = new Date().toISOString().slice(0, 10);
    return { fileName: `${base}-synthetic-patients-${exported}.csv`, text: cohortCsv(patients) };
  }

  /** Every patient with every analysable parameter, as columns (the population analysis page's worker). */
  async parameterTable(userId: string, deviceId: string, cohortId: string): Promise<CohortParameterTable> {
    const row = await this.readableCohort(userId, deviceId, cohortId);
    return parameterTableOf(row.cohort.id, await this.patientsOf(row.cohort));
  }

  async patient(userId: string, deviceId: string, cohortId: string, patientId: string): Promise<CohortPatient> {
    const { cohort, patient } = await this.cohortPatient(userId, deviceId, cohortId, patientId);
    return toCohortPatient(cohort.id, patient, cohort.meshModelVersion);
  }

  /** The GLB of all organs of one patient for one phase (built from the stored record on first use, then cached). */
  async meshGlb(userId: string, deviceId: string, cohortId: string, patientId: string, phase: string): Promise<Buffer> {
    const { cohort, patient, region } = await this.cohortPatient(userId, deviceId, cohortId, patientId);
    return this.meshes.glb(region, cohort, patient, patientPhase(patient, phase));
  }

  async landmarks(userId: string, deviceId: string, cohortId: string, patientId: string, phase: string) {
    const { cohort, patient, region } = await this.cohortPatient(userId, deviceId, cohortId, patientId);
    return {
      patientId: patient.id,
      phase,
      unit: 'mm' as const,
      frame: 'LPS-mm-ribcage-centre',
      landmarks: [...(await this.meshes.landmarks(region, cohort, patient, patientPhase(patient, phase)))],
    };
  }

  async requestPathology(userId: string, deviceId: string, text: string): Promise<PathologyRequestAnswer> {
    authorizeCohort('cohort.request-pathology', await this.grant(userId, deviceId));
    const name = normalizeNewPathologyName(text);
    if (name === null)
      throw new ServiceError(400, 'invalid', 'Name a pathology the list does not offer yet (at most 100 characters).');
    // Asked for by itself (not as part of an order), the request is a change of its own in the audit trail.
    const id = await this.unitOfWork.run(async (tx) => {
      const requested = await tx.cohorts.requestPathology(deviceId, userId, name);
      if (requested)
        tx.events.record({
          ...workspaceEvent(userId, deviceId, 'cohort.pathology_requested', {
            type: 'pathology_request',
            id: requested,
          }),
          after: { name },
        });
      return requested;
    });
    if (id) await this.onPathologyRequested({ deviceId, userId, name });
    return { name, created: id !== null };
  }

  /**
   * The work of the order job, idempotent: builds the static phases' meshes from the stored patients that are not
   * cached yet (cine frames are built on first view), then marks the cohort ready. Answers the cohort, or null
   * when it was deleted meanwhile. A cohort settled already (ready, or failed for good) is answered as it is: a
   * retried or stale job neither prepares it again nor changes its status.
   */
  async prepareOrder(cohortId: string, work: OrderProgress): Promise<CohortRow | null> {
    const cohort = await this.repository.findById(cohortId);
    if (!cohort) return null;
    if (cohort.status !== 'in_progress') return cohort;
    let stored = await this.repository.patients(cohortId);
    if (stored.length !== cohort.size) {
      // Ordered before the patients were drawn at order time (an older server): draw them now, reproducibly.
      await work.progress(0, 'Drawing the patients');
      const criteria = this.database.criteria(cohort.criteria as unknown as CohortCriteriaBody);
      await this.repository.addPatients(cohortId, this.database.sample({ ...cohort, criteria }).map(toStoredPatient));
      stored = await this.repository.patients(cohortId);
    }
    const region = await this.region(cohort.deviceId);
    const patients = stored.map((entry) => storedPatient(cohort, entry));
    const items = patients.flatMap((patient, i) =>
      orderedPhasesOf(patient).map((phase) => ({ patient, phase, number: i + 1 })),
    );
    // The order's meshes are built by this server's mesh model, which the cohort names once ready.
    await this.meshes.prepare(
      region,
      cohort,
      items,
      (index) =>
        work.progress(
          0.02 + (0.97 * (index + 1)) / items.length,
          `Preparing the anatomy of patient ${items[index]?.number ?? patients.length} of ${patients.length}`,
        ),
      work.signal,
    );
    // Ready and its event (the system, for the orderer) commit together; the orderer hears of it from the event.
    await this.unitOfWork.run(async (tx) => {
      if (!(await tx.cohorts.markReady(cohortId, MESH_MODEL_VERSION))) return;
      tx.events.record({
        ...systemEvent(cohort.createdBy, cohort.deviceId, null, 'cohort.prepared', cohortObject(cohortId), {
          name: cohort.name,
          size: cohort.size,
          meshModelVersion: MESH_MODEL_VERSION,
        }),
        before: { status: cohort.status },
      });
      await this.onSettled(tx, cohort, 'ready');
    });
    return this.repository.findById(cohortId);
  }

  /** Marks an order failed for good (its job gave up). */
  async failOrder(cohortId: string, reason: string): Promise<CohortRow | null> {
    const cohort = await this.repository.findById(cohortId);
    if (!cohort) return null;
    await this.unitOfWork.run(async (tx) => {
      if (!(await tx.cohorts.markFailed(cohortId, reason))) return;
      tx.events.record({
        ...systemEvent(cohort.createdBy, cohort.deviceId, null, 'cohort.failed', cohortObject(cohortId), {
          name: cohort.name,
          error: reason,
        }),
        before: { status: cohort.status },
      });
      await this.onSettled(tx, cohort, 'failed');
    });
    return this.repository.findById(cohortId);
  }

  private async grant(userId: string, deviceId: string): Promise<WorkspaceGrant | null> {
    return callerGrant(userId, deviceId, (device, user) => this.devices.findMembership(device, user));
  }

  /**
   * For a guest, the cohorts attached to projects they are on (`cohortId`: only that one is looked up); null for
   * everybody else, who reads every cohort of the workspace.
   */
  private async visibleToGuest(
    grant: WorkspaceGrant,
    deviceId: string,
    userId: string,
    cohortId?: string,
  ): Promise<Set<string> | null> {
    return grant.role === 'guest' ? this.repository.onProjectsOf(deviceId, userId, cohortId) : null;
  }

  private visibility(onCallersProjects: Set<string> | null, cohort: CohortRow): CohortVisibility {
    return { onCallersProject: onCallersProjects?.has(cohort.id) ?? false };
  }

  private async readableCohort(userId: string, deviceId: string, cohortId: string): Promise<CohortListRow> {
    const grant = await this.grant(userId, deviceId);
    // Membership first (403 for outsiders), then the cohort (404 when it is not this workspace's).
    if (!mayListCohorts(grant)) authorizeCohort('cohort.read', grant);
    const row = await this.repository.find(deviceId, cohortId);
    if (!row) throw notFound();
    authorizeCohort(
      'cohort.read',
      grant,
      this.visibility(await this.visibleToGuest(grant, deviceId, userId, cohortId), row.cohort),
    );
    return row;
  }

  /** The stored patients of a ready cohort, in cohort order (never regenerated). */
  private async patientsOf(cohort: CohortRow): Promise<SyntheticPatient[]> {
    assertReady(cohort);
    const stored = await this.repository.patients(cohort.id);
    return stored.map((entry) => storedPatient(cohort, entry));
  }

  private async cohortPatient(userId: string, deviceId: string, cohortId: string, patientId: string) {
    const { cohort } = await this.readableCohort(userId, deviceId, cohortId);
    assertReady(cohort);
    const stored = await this.repository.patient(cohort.id, patientId);
    if (!stored) throw new ServiceError(404, 'not_found', 'No such patient in this cohort.');
    return { cohort, patient: storedPatient(cohort, stored), region: await this.region(deviceId) };
  }

  private async region(deviceId: string): Promise<DataRegion> {
    const device = await this.devices.findById(deviceId);
    if (!device) throw new ServiceError(404, 'not_found', 'No such device workspace.');
    return device.dataRegion === 'us' ? 'us' : 'eu';
  }
}

/** Patients are read only once the order is ready (409 while in progress or after it failed). */
function assertReady(cohort: CohortRow): void {
  if (cohort.status !== 'ready')
    throw new ServiceError(
      409,
      'cohort_not_ready',
      cohort.status === 'failed'
        ? 'This cohort could not be prepared, so it has no patients.'
        : 'The patients of this cohort are still being prepared. You get a notification when they are ready.',
    );
}

function newPathologies(criteria: CohortCriteria): string[] {
  return Object.entries(criteria.pathology)
    .filter(([, status]) => status === 'new')
    .map(([name]) => name);
}

function toSummary(row: CohortListRow): CohortSummary {
  const { cohort } = row;
  const criteria = cohort.criteria as unknown as CohortCriteria;
  return {
    id: cohort.id,
    deviceId: cohort.deviceId,
    name: cohort.name,
    description: cohort.description,
    size: cohort.size,
    criteria: criteria,
    criteriaSummary: summarizeCriteria(criteria),
    status: cohort.status,
    progress: cohort.status === 'ready' ? 1 : (row.progress ?? 0),
    synthetic: true,
    createdBy: cohort.createdBy ? { id: cohort.createdBy, fullName: row.creatorName ?? '' } : null,
    createdAt: cohort.createdAt.toISOString(),
    readyAt: cohort.readyAt?.toISOString() ?? null,
  };
}
