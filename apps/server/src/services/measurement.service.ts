import type { Landmark, LandmarkName, Organ } from '@insilico/anatomy';
import {
  measurementPlans,
  measurementsDisabledMessage,
  measurementsNotInPlanCode,
  measurementParameter,
  readyOrdersOn,
  type CreateMeasurementOrder,
  type MeasurementCorrection,
  type MeasurementDefinitionBody,
  type MeasurementDefinitionList,
  type MeasurementDefinitionView,
  type MeasurementOrder,
  type MeasurementOrderList,
  type PatientPickSource,
  type SsmPickSource,
} from '@insilico/contracts';
import {
  collinearFailure,
  hasImagesOf,
  SURFACE_PICK_TOLERANCE_MM,
  TAVI_SET_KEY,
  TAVI_SET_VERSION,
  unitOf,
  type MeasurementGeometry,
  type MeasurementPhase,
  type LandmarkCorrections,
  type MeasurementOutcome,
  type SurfaceAnchor,
} from '@insilico/measure';
import { measurementTask, surfacePickTask, type PickAnatomy, type PlanePoint } from '../cpu/measurement.task';
import type { CpuRunner } from '../cpu/pool';
import { measurementOrderJob, type MeasurementOrderData } from '../jobs/measurement-order.job';
import type { MeasurementAction } from '../policies/measurement.policy';
import { type WorkspaceGrant } from '../policies/workspace.policy';
import type { CohortRepository } from '../repositories/cohort.repository';
import type { DeviceRepository } from '../repositories/device.repository';
import type {
  MeasurementCellWrite,
  MeasurementOrderListRow,
  MeasurementOrderRow,
  MeasurementRepository,
  NewMeasurementOrder,
  OrderedMeasurementRecord,
} from '../repositories/measurement.repository';
import type { Transaction, UnitOfWork } from '../repositories/unit-of-work';
import { resultsOf, type ResultKeeper } from './result-snapshots';
import { measurementResults } from './result-snapshot-contents';
import { authorizeMeasurement } from './authorize';
import { measurementCsv } from './measurement-csv';
import {
  checkAnatomyName,
  checkedGeometry,
  checkThreePointPlanes,
  mapPoints,
  surfacePointsOf,
  threePointPlanesOf,
} from './measurement-geometry';
import {
  BUILT_IN,
  builtInView,
  definitionOfRecord,
  definitionOfRow,
  recordOf,
  definitionState,
  rowView,
  summaryOf,
} from './measurement.mapper';
import { storedPatient } from './cohort-records';
import { systemEvent, workspaceEvent } from '../events/kinds';
import { ServiceError } from './errors';
import type { SsmService } from './ssm.service';
import { callerGrant } from './caller-grant';

const measurementObject = (id: string) => ({ type: 'measurement', id });
/** Patients measured per CPU task: progress and results are written after each batch. */
const BATCH = 10;

const orderNotFound = () => new ServiceError(404, 'not_found', 'No such measurement order in this device workspace.');

/** What the job reports back through progress. */
export interface MeasurementWork {
  progress(fraction: number, message?: string): Promise<void>;
  signal: AbortSignal;
}

/** The result of the job's work: enough for the notification. */
export interface PerformedOrder {
  id: string;
  deviceId: string;
  cohortName: string;
  measurements: number;
  patients: number;
  /** How the order stands after the job: a job finding it failed already leaves it failed. */
  status: 'ready' | 'failed';
}

/**
 * Anatomical measurements (issue 23): definitions (built-in and the workspace's, versioned), orders on a ready
 * cohort measured by a durable job in the CPU pool, results per patient × measurement with failure reasons, hand
 * corrections of landmarks (automatic values kept), CSV.
 */
export class MeasurementService {
  constructor(
    private readonly repository: MeasurementRepository,
    private readonly cohorts: CohortRepository,
    private readonly devices: DeviceRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly cpu: CpuRunner,
    /** Keeps the results when ready and after each hand correction, named by the event (issue 20 item 7). */
    private readonly results: ResultKeeper | null = null,
    /** Shapes of the workspace's SSMs, to pick surface points on (issue 23); none: points on patients only. */
    private readonly shapes: Pick<SsmService, 'pickAnatomy' | 'orderableShapes' | 'measureShapes'> | null = null,
  ) {}

  async definitions(userId: string, deviceId: string): Promise<MeasurementDefinitionList> {
    await this.allow('measurement.read', userId, deviceId);
    const own = await this.repository.latestDefinitions(deviceId);
    return {
      builtInSets: [
        {
          key: TAVI_SET_KEY,
          version: TAVI_SET_VERSION,
          name: 'TAVI planning (SCCT consensus)',
          definitionIds: BUILT_IN.map((b) => b.id),
        },
      ],
      items: [...BUILT_IN.map(builtInView), ...own.map(rowView)],
    };
  }

  async createDefinition(
    userId: string,
    deviceId: string,
    body: MeasurementDefinitionBody,
  ): Promise<MeasurementDefinitionView> {
    await this.allow('measurement.define', userId, deviceId);
    const geometry = await this.anchoredGeometry(userId, deviceId, body);
    const id = crypto.randomUUID();
    const row = await this.unitOfWork.run(async (tx) => {
      const inserted = await tx.measurements.insertDefinition({
        id,
        deviceId,
        lineageId: id,
        version: 1,
        ...versionValues(body, geometry, userId),
      });
      if (inserted)
        tx.events.record({
          ...workspaceEvent(userId, deviceId, 'measurement.defined', { type: 'measurement_definition', id }),
          after: definitionState(inserted),
        });
      return inserted;
    });
    if (!row) throw new ServiceError(409, 'conflict', 'The measurement could not be saved. Please try again.');
    return rowView(row);
  }

  /** A change makes the next version of the definition; orders measured with older versions keep theirs. */
  async reviseDefinition(
    userId: string,
    deviceId: string,
    lineageId: string,
    body: MeasurementDefinitionBody,
  ): Promise<MeasurementDefinitionView> {
    await this.allow('measurement.define', userId, deviceId);
    const latest = await this.repository.latestOfLineage(deviceId, lineageId);
    if (!latest) throw new ServiceError(404, 'not_found', 'No such measurement in this device workspace.');
    const geometry = await this.anchoredGeometry(userId, deviceId, body);
    const row = await this.unitOfWork.run(async (tx) => {
      const inserted = await tx.measurements.insertDefinition({
        deviceId,
        lineageId,
        version: latest.version + 1,
        ...versionValues(body, geometry, userId),
      });
      if (inserted)
        tx.events.record({
          ...workspaceEvent(userId, deviceId, 'measurement.revised', {
            type: 'measurement_definition',
            id: lineageId,
          }),
          before: definitionState(latest),
          after: definitionState(inserted),
        });
      return inserted;
    });
    if (!row)
      throw new ServiceError(
        409,
        'definition_changed',
        'Someone changed this measurement at the same time. Reload it and make your change again.',
      );
    return rowView(row);
  }

  async order(
    userId: string,
    deviceId: string,
    cohortId: string,
    body: CreateMeasurementOrder,
  ): Promise<MeasurementOrder> {
    await this.allow('measurement.order', userId, deviceId);
    const found = await this.cohorts.find(deviceId, cohortId);
    if (!found) throw new ServiceError(404, 'not_found', 'No such patient cohort in this device workspace.');
    if (found.cohort.status !== 'ready')
      throw new ServiceError(409, 'cohort_not_ready', 'Measurements can be ordered once the cohort is ready.');
    return this.queueOrder(userId, deviceId, body, { cohortId }, { cohortId });
  }

  /**
   * Measurements on a shape model's shapes (issue 23): its mean and named instances, frozen into the order, measured
   * by the same durable job as a cohort's patients. The model must be one of the project's, ready, readable by the
   * user, with the aortic root and landmarks that follow its modes (4xx in words otherwise, nothing queued).
   */
  async orderOnShapes(
    userId: string,
    deviceId: string,
    projectId: string,
    ssmId: string,
    body: CreateMeasurementOrder,
  ): Promise<MeasurementOrder> {
    // Who may order measurements (admins, members) reads every project of the workspace (project.policy.ts), so an
    // order on an SSM's shapes is listed and read like a cohort's.
    await this.allow('measurement.order', userId, deviceId);
    if (!this.shapes) throw new ServiceError(404, 'not_found', 'No such statistical shape model in this project.');
    const { shapes } = await this.shapes.orderableShapes(userId, deviceId, projectId, ssmId);
    return this.queueOrder(userId, deviceId, body, { ssmId, shapes }, { ssmId, projectId, shapes });
  }

  /**
   * Freezes the ordered measurements into a new order on `subject` (a cohort, or an SSM's shapes) and queues the one
   * measuring job with it, in one transaction with the order's event (`recorded`: what the event says it is on).
   */
  private async queueOrder(
    userId: string,
    deviceId: string,
    body: CreateMeasurementOrder,
    subject: Pick<NewMeasurementOrder, 'cohortId' | 'ssmId' | 'shapes'>,
    recorded: Record<string, unknown>,
  ): Promise<MeasurementOrder> {
    const measurements = await this.orderedMeasurements(deviceId, body);
    const id = crypto.randomUUID();
    await this.unitOfWork.run(async (tx) => {
      await tx.measurements.insertOrder({ id, deviceId, ...subject, measurements, createdBy: userId });
      const data: MeasurementOrderData = { orderId: id, userId };
      const run = await tx.jobs.enqueue(measurementOrderJob, data, userId);
      await tx.measurements.setJob(id, run.id);
      tx.events.record({
        ...workspaceEvent(userId, deviceId, 'measurement.ordered', { type: 'measurement', id }),
        after: {
          ...recorded,
          measurements: measurements.map((m) => ({ definitionId: m.definitionId, version: m.version, name: m.name })),
        },
      });
    });
    return this.get(userId, deviceId, id);
  }

  /** The definitions an order names, frozen as measured (400 for an id the workspace does not have). */
  private async orderedMeasurements(deviceId: string, body: CreateMeasurementOrder) {
    const own = await this.repository.definitionsByIds(
      deviceId,
      body.definitionIds.filter((id) => UUID.test(id)),
    );
    return body.definitionIds.map((id): OrderedMeasurementRecord => {
      const builtIn = BUILT_IN.find((b) => b.id === id);
      if (builtIn) return recordOf(builtIn.id, TAVI_SET_VERSION, builtIn.definition);
      const row = own.find((r) => r.id === id);
      if (!row) throw new ServiceError(400, 'invalid', `There is no measurement ${id} in this device workspace.`);
      return recordOf(row.id, row.version, definitionOfRow(row));
    });
  }

  async list(userId: string, deviceId: string): Promise<MeasurementOrderList> {
    await this.allow('measurement.read', userId, deviceId);
    const rows = await this.repository.listOrders(deviceId);
    return { items: rows.map((row) => summaryOf(row)) };
  }

  async get(userId: string, deviceId: string, orderId: string): Promise<MeasurementOrder> {
    await this.allow('measurement.read', userId, deviceId);
    const row = await this.repository.findOrder(deviceId, orderId);
    if (!row) throw orderNotFound();
    return { ...summaryOf(row), patients: row.order.status === 'ready' ? await this.table(row) : [] };
  }

  /**
   * The parameters the ready orders on a cohort give the workspace's population analyses (issue 23 item 3):
   * `measurement.<orderId>.<index>`. None where the workspace's plan lacks measurements. The caller (the analysis
   * service) has checked the user's access to the project.
   */
  async analysisParameters(deviceId: string, cohortId: string): Promise<ReadonlySet<string>> {
    const device = await this.devices.findById(deviceId);
    if (!device || !measurementPlans.some((plan) => plan === device.plan)) return new Set();
    const orders = await this.repository.listOrders(deviceId);
    return new Set(
      orders
        .filter(({ order }) => order.cohortId === cohortId && order.status === 'ready')
        .flatMap(({ order }) => order.measurements.map((_, i) => measurementParameter(order.id, i))),
    );
  }

  /**
   * The ready orders on a cohort with their results, oldest first, as the population analysis reads them (its
   * report, issue 23): none where the workspace's plan lacks measurements or the user may not read them.
   */
  async readyOrdersFor(userId: string, deviceId: string, cohortId: string): Promise<MeasurementOrder[]> {
    try {
      const ready = readyOrdersOn(await this.list(userId, deviceId), cohortId);
      return await Promise.all(ready.map((order) => this.get(userId, deviceId, order.id)));
    } catch (error) {
      if (error instanceof ServiceError && error.status === 403) return [];
      throw error;
    }
  }

  /** The results as CSV, units in the headers; a file name saying what and when. */
  async csv(userId: string, deviceId: string, orderId: string): Promise<{ fileName: string; text: string }> {
    const order = await this.get(userId, deviceId, orderId);
    if (order.status !== 'ready')
      throw new ServiceError(409, 'order_not_ready', 'The measurements are still being taken.');
    const base = order.cohortName.replace(/[^\p{L}\p{N}_-]+/gu, '-').replace(/^-+|-+$/g, '') || 'cohort';
    return {
      fileName: `${base}-measurements-${new Date().toISOString().slice(0, 10)}.csv`,
      text: measurementCsv(order),
    };
  }

  /**
   * A hand correction of one patient's landmarks at one phase: the patient's measurements at that phase are
   * taken again with them (CPU pool); the corrected values are stored beside the automatic ones with who and when.
   */
  async correct(
    userId: string,
    deviceId: string,
    orderId: string,
    patientId: string,
    body: MeasurementCorrection,
  ): Promise<MeasurementOrder> {
    await this.allow('measurement.correct', userId, deviceId);
    const row = await this.repository.findOrder(deviceId, orderId);
    if (!row) throw orderNotFound();
    if (row.order.status !== 'ready')
      throw new ServiceError(409, 'order_not_ready', 'The measurements are still being taken.');
    if (row.order.cohortId === null)
      throw new ServiceError(
        409,
        'shape_not_correctable',
        'The shapes of a shape model are measured on the model’s own landmarks; corrections are made on a cohort’s patients.',
      );
    for (const name of Object.keys(body.landmarks)) checkAnatomyName('landmark', name);
    const cohort = await this.cohorts.findById(row.order.cohortId);
    const stored = cohort ? await this.cohorts.patient(cohort.id, patientId) : null;
    if (!cohort || !stored) throw new ServiceError(404, 'not_found', 'No such patient in this cohort.');
    const indexes = row.order.measurements.flatMap((m, i) => (m.phase === body.phase ? [i] : []));
    if (indexes.length === 0)
      throw new ServiceError(400, 'invalid', `No measurement of this order is taken at ${body.phase}.`);
    const definitions = indexes.map((i) => definitionOfRecord(row.order.measurements[i] as OrderedMeasurementRecord));
    const patient = storedPatient(cohort, stored);
    const corrections = { [patient.id]: { [body.phase]: body.landmarks as LandmarkCorrections } };
    const [outcomes] = await this.cpu.run(measurementTask, { patients: [patient], definitions, corrections });
    const cells = indexes.map((measurement, k) => cellOf(stored.patientIndex, measurement, outcomes?.[k]));
    await this.unitOfWork.run(async (tx) => {
      await tx.measurements.saveCorrection(orderId, stored.patientIndex, body.phase, body.landmarks, userId, cells);
      const snapshot = await this.keepResults(tx, row.order, row.cohortName);
      tx.events.record({
        actorId: userId,
        action: 'measurement.corrected',
        objectType: 'measurement',
        objectId: orderId,
        deviceId,
        projectId: null,
        after: { patientId, phase: body.phase, landmarks: body.landmarks, cells, ...resultsOf(snapshot) },
        reason: body.reason,
      });
    });
    return this.get(userId, deviceId, orderId);
  }

  /**
   * The job's work, idempotent: measures the patients (or an SSM's shapes) without results yet, then marks the
   * order ready.
   */
  async performOrder(orderId: string, work: MeasurementWork): Promise<PerformedOrder | null> {
    const found = await this.repository.findOrderWithNames(orderId);
    if (!found) return null;
    const { order, cohortName } = found;
    const cohort = order.cohortId === null ? null : await this.cohorts.findById(order.cohortId);
    if (order.cohortId !== null && !cohort) return null;
    const stored = cohort ? await this.cohorts.patients(cohort.id) : [];
    const subjects = cohort ? stored : shapeRows(order);
    const result = (status: PerformedOrder['status']): PerformedOrder => ({
      id: order.id,
      deviceId: order.deviceId,
      cohortName,
      measurements: order.measurements.length,
      patients: subjects.length,
      status,
    });
    // Settled stays settled: a retried or stale job measures nothing more (docs/decisions/ssm-chained-cohorts.md).
    if (order.status !== 'in_progress') return result(order.status === 'ready' ? 'ready' : 'failed');
    const done = await this.repository.measuredPatients(orderId, order.measurements.length);
    const todo = subjects.filter((p) => !done.has(p.patientIndex)).map((p) => p.patientIndex);
    const definitions = order.measurements.map(definitionOfRecord);
    const measure = async (indexes: number[]): Promise<MeasurementOutcome[][]> => {
      if (cohort) {
        const patients = indexes.map((i) =>
          storedPatient(
            cohort,
            stored.find((p) => p.patientIndex === i)!,
          ),
        );
        return this.cpu.run(measurementTask, { patients, definitions }, { signal: work.signal });
      }
      if (!this.shapes || order.ssmId === null || found.ssmProjectId === null)
        throw new Error('An order on shape model shapes needs the shape models.');
      const labels = indexes.map((i) => (order.shapes ?? [])[i]?.label ?? 'mean');
      return this.shapes.measureShapes(found.ssmProjectId, order.ssmId, labels, definitions, work.signal);
    };
    const word = cohort ? 'patients' : 'shapes';
    for (let start = 0; start < todo.length; start += BATCH) {
      const batch = todo.slice(start, start + BATCH);
      const outcomes = await measure(batch);
      const cells = batch.flatMap((patientIndex, p) =>
        definitions.map((_, m) => cellOf(patientIndex, m, outcomes[p]?.[m])),
      );
      await this.repository.writeAutomatic(orderId, cells);
      const measured = done.size + start + batch.length;
      await work.progress(measured / subjects.length, `Measured ${measured} of ${subjects.length} ${word}`);
    }
    const performed = result('ready');
    // Ready and its event (the system, for the orderer, who hears of it from the event) commit together.
    await this.unitOfWork.run(async (tx) => {
      if (!(await tx.measurements.markReady(orderId))) return;
      const snapshot = await this.keepResults(tx, order, cohortName);
      tx.events.record({
        ...systemEvent(order.createdBy, order.deviceId, null, 'measurement.measured', measurementObject(orderId), {
          cohortName,
          measurements: performed.measurements,
          patients: performed.patients,
          ...resultsOf(snapshot),
        }),
        before: { status: order.status },
      });
    });
    return performed;
  }

  /** Marks an order failed for good (its job gave up). */
  async failOrder(orderId: string, reason: string): Promise<PerformedOrder | null> {
    const found = await this.repository.findOrderWithNames(orderId);
    if (!found) return null;
    const { order, cohortName } = found;
    const cohort = order.cohortId === null ? null : await this.cohorts.findById(order.cohortId);
    await this.unitOfWork.run(async (tx) => {
      if (await tx.measurements.markFailed(orderId, reason))
        tx.events.record({
          ...systemEvent(order.createdBy, order.deviceId, null, 'measurement.failed', measurementObject(orderId), {
            cohortName,
            error: reason,
          }),
          before: { status: order.status },
        });
    });
    return {
      id: order.id,
      deviceId: order.deviceId,
      cohortName,
      measurements: order.measurements.length,
      patients: cohort ? cohort.size : shapeRows(order).length,
      status: 'failed',
    };
  }

  /**
   * A ready order's results as they stand now (for the backfill of work finished before migration 0027,
   * services/result-backfill.ts), or null when it is not a ready order of an existing cohort or shape model.
   */
  async currentResults(orderId: string): Promise<Record<string, unknown> | null> {
    const found = await this.repository.findOrderWithNames(orderId);
    if (found?.order.status !== 'ready') return null;
    return measurementResults(found.order, found.cohortName, await this.table(found));
  }

  /** The order's results as they stand, kept as a snapshot its event names (issue 20 item 7); null without a keeper. */
  private async keepResults(tx: Transaction, order: MeasurementOrderRow, cohortName: string) {
    if (!this.results) return null;
    const patients = await this.table({ order }, { cohorts: tx.cohorts, repository: tx.measurements });
    const subject = {
      objectType: 'measurement',
      objectId: order.id,
      deviceId: order.deviceId,
      projectId: null,
    } as const;
    return this.results.keep(tx, subject, measurementResults(order, cohortName, patients));
  }

  private async table(
    row: Pick<MeasurementOrderListRow, 'order'>,
    on: {
      cohorts: Pick<CohortRepository, 'patients'>;
      repository: Pick<MeasurementRepository, 'results' | 'corrections'>;
    } = { cohorts: this.cohorts, repository: this.repository },
  ): Promise<MeasurementOrder['patients']> {
    const { cohortId } = row.order;
    const [stored, results, corrections] = await Promise.all([
      cohortId === null ? shapeRows(row.order) : on.cohorts.patients(cohortId),
      on.repository.results(row.order.id),
      on.repository.corrections(row.order.id),
    ]);
    const n = row.order.measurements.length;
    const byPatient = new Map<number, MeasurementOrder['patients'][number]['cells']>();
    for (const r of results) {
      let cells = byPatient.get(r.patientIndex);
      if (!cells) {
        cells = Array.from({ length: n }, () => ({ automatic: null, failure: null, corrected: null, value: null }));
        byPatient.set(r.patientIndex, cells);
      }
      const corrected = r.correctedValue !== null || r.correctedFailure !== null;
      cells[r.measurement] = {
        automatic: r.automaticValue,
        failure: corrected ? r.correctedFailure : r.failure,
        corrected: r.correctedValue,
        value: corrected ? r.correctedValue : r.automaticValue,
      };
    }
    return stored.map((p) => {
      const mine = corrections.filter((c) => c.patientIndex === p.patientIndex);
      const last = mine.reduce<(typeof mine)[number] | undefined>(
        (a, c) => (a === undefined || c.correctedAt > a.correctedAt ? c : a),
        undefined,
      );
      return {
        patientId: p.patientId,
        cells: byPatient.get(p.patientIndex) ?? [],
        correction: last
          ? {
              landmarks: [...new Set(mine.flatMap((c) => Object.keys(c.landmarks)))].sort(),
              by: last.correctedBy ? { id: last.correctedBy, fullName: last.correctorName ?? '' } : null,
              at: last.correctedAt.toISOString(),
            }
          : null,
      };
    });
  }

  /**
   * The geometry of a definition with its names checked and each point picked on a surface anchored (400 with the
   * reason otherwise): all of them are picked on one patient of a cohort of the workspace, at the definition's
   * phase, within SURFACE_PICK_TOLERANCE_MM of the organ's surface there; the frame of four landmarks that carries
   * each to other patients is computed here (CPU pool), whatever frame the request sent. Planes through three
   * points are computed on that anatomy too and refused when their points lie within MIN_PLANE_SPREAD_MM of one
   * line there (without picked points: three different points, typed ones not on one line).
   */
  private async anchoredGeometry(
    userId: string,
    deviceId: string,
    body: MeasurementDefinitionBody,
  ): Promise<MeasurementGeometry> {
    const checked = checkedGeometry(body.geometry);
    checkThreePointPlanes(body.geometry);
    const picked = surfacePointsOf(body.geometry);
    const first = picked[0];
    if (first === undefined) return checked;
    const sourceKey = JSON.stringify(first.source);
    if (picked.some((p) => JSON.stringify(p.source) !== sourceKey))
      throw new ServiceError(400, 'invalid', 'Pick every surface point of a measurement on the same patient.');
    const { anatomy, where } =
      'ssmId' in first.source
        ? await this.pickedShape(userId, deviceId, first.source, body.phase)
        : await this.pickedAnatomy(deviceId, first.source, body.phase);
    const planes = threePointPlanesOf(body.geometry).map(
      (three) =>
        three.map((p): PlanePoint => {
          if ('surface' in p) return { picked: picked.indexOf(p.surface) };
          return 'landmark' in p ? { landmark: p.landmark as LandmarkName } : { position: p.position };
        }) as [PlanePoint, PlanePoint, PlanePoint],
    );
    const check = await this.cpu.run(surfacePickTask, {
      anatomy,
      points: picked.map((p) => ({ organ: p.organ as Organ, position: p.position })),
      planes,
    });
    check.anchors.forEach((anchor, i) => {
      const organ = (picked[i] as (typeof picked)[number]).organ.replaceAll('_', ' ');
      if ('failure' in anchor) throw new ServiceError(400, 'invalid', anchor.failure);
      if (!(anchor.offSurface_mm <= SURFACE_PICK_TOLERANCE_MM))
        throw new ServiceError(
          400,
          'invalid',
          `A picked point lies ${anchor.offSurface_mm.toFixed(1)} mm from the ${organ} surface of ${where} ` +
            `(at most ${SURFACE_PICK_TOLERANCE_MM} mm): pick the point on the surface.`,
        );
    });
    for (const spread of check.planes)
      if (spread !== null)
        throw new ServiceError(400, 'invalid', `${collinearFailure(spread, `on ${where}`)} Pick points farther apart.`);
    let next = 0;
    return mapPoints(body.geometry, (p) => {
      if (!('surface' in p)) return p;
      const anchor = check.anchors[next++] as Extract<SurfaceAnchor, { frame: unknown }>;
      const { landmarks, coordinates } = anchor.frame;
      return {
        surface: {
          ...p.surface,
          frame: { landmarks: [...landmarks], coordinates: [...coordinates] },
        },
      };
    }) as MeasurementGeometry;
  }

  /**
   * The anatomy surface points were picked on, checked (400 otherwise): a patient of a cohort of the workspace with
   * images of the definition's phase. `where` names it in messages.
   */
  private async pickedAnatomy(
    deviceId: string,
    source: PatientPickSource,
    phase: MeasurementPhase,
  ): Promise<{ anatomy: PickAnatomy; where: string }> {
    const { cohortId, patientId } = source;
    const found = await this.cohorts.find(deviceId, cohortId);
    if (!found)
      throw new ServiceError(
        400,
        'invalid',
        'The points were picked on a patient of no cohort of this device workspace.',
      );
    const stored = await this.cohorts.patient(found.cohort.id, patientId);
    if (!stored)
      throw new ServiceError(400, 'invalid', `There is no patient ${patientId} in the cohort ${found.cohort.name}.`);
    const patient = storedPatient(found.cohort, stored);
    if (!hasImagesOf(patient, phase))
      throw new ServiceError(
        400,
        'invalid',
        `Patient ${patientId} has no ${phase} images: pick the points on a patient who has them, or change the phase.`,
      );
    return { anatomy: { patient, phase }, where: `patient ${patientId} at ${phase}` };
  }

  /**
   * The shape of an SSM surface points were picked on, checked (400 otherwise): a model of a project of the
   * workspace the user reads (409 while it is built, 422 for a shape it cannot make), built at the definition's
   * phase.
   */
  private async pickedShape(
    userId: string,
    deviceId: string,
    source: SsmPickSource,
    phase: MeasurementPhase,
  ): Promise<{ anatomy: PickAnatomy; where: string }> {
    const noModel = new ServiceError(
      400,
      'invalid',
      'The points were picked on a shape of no statistical shape model of this device workspace.',
    );
    if (!this.shapes) throw noModel;
    const shape = await this.shapes
      .pickAnatomy(userId, deviceId, source.projectId, source.ssmId, source.instance)
      .catch((error: unknown) => {
        throw error instanceof ServiceError && (error.status === 403 || error.status === 404) ? noModel : error;
      });
    if (shape.phase !== phase)
      throw new ServiceError(
        400,
        'invalid',
        `The shape model ${shape.name} is built at ${shape.phase}: pick the points on a model built at ${phase}, or ` +
          'change the phase.',
      );
    const landmarks = shape.landmarks as Landmark[];
    return {
      anatomy: { organs: shape.organs, landmarks },
      where: `the ${shape.shape} of the shape model ${shape.name}`,
    };
  }

  /**
   * The role's right (404 outsiders, 403 members without it), then the workspace's plan: measurements are part of
   * the team and enterprise plans; elsewhere every call answers 403 with the spec's message.
   */
  async allow(action: MeasurementAction, userId: string, deviceId: string): Promise<void> {
    authorizeMeasurement(action, await this.grant(userId, deviceId));
    const device = await this.devices.findById(deviceId);
    if (!device || !measurementPlans.some((plan) => plan === device.plan))
      throw new ServiceError(403, measurementsNotInPlanCode, measurementsDisabledMessage);
  }

  private async grant(userId: string, deviceId: string): Promise<WorkspaceGrant | null> {
    return await callerGrant(userId, deviceId, (device, user) => this.devices.findMembership(device, user));
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The columns of a definition version from the body that states it. */
function versionValues(body: MeasurementDefinitionBody, geometry: MeasurementGeometry, userId: string) {
  return {
    name: body.name,
    description: body.description,
    phase: body.phase,
    unit: unitOf(geometry),
    geometry,
    createdBy: userId,
  };
}

/** An SSM order's shapes as the rows of its table: each named by its name, indexed by its place in the order. */
function shapeRows(order: MeasurementOrderRow): { patientId: string; patientIndex: number }[] {
  return (order.shapes ?? []).map((shape, patientIndex) => ({ patientId: shape.name, patientIndex }));
}

function cellOf(
  patientIndex: number,
  measurement: number,
  outcome: MeasurementOutcome | undefined,
): MeasurementCellWrite {
  if (outcome === undefined)
    return { patientIndex, measurement, value: null, failure: 'The measurement was not taken.' };
  return 'value' in outcome
    ? { patientIndex, measurement, value: outcome.value, failure: null }
    : { patientIndex, measurement, value: null, failure: outcome.failure };
}
