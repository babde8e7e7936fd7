import type { SyntheticPatient } from '@insilico/anatomy';
import {
  defaultSsmName,
  measurementPlans,
  measurementsDisabledMessage,
  measurementsNotInPlanCode,
  normalizeSsmConfiguration,
  pathOf,
  ssmConfigurationSchema,
  ssmDuplicateMessage,
  ssmEndpoints,
  ssmInstancePattern,
  ssmMaxDeviation,
  ssmMinShapes,
  ssmModelCardSchema,
  ssmModeSchema,
  ssmPhaseLabels,
  ssmQualitySchema,
  ssmRebuildCurrentMessage,
  ssmShapeSchema,
  ssmTooFewCode,
  ssmTooFewMessage,
  type CreateSsm,
  type Ssm,
  type SsmConfiguration,
  type SsmList,
} from '@insilico/contracts';
import { toCsv } from '@insilico/contracts/csv';
import { writeBinaryStl, writeGlb, writeVtpPolyData } from '@insilico/mesh';
import type { DeliveredPatient } from '@insilico/scenarios';
import type { MeasurementDefinition, MeasurementOutcome } from '@insilico/measure';
import { decodeShapeModel } from '@insilico/ssm';
import { z } from 'zod';
import { CpuTaskError, type CpuRunner } from '../cpu/pool';
import { landmarksFollowModes, modelShape } from '../cpu/ssm-shape';
import { ssmShapeMeasurementTask } from '../cpu/ssm-measurement.task';
import {
  ssmBuildTask,
  ssmRegisteredBuildTask,
  type SsmBuildOutput,
  type SsmMappedInstance,
  type SsmShapeSource,
} from '../cpu/ssm.task';
import { ssmBuildJob } from '../jobs/ssm-build.job';
import { decideProject } from '../policies/project.policy';
import { holdingLocalFiles, type BlobStore, type DataRegion } from '../repositories/blob.repository';
import type { CohortRepository, CohortRow } from '../repositories/cohort.repository';
import type { DeviceRepository } from '../repositories/device.repository';
import type { ImagingDatasetRow, ImagingRepository } from '../repositories/imaging.repository';
import type { SsmListRow, SsmRepository, SsmRow } from '../repositories/ssm.repository';
import type { Transaction, UnitOfWork } from '../repositories/unit-of-work';
import { resultsOf, type ResultKeeper } from './result-snapshots';
import { ssmResults } from './result-snapshot-contents';
import { storedPatient } from './cohort-records';
import { assertImagingCohortReady, assertRegistrable, imagingShapesOf, type ImagingShape } from './ssm-imaging-shapes';
import {
  modeMeasurementCsv,
  modeMeasurementDefinitions,
  modeMeasurementShapes,
  modeMeasurementTable,
} from './ssm-mode-measurements';
import { projectEvent, systemEvent } from '../events/kinds';
import { ServiceError } from './errors';
import type { ProjectAccessService } from './project-access.service';

const ssmObject = (id: string) => ({ type: 'ssm', id });

/** A configuration checked and ready to be stored: canonical, its duplicate key, its name and number of shapes. */
export interface PreparedSsm {
  configuration: SsmConfiguration;
  configurationKey: string;
  name: string;
  shapeCount: number;
  /** A rebuild: the version it makes and the one it rebuilds (absent: a first version). */
  rebuild?: { version: number; of: string };
}
/** A rebuild's named instances to carry onto the new version: the old rooms, their shapes, the old model file. */
interface CarriedInstances {
  rooms: { roomId: string; name: string; shape: string; scene: Record<string, unknown> }[];
  labels: string[];
  model: Uint8Array | null;
}

/** The cohorts a configuration may name: virtual cohorts and imaging datasets (the project's, or the draft's). */
interface SsmChoices {
  cohorts: readonly CohortRow[];
  imaging: readonly ImagingDatasetRow[];
}

/** A shape of a configuration: a virtual patient, or a patient of one of the project's ready imaging cohorts. */
type ConfiguredShape =
  { source: 'virtual'; patient: SyntheticPatient; cohortId: string } | ({ source: 'imaging' } & ImagingShape);

const idOf = (shape: ConfiguredShape) => (shape.source === 'virtual' ? shape.patient.id : shape.patientId);
const byPatient = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** What the build job reports back through. */
export interface SsmBuildProgress {
  progress(fraction: number, message?: string): Promise<void>;
  signal: AbortSignal;
}

/** Seed of the specificity samples (stored in the model card). */
const SPECIFICITY_SEED = 1;
/** Specificity samples (ShapeWorks' number). */
const SPECIFICITY_SAMPLES = 1000;
/** The quality curves run to this many modes at most. */
const CURVE_MODES = 15;

const notFound = () => new ServiceError(404, 'not_found', 'No such statistical shape model in this project.');
const vec3 = z.tuple([z.number(), z.number(), z.number()]);
const landmarkSchema = z.object({
  name: z.string(),
  position: vec3,
  normal: vec3.optional(),
  axis: vec3.optional(),
  vertex: z.number().int().nonnegative(),
  modes: z.array(z.array(z.number())).optional(),
});
const summarySchema = z.object({
  landmarks: z.array(landmarkSchema),
  modes: z.array(ssmModeSchema),
  quality: ssmQualitySchema,
  shapes: z.array(ssmShapeSchema),
  modelCard: ssmModelCardSchema,
});

/** The file of a model in its workspace's data region. */
export function ssmModelKey(ssmId: string): string {
  return `ssms/${ssmId}.bin`;
}

/**
 * Statistical shape models of a project (issue 18): creation (configuration checked, duplicates and too few
 * patients refused up front, then a durable build job), the list, one model, its model file. `project.read`
 * reads, `project.work` creates (project.policy.ts).
 */
export class SsmService {
  constructor(
    private readonly repository: SsmRepository,
    private readonly cohorts: CohortRepository,
    private readonly devices: DeviceRepository,
    private readonly access: ProjectAccessService,
    private readonly blobs: BlobStore,
    private readonly cpu: CpuRunner,
    private readonly unitOfWork: UnitOfWork,
    /** Keeps a built model's modes and quality metrics as a snapshot named by its event (issue 20 item 7). */
    private readonly results: ResultKeeper | null = null,
    /** The project's imaging datasets (imaging cohorts a model may be built from, by registration). */
    private readonly imaging: Pick<ImagingRepository, 'projectDatasets'> | null = null,
  ) {}

  async list(userId: string, deviceId: string, projectId: string): Promise<SsmList> {
    const grant = await this.access.require('project.read', userId, deviceId, projectId);
    const rows = await this.repository.list(projectId);
    const waiting = await this.waitingFor(rows);
    return {
      items: rows.map((row) => toSsm(row, waiting(row))),
      canEdit: decideProject('project.work', grant.standing).allowed,
    };
  }

  async get(userId: string, deviceId: string, projectId: string, ssmId: string): Promise<Ssm> {
    await this.access.require('project.read', userId, deviceId, projectId);
    const row = await this.repository.find(projectId, ssmId);
    if (!row) throw notFound();
    return toSsm(row, (await this.waitingFor([row]))(row));
  }

  /**
   * What SSMs without a build job wait for (issue 18: chained onto cohorts still being ordered): the cohorts of
   * their configuration not ready yet, read in one query for all the rows.
   */
  private async waitingFor(rows: readonly SsmListRow[]): Promise<(row: SsmListRow) => { id: string; name: string }[]> {
    const waiting = rows.filter(({ ssm }) => ssm.status === 'in_progress' && ssm.jobId === null);
    const ids = new Set(waiting.flatMap(({ ssm }) => ssmConfigurationSchema.parse(ssm.configuration).cohortIds));
    const pending = await this.repository.pendingCohorts([...ids]);
    return ({ ssm }) =>
      ssm.status === 'in_progress' && ssm.jobId === null
        ? pending.filter((cohort) => ssmConfigurationSchema.parse(ssm.configuration).cohortIds.includes(cohort.id))
        : [];
  }

  /**
   * What a configuration may build from on a project: its virtual cohorts and its imaging datasets among the ids
   * (any status: not ready ones are refused by name in {@link shapesOf}).
   */
  private async projectChoices(projectId: string, cohortIds: readonly string[]): Promise<SsmChoices> {
    const cohorts = await this.repository.projectCohorts(projectId, cohortIds);
    const wanted = new Set(cohortIds.map((id) => id.toLowerCase()));
    const imaging = this.imaging
      ? (await this.imaging.projectDatasets(projectId)).filter((row) => wanted.has(row.id))
      : [];
    return { cohorts, imaging };
  }

  async create(userId: string, deviceId: string, projectId: string, input: CreateSsm): Promise<Ssm> {
    await this.access.require('project.work', userId, deviceId, projectId);
    const prepared = await this.prepare(await this.projectChoices(projectId, input.cohortIds), input);
    if (await this.repository.findByConfiguration(projectId, prepared.configurationKey))
      throw new ServiceError(409, 'ssm_exists', ssmDuplicateMessage);
    const id = await this.unitOfWork.run((tx) => this.enqueueBuild(tx, { userId, deviceId, projectId }, prepared));
    return this.get(userId, deviceId, projectId, id);
  }

  /**
   * A ready model built with older build code (before `ssm-2`: its landmarks do not move with its modes) built
   * again from its configuration as its next version, by who may create models (`project.work`). The old version
   * is not touched: its rooms, trials and results keep naming it, and it stays readable (evidence does not move).
   * The configuration is checked again (its cohorts still on the project and ready, its patients at the phase);
   * 409 when the model is current, not ready, or rebuilt already.
   */
  async rebuild(userId: string, deviceId: string, projectId: string, ssmId: string): Promise<Ssm> {
    await this.access.require('project.work', userId, deviceId, projectId);
    const found = await this.repository.find(projectId, ssmId);
    if (!found) throw notFound();
    const { ssm } = found;
    if (found.rebuiltAs)
      throw new ServiceError(
        409,
        'ssm_rebuilt',
        found.rebuiltAs.status === 'failed'
          ? `This shape model was rebuilt as version ${found.rebuiltAs.version}, which failed. Open that version and retry it.`
          : `This shape model was rebuilt already, as version ${found.rebuiltAs.version}. Open that version.`,
        { ssmId: found.rebuiltAs.id },
      );
    assertReady(ssm);
    if (buildIsCurrent(ssm)) throw new ServiceError(409, 'ssm_current', ssmRebuildCurrentMessage);
    const configuration = ssmConfigurationSchema.parse(ssm.configuration);
    const choices = await this.projectChoices(projectId, configuration.cohortIds);
    const prepared = await this.prepare(choices, { ...configuration, name: ssm.name });
    const id = await this.unitOfWork.run((tx) =>
      this.enqueueBuild(
        tx,
        { userId, deviceId, projectId },
        {
          ...prepared,
          configurationKey: ssm.configurationKey,
          rebuild: { version: ssm.version + 1, of: ssm.id },
        },
      ),
    );
    return this.get(userId, deviceId, projectId, id);
  }

  /**
   * SSMs for a project not yet created (the wizard's draft, issue 18): each checked as on a project's page, its
   * cohorts among `cohortIds` (the project's to be) of the workspace; the same configuration twice refused. A cohort
   * still being ordered may be chosen (its patients are drawn when it is ordered): the SSM then waits for it.
   */
  async prepareForNewProject(
    deviceId: string,
    cohortIds: readonly string[],
    inputs: readonly CreateSsm[],
  ): Promise<PreparedSsm[]> {
    const allowed = new Set(cohortIds.map((id) => id.toLowerCase()));
    const wanted = [...new Set(inputs.flatMap((input) => input.cohortIds.map((id) => id.toLowerCase())))];
    const rows = await this.repository.workspaceCohorts(
      deviceId,
      wanted.filter((id) => allowed.has(id)),
    );
    const prepared: PreparedSsm[] = [];
    for (const input of inputs) {
      // A project not yet created has no imaging datasets (they are uploaded to a project).
      const next = await this.prepare({ cohorts: rows, imaging: [] }, input, { waitForCohorts: true });
      if (prepared.some((other) => other.configurationKey === next.configurationKey))
        throw new ServiceError(409, 'ssm_exists', ssmDuplicateMessage);
      prepared.push(next);
    }
    return prepared;
  }

  /**
   * Inserts a prepared SSM of the project and queues its build, in the caller's transaction (the project's own
   * when the wizard creates it): the row, the job and the `ssm.build_started` event commit or roll back together.
   */
  async enqueueBuild(
    tx: Transaction,
    on: { userId: string; deviceId: string; projectId: string },
    prepared: PreparedSsm,
  ): Promise<string> {
    const { userId, deviceId, projectId } = on;
    const { configuration, configurationKey, name, shapeCount, rebuild } = prepared;
    const row = await tx.ssms.insert({
      deviceId,
      projectId,
      name,
      configuration,
      configurationKey,
      shapeCount,
      createdBy: userId,
      ...(rebuild ? { version: rebuild.version, rebuiltFrom: rebuild.of } : {}),
    });
    // Another request stored the same configuration (or rebuilt the same version) between the check and the insert.
    if (!row)
      throw rebuild
        ? new ServiceError(409, 'ssm_rebuilt', 'This shape model is being rebuilt already.')
        : new ServiceError(409, 'ssm_exists', ssmDuplicateMessage);
    const pending = await this.queueBuild(tx, row.id, userId, configuration.cohortIds);
    tx.events.record({
      ...projectEvent(userId, deviceId, projectId, 'ssm.build_started', { type: 'ssm', id: row.id }),
      after: {
        name,
        configuration,
        shapeCount,
        ...(rebuild ? { version: rebuild.version, rebuiltFrom: rebuild.of } : {}),
        ...(pending.length > 0 ? { waitingForCohorts: pending } : {}),
      },
    });
    return row.id;
  }

  /**
   * Queues the build job of a model in progress, in the caller's transaction; answers the cohorts it waits for
   * instead (chained onto cohorts still being ordered: no job yet, the last of them to be ready queues it). 422
   * when one of its cohorts failed.
   */
  private async queueBuild(
    tx: Transaction,
    ssmId: string,
    userId: string,
    cohortIds: readonly string[],
  ): Promise<{ id: string; name: string }[]> {
    // Read locked: a cohort cannot become ready (or fail) unseen between this read and the commit (cohortSettled).
    const cohorts = await tx.ssms.cohortStates(cohortIds, true);
    const failed = cohorts.find((cohort) => cohort.status === 'failed');
    if (failed) throw new ServiceError(422, 'cohort_failed', cohortFailedMessage(failed.name));
    const pending = cohorts.filter((cohort) => cohort.status !== 'ready');
    if (pending.length === 0) {
      const run = await tx.jobs.enqueue(ssmBuildJob, { ssmId, userId }, userId);
      await tx.ssms.setJob(ssmId, run.id);
    }
    return pending.map(({ id, name }) => ({ id, name }));
  }

  /**
   * A model whose build (or rebuild) failed, built again as itself (same id, version and configuration) by who may
   * create models (`project.work`): a failed model holds no evidence (no file, rooms, trials nor results), so its
   * slot is reused rather than a new version made (docs/decisions/ssm-versions.md). The configuration is checked
   * again as at creation (its cohorts still on the project and ready, its patients at the phase, at least ten): a
   * 4xx changes nothing. 409 `ssm_not_failed` for a model that is not failed (a concurrent retry included).
   */
  async retry(userId: string, deviceId: string, projectId: string, ssmId: string): Promise<Ssm> {
    await this.access.require('project.work', userId, deviceId, projectId);
    const found = await this.repository.find(projectId, ssmId);
    if (!found) throw notFound();
    if (found.ssm.status !== 'failed') throw notFailed();
    const configuration = ssmConfigurationSchema.parse(found.ssm.configuration);
    const choices = await this.projectChoices(projectId, configuration.cohortIds);
    const prepared = await this.prepare(choices, { ...configuration, name: found.ssm.name });
    await this.unitOfWork.run(async (tx) => {
      const before = await tx.ssms.reopen(ssmId, prepared.shapeCount);
      if (!before) throw notFailed();
      const pending = await this.queueBuild(tx, ssmId, userId, configuration.cohortIds);
      tx.events.record({
        ...projectEvent(userId, deviceId, projectId, 'ssm.build_retried', ssmObject(ssmId)),
        before: { status: before.status, error: before.error },
        after: {
          name: before.name,
          shapeCount: prepared.shapeCount,
          version: before.version,
          ...(before.rebuiltFrom ? { rebuiltFrom: before.rebuiltFrom } : {}),
          ...(pending.length > 0 ? { waitingForCohorts: pending } : {}),
        },
      });
    });
    return this.get(userId, deviceId, projectId, ssmId);
  }

  /**
   * A cohort's order ended (ready or failed), in the transaction that marks it (CohortService): each SSM waiting
   * for it gets its build job once all its cohorts are ready (`ssm.build_queued`), or fails with the cohort's name
   * when the cohort failed (`ssm.failed`: its creator is told).
   */
  async cohortSettled(
    tx: Transaction,
    cohort: { id: string; name: string },
    status: 'ready' | 'failed',
  ): Promise<void> {
    for (const row of await tx.ssms.waitingOn(cohort.id)) {
      if (status === 'failed') {
        await this.recordFailure(tx, row.id, chainedCohortFailedMessage(cohort.name));
        continue;
      }
      const configuration = ssmConfigurationSchema.parse(row.configuration);
      const states = await tx.ssms.cohortStates(configuration.cohortIds, false);
      if (states.some((state) => state.status !== 'ready')) continue;
      if (!row.createdBy) {
        await this.recordFailure(
          tx,
          row.id,
          'The person who configured this shape model has left the workspace. Create it again.',
        );
        continue;
      }
      const run = await tx.jobs.enqueue(ssmBuildJob, { ssmId: row.id, userId: row.createdBy }, row.createdBy);
      await tx.ssms.setJob(row.id, run.id);
      tx.events.record(
        systemEvent(row.createdBy, row.deviceId, row.projectId, 'ssm.build_queued', ssmObject(row.id), {
          name: row.name,
          cohorts: states.map(({ id, name }) => ({ id, name })),
        }),
      );
    }
  }

  /**
   * A configuration checked against the cohorts it may use: canonical, its key, its patients counted, named.
   * `waitForCohorts`: cohorts still being ordered count with the patients drawn for them (the wizard's chaining).
   */
  private async prepare(
    choices: SsmChoices,
    input: CreateSsm,
    options: { waitForCohorts: boolean } = { waitForCohorts: false },
  ): Promise<PreparedSsm> {
    const configuration = normalizeSsmConfiguration(input);
    const shapes = await this.shapesOf(choices, configuration, options.waitForCohorts);
    return {
      configuration,
      configurationKey: JSON.stringify(configuration),
      name: input.name?.trim() || defaultSsmName(configuration, shapes.length),
      shapeCount: shapes.length,
    };
  }

  /** The model file (encodeShapeModel of @insilico/ssm) of a ready SSM. */
  async modelFile(userId: string, deviceId: string, projectId: string, ssmId: string): Promise<Buffer> {
    await this.access.require('project.read', userId, deviceId, projectId);
    return this.storedModel(projectId, ssmId);
  }

  /** An SSM of the project as the API answers it, for callers that have checked access already; null when none. */
  async describe(projectId: string, ssmId: string): Promise<Ssm | null> {
    const row = await this.repository.find(projectId, ssmId);
    return row ? toSsm(row, (await this.waitingFor([row]))(row)) : null;
  }

  /** The model file of a ready SSM of the project, for callers that have checked access already. */
  private async storedModel(projectId: string, ssmId: string): Promise<Buffer> {
    const row = await this.repository.find(projectId, ssmId);
    if (!row) throw notFound();
    assertReady(row.ssm);
    const bytes = await this.blobs.get(await this.region(row.ssm.deviceId), ssmModelKey(ssmId));
    if (!bytes) throw new ServiceError(404, 'not_found', 'The file of this shape model is missing.');
    return bytes;
  }

  /**
   * A shape of the model as the patient of a simulation (a room on the SSM, issue 18): its aortic root surface and
   * landmarks (mm, the model's frame), built into a case the way a patient of the user's own imaging is (the
   * scenarios' delivered path measures the region on the surface). The caller has authorised the room. 409 for a
   * model without the aortic root (the simulated region).
   */
  async scenarioPatient(projectId: string, ssmId: string, label: string): Promise<DeliveredPatient> {
    const shape = await this.shapeOf(projectId, ssmId, label);
    const part = shape.summary.modelCard.parts.find((p) => p.organ === 'aortic_root');
    if (!part)
      throw new ServiceError(
        409,
        'no_anatomy',
        `The SSM ${shape.name} has no aortic root: simulations are built on the aortic root. Build an SSM that includes it.`,
      );
    const positions = shape.positions.slice(3 * part.firstVertex, 3 * (part.firstVertex + part.vertices));
    const indices = shape.indices
      .slice(3 * part.firstTriangle, 3 * (part.firstTriangle + part.triangles))
      .map((v) => v - part.firstVertex);
    return {
      source: 'ssm',
      id: shape.name,
      phase: ssmShapeLabel(label),
      aorticRoot: { positions, indices },
      landmarks: shape.landmarks.map(({ name, position }) => ({ name, position })),
      strokeVolume_mL: null,
    };
  }

  /**
   * A shape of the model as a GLB of its organs (metres, as patients' meshes are), with the landmarks: `mean`, or
   * standard deviations per mode in order (`2,0,-1.5`: mode 1 at +2 SD, mode 3 at −1.5 SD), each within ±3 SD.
   */
  async instanceGlb(
    userId: string,
    deviceId: string,
    projectId: string,
    ssmId: string,
    label: string,
  ): Promise<Uint8Array> {
    const shape = await this.instance(userId, deviceId, projectId, ssmId, label);
    const meshes = shape.organs.map(({ organ, mesh }) => ({ name: organ, mesh }));
    return writeGlb(meshes, {
      unitScale: 0.001,
      extras: { ssmId, instance: label, frame: ssmFrame, landmarkUnit: 'mm', landmarks: shape.landmarks },
    });
  }

  /** The landmarks of a shape of the model (mm; they follow the modes: modelShape in cpu/ssm-shape.ts). */
  async instanceLandmarks(userId: string, deviceId: string, projectId: string, ssmId: string, label: string) {
    const shape = await this.instance(userId, deviceId, projectId, ssmId, label);
    return { patientId: shape.name, phase: label, unit: 'mm' as const, frame: ssmFrame, landmarks: shape.landmarks };
  }

  /**
   * A shape of the model as an anatomy to pick measurement points on (issue 23): its organs (mm, the model's frame)
   * and landmarks, the phase the model is built at, and its words for messages. `project.read` is checked; 404 for
   * a model of no project of the workspace, 409 while it is built, 422 for a shape it cannot make.
   */
  async pickAnatomy(userId: string, deviceId: string, projectId: string, ssmId: string, label: string) {
    const shape = await this.instance(userId, deviceId, projectId, ssmId, label);
    const { phase } = shape.summary.modelCard;
    const { organs } = shape;
    const landmarks = shape.landmarks.map(({ name, position, normal }) =>
      normal === undefined ? { name, position } : { name, position, normal },
    );
    const words = label === 'mean' ? 'mean shape' : `shape at ${ssmShapeLabel(label)}`;
    return { name: shape.name, shape: words, phase, organs, landmarks };
  }

  /**
   * How the TAVI set changes along the model's first modes, −3 SD to +3 SD (issue 18 item 8), measured in the CPU
   * pool with the landmarks following each shape. `project.read`; 403 with the spec's message where the workspace's
   * plan lacks measurements; 409 while it is built, for a model without the aortic root or built before its
   * landmarks followed the modes.
   */
  async modeMeasurements(userId: string, deviceId: string, projectId: string, ssmId: string) {
    await this.access.require('project.read', userId, deviceId, projectId);
    await this.requireMeasurementPlan(deviceId);
    const model = await this.measurableModel(projectId, ssmId);
    const outcomes = await this.cpu.run(ssmShapeMeasurementTask, {
      model: model.bytes,
      parts: model.parts,
      landmarks: model.landmarks,
      phase: model.phase,
      shapes: modeMeasurementShapes(model.modeCount),
      definitions: modeMeasurementDefinitions(model.phase),
    });
    return { name: model.name, table: modeMeasurementTable(model.phase, model.explained, outcomes) };
  }

  /** {@link modeMeasurements} as CSV, named after the SSM. */
  async modeMeasurementsCsv(userId: string, deviceId: string, projectId: string, ssmId: string) {
    const { name, table } = await this.modeMeasurements(userId, deviceId, projectId, ssmId);
    return { fileName: `${fileStem(name)}-mode-measurements.csv`, text: modeMeasurementCsv(table) };
  }

  /**
   * A ready model as its shapes are measured (its mode measurements, measurement orders on its shapes), for
   * callers that have checked access: the model file, the organs' ranges, the landmarks with their modes. 409 for
   * a model without the aortic root (the measurements' organ) or built before its landmarks followed the modes.
   */
  async measurableModel(projectId: string, ssmId: string) {
    const bytes = await this.storedModel(projectId, ssmId);
    const row = (await this.repository.find(projectId, ssmId)) as SsmListRow;
    const summary = summarySchema.parse(row.ssm.summary);
    const { name } = row.ssm;
    if (!summary.modelCard.parts.some((part) => part.organ === 'aortic_root'))
      throw new ServiceError(
        409,
        'no_anatomy',
        `The SSM ${name} has no aortic root: the measurements are taken on the aortic root. Build an SSM that includes it.`,
      );
    if (!landmarksFollowModes(summary.landmarks))
      throw new ServiceError(
        409,
        'ssm_landmarks_fixed',
        `The SSM ${name} was built before its landmarks moved with its modes, so its shapes cannot be measured. ` +
          'Build it again (leave out a patient, or choose another phase) to measure its shapes.',
      );
    return {
      name,
      phase: summary.modelCard.phase,
      bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      parts: summary.modelCard.parts,
      landmarks: summary.landmarks,
      modeCount: summary.modes.length,
      explained: summary.modes.map((mode) => mode.explained),
    };
  }

  /**
   * The shapes a measurement order on the model measures (issue 23): its mean and its named instances (the rooms on
   * its shapes, by name), each by label and name. `project.read`; 409 as {@link measurableModel}.
   */
  async orderableShapes(userId: string, deviceId: string, projectId: string, ssmId: string) {
    await this.access.require('project.read', userId, deviceId, projectId);
    const { name } = await this.measurableModel(projectId, ssmId);
    const instances = await this.repository.namedInstances(projectId, ssmId);
    return {
      name,
      shapes: [{ label: 'mean', name: 'Mean shape' }, ...instances.map((i) => ({ label: i.shape, name: i.name }))],
    };
  }

  /** Measures definitions on shapes of the model (labels), in the CPU pool, for callers that have checked access. */
  async measureShapes(
    projectId: string,
    ssmId: string,
    labels: readonly string[],
    definitions: MeasurementDefinition[],
    signal?: AbortSignal,
  ): Promise<MeasurementOutcome[][]> {
    const model = await this.measurableModel(projectId, ssmId);
    const shapes = labels.map((label) => parseSsmInstance(label, model.modeCount));
    const input = { ...model, model: model.bytes, shapes, definitions };
    return this.cpu.run(ssmShapeMeasurementTask, input, signal ? { signal } : {});
  }

  /** 403 with the spec's message where the workspace's plan lacks measurements (issue 23 item 4). */
  private async requireMeasurementPlan(deviceId: string): Promise<void> {
    const device = await this.devices.findById(deviceId);
    if (!device || !measurementPlans.some((plan) => plan === device.plan))
      throw new ServiceError(403, measurementsNotInPlanCode, measurementsDisabledMessage);
  }

  /** A shape of the model as a binary STL of all its organs (mm), named after the SSM and the shape. */
  async exportShapeStl(userId: string, deviceId: string, projectId: string, ssmId: string, label: string) {
    const shape = await this.instance(userId, deviceId, projectId, ssmId, label);
    const bytes = writeBinaryStl(
      { positions: shape.positions, indices: shape.indices },
      `SSM ${label}, mm`.slice(0, 80),
    );
    return { fileName: `${fileStem(shape.name)}-${label.replaceAll(',', '_')}.stl`, bytes };
  }

  /**
   * A shape of the model as VTK XML PolyData (mm) of all its organs, with each vertex's displacement from the mean
   * shape (mm) as point data: a mode shape (`1,+2`, say) opens in ParaView coloured by how far it moved.
   */
  async exportShapeVtp(userId: string, deviceId: string, projectId: string, ssmId: string, label: string) {
    const shape = await this.instance(userId, deviceId, projectId, ssmId, label);
    const mean = label === 'mean' ? shape : await this.instance(userId, deviceId, projectId, ssmId, 'mean');
    const displacement = Float64Array.from(shape.positions, (v, i) => v - (mean.positions[i] as number));
    const text = writeVtpPolyData({ positions: shape.positions, indices: shape.indices }, [
      { name: 'displacement_from_mean_mm', components: 3, values: displacement },
    ]);
    return { fileName: `${fileStem(shape.name)}-${label.replaceAll(',', '_')}.vtp`, text };
  }

  /** The mode matrix: a row per vertex coordinate, the mean (mm) and each unit mode vector as columns. */
  async exportModesCsv(userId: string, deviceId: string, projectId: string, ssmId: string) {
    const bytes = await this.modelFile(userId, deviceId, projectId, ssmId);
    const row = (await this.repository.find(projectId, ssmId)) as SsmListRow;
    const file = decodeShapeModel(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    const d = file.mean.length;
    const rows: (string | number)[][] = [
      ['vertex', 'coordinate', 'mean_mm', ...Array.from({ length: file.modeCount }, (_, k) => `mode_${k + 1}`)],
    ];
    for (let i = 0; i < d; i++) {
      const cells: (string | number)[] = [Math.floor(i / 3), 'xyz'[i % 3] as string, file.mean[i] as number];
      for (let k = 0; k < file.modeCount; k++) cells.push(file.modes[k * d + i] as number);
      rows.push(cells);
    }
    return { fileName: `${fileStem(row.ssm.name)}-modes.csv`, text: toCsv(rows) };
  }

  /** The quality curves and the modes' variances, a row per number of modes. */
  async exportQualityCsv(userId: string, deviceId: string, projectId: string, ssmId: string) {
    const ssm = await this.get(userId, deviceId, projectId, ssmId);
    if (ssm.status !== 'ready' || !ssm.quality || !ssm.modes) throw notReady(ssm.status);
    const { quality, modes } = ssm;
    const rows: (string | number | null)[][] = [
      ['modes', 'variance_mm2', 'explained', 'compactness', 'generalisation_mm', 'specificity_mm'],
      ...modes.map((mode, k) => [
        k + 1,
        mode.variance,
        mode.explained,
        quality.compactness[k] ?? null,
        quality.generalisation[k] ?? null,
        quality.specificity[k] ?? null,
      ]),
    ];
    return { fileName: `${fileStem(ssm.name)}-quality.csv`, text: toCsv(rows) };
  }

  /** What a room on this SSM shows: its shapes (the mean first) and organs. */
  async roomAnatomy(userId: string, deviceId: string, projectId: string, ssmId: string) {
    const ssm = await this.get(userId, deviceId, projectId, ssmId);
    if (ssm.status !== 'ready')
      throw new ServiceError(
        409,
        'ssm_not_ready',
        'This shape model is still being built. You get a notification when it is ready.',
      );
    // The client fills in `{phase}` (a shape's label): kept after the model's path, since pathOf would encode it.
    const path = `${pathOf(ssmEndpoints.get, { deviceId, projectId, ssmId })}/meshes/{phase}`;
    return {
      ssm,
      modeCount: ssm.modes?.length ?? 0,
      phases: ['mean'],
      organs: ssm.configuration.organs,
      meshUrlTemplate: path,
      landmarksUrlTemplate: `${path}/landmarks`,
    };
  }

  private async instance(userId: string, deviceId: string, projectId: string, ssmId: string, label: string) {
    await this.access.require('project.read', userId, deviceId, projectId);
    return this.shapeOf(projectId, ssmId, label);
  }

  private async shapeOf(projectId: string, ssmId: string, label: string) {
    const bytes = await this.storedModel(projectId, ssmId);
    const row = (await this.repository.find(projectId, ssmId)) as SsmListRow;
    const summary = summarySchema.parse(row.ssm.summary);
    const file = decodeShapeModel(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    const deviations = parseSsmInstance(label, file.modeCount);
    const { positions, organs, landmarks } = modelShape(file, summary.modelCard.parts, summary.landmarks, deviations);
    return { name: row.ssm.name, summary, positions, indices: file.indices, organs, landmarks };
  }

  /**
   * The build job's work: the patients as configured, the model in the CPU pool, the file, ready. A model settled
   * already (ready, or failed for good) is answered as it is: a retried or stale job neither builds it again nor
   * changes its status.
   */
  async performBuild(ssmId: string, work: SsmBuildProgress): Promise<SsmRow | null> {
    const row = await this.repository.findById(ssmId);
    if (!row) return null;
    if (row.status !== 'in_progress') return row;
    const configuration = ssmConfigurationSchema.parse(row.configuration);
    const choices = await this.projectChoices(row.projectId, configuration.cohortIds);
    let shapes: ConfiguredShape[];
    try {
      shapes = await this.shapesOf(choices, configuration);
    } catch (error) {
      // The configuration no longer holds (a cohort left the project, say): failed at once with the reason, no retry.
      if (!(error instanceof ServiceError)) throw error;
      await this.failBuild(ssmId, error.message);
      return this.repository.findById(ssmId);
    }
    const cohortNames = new Map([...choices.cohorts, ...choices.imaging].map((c) => [c.id, c.name]));
    const carried = await this.instancesToCarry(row);
    let output: SsmBuildOutput;
    try {
      output = await this.runBuild(shapes, choices.imaging, configuration, carried, work);
    } catch (error) {
      // Shapes the model builder refuses (a reference surface too fine, say) are refused the same on every try.
      if (!(error instanceof CpuTaskError) || error.errorName !== 'SsmInputError') throw error;
      await this.failBuild(ssmId, error.message);
      return this.repository.findById(ssmId);
    }
    await this.blobs.put(await this.region(row.deviceId), ssmModelKey(ssmId), output.bytes);
    const summary = {
      landmarks: output.landmarks,
      modes: output.modes,
      quality: output.quality,
      shapes: output.shapes,
      modelCard: {
        ...output.card,
        cohorts: configuration.cohortIds.map((id) => ({ id, name: cohortNames.get(id) ?? '' })),
      },
    };
    // Ready and its event (the system, for the creator, who hears of it from the event) commit together.
    await this.unitOfWork.run(async (tx) => {
      const kept = summarySchema.parse(summary);
      if (!(await tx.ssms.markReady(ssmId, kept))) return;
      const subject = { objectType: 'ssm', objectId: ssmId, deviceId: row.deviceId, projectId: row.projectId } as const;
      const snapshot = (await this.results?.keep(tx, subject, ssmResults(row, kept, output.bytes))) ?? null;
      const copied = await this.copyInstances(tx, row, carried, output.instances);
      tx.events.record({
        ...systemEvent(row.createdBy, row.deviceId, row.projectId, 'ssm.built', ssmObject(ssmId), {
          name: row.name,
          shapeCount: row.shapeCount,
          ...resultsOf(snapshot),
          ...(row.rebuiltFrom ? { instances: copied } : {}),
        }),
        before: { status: row.status },
      });
    });
    return this.repository.findById(ssmId);
  }

  /**
   * The model built in the CPU pool: virtual patients alone by shared topology (`buildSsm`); with any imaging
   * patient by registration (`buildRegisteredSsm`), the datasets' delivered models zips held on disk meanwhile.
   */
  private async runBuild(
    shapes: readonly ConfiguredShape[],
    datasets: readonly ImagingDatasetRow[],
    configuration: SsmConfiguration,
    carried: CarriedInstances,
    work: SsmBuildProgress,
  ): Promise<SsmBuildOutput> {
    const common = {
      organs: configuration.organs,
      phase: configuration.phase,
      seed: SPECIFICITY_SEED,
      samples: SPECIFICITY_SAMPLES,
      curveModes: CURVE_MODES,
      ...(carried.model ? { instances: { model: carried.model, labels: carried.labels } } : {}),
    };
    const options = {
      signal: work.signal,
      onProgress: (fraction: number, message?: string) =>
        void work.progress(0.98 * fraction, message).catch(() => undefined),
    };
    const virtual = shapes.flatMap((shape) => (shape.source === 'virtual' ? [shape] : []));
    if (virtual.length === shapes.length) return this.cpu.run(ssmBuildTask, { ...common, patients: virtual }, options);
    return holdingLocalFiles(this.blobs, async (localFile) => {
      const zips = new Map<string, { path: string; bytes: number }>();
      for (const dataset of datasets) {
        const key = dataset.modelsStorageKey;
        const file = key ? await localFile(dataset.region, key) : null;
        if (!file) throw new Error(`The delivered models of imaging dataset ${dataset.id} are missing from storage.`);
        zips.set(dataset.id, file);
      }
      const sources = shapes.map((shape): SsmShapeSource => {
        if (shape.source === 'virtual') return shape;
        const { patientId, cohortId, phase, landmarks } = shape;
        return { source: 'imaging', patientId, cohortId, phase, landmarks, models: zips.get(cohortId)! };
      });
      return this.cpu.run(ssmRegisteredBuildTask, { ...common, shapes: sources }, options);
    });
  }

  /**
   * A rebuild's named instances (the rooms on the version it rebuilds) and that version's model file, to be mapped
   * onto the new model by the build task; none for a first version, or when the old file is gone (said per room).
   */
  private async instancesToCarry(row: SsmRow): Promise<CarriedInstances> {
    if (!row.rebuiltFrom) return { rooms: [], labels: [], model: null };
    const rooms = await this.repository.namedInstances(row.projectId, row.rebuiltFrom);
    if (rooms.length === 0) return { rooms, labels: [], model: null };
    const bytes = await this.blobs.get(await this.region(row.deviceId), ssmModelKey(row.rebuiltFrom));
    const model = bytes ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : null;
    return { rooms, labels: [...new Set(rooms.map((room) => room.shape))], model };
  }

  /**
   * The rooms on the rebuilt version copied onto the new one, in the transaction that makes it ready: each a new
   * room named "<name> (version N)" on its shape mapped to the new model, its view otherwise kept, no devices
   * placed (a placement was checked on the old shape: docs/decisions/ssm-versions.md), its `room.created` event
   * naming the room it copies. The old rooms stay as they are. Answers what was copied and what was not, and why.
   */
  private async copyInstances(
    tx: Transaction,
    row: SsmRow,
    carried: CarriedInstances,
    mapped: readonly SsmMappedInstance[],
  ) {
    const byLabel = new Map(mapped.map((m) => [m.label, m]));
    const results: Record<string, unknown>[] = [];
    for (const room of carried.rooms) {
      const found = byLabel.get(room.shape);
      const from = { roomId: room.roomId, name: room.name, shape: room.shape };
      if (!carried.model || !found || found.mapped === null) {
        const reason = !carried.model
          ? 'The file of the version rebuilt is missing.'
          : ((found as { reason?: string } | undefined)?.reason ?? 'Not mapped.');
        results.push({ ...from, copied: false, reason });
        continue;
      }
      const base = `${room.name} (version ${row.version})`;
      const taken = new Set((await tx.rooms.namesStartingWith(row.projectId, base)).map((n) => n.toLowerCase()));
      let name = base;
      for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base} ${n}`;
      const view = (room.scene.view ?? {}) as Record<string, unknown>;
      const inserted = await tx.rooms.insert({
        projectId: row.projectId,
        name,
        ssmId: row.id,
        createdBy: row.createdBy,
        scene: { ...room.scene, view: { ...view, phase: found.mapped } },
      });
      if (!inserted) {
        results.push({ ...from, copied: false, reason: `The room name ${name} is taken.` });
        continue;
      }
      const copy = { roomId: inserted.id, name, shape: found.mapped };
      const fit = { residual_mm: found.residual_mm, clampedModes: found.clampedModes };
      tx.events.record(
        systemEvent(
          row.createdBy,
          row.deviceId,
          row.projectId,
          'room.created',
          { type: 'room', id: inserted.id },
          {
            name,
            ssmId: row.id,
            shape: found.mapped,
            copiedFrom: { ...from, ssmId: row.rebuiltFrom },
            ...fit,
          },
        ),
      );
      results.push({ ...from, copied: true, copy, ...fit });
    }
    return results;
  }

  async failBuild(ssmId: string, reason: string): Promise<SsmRow | null> {
    return this.unitOfWork.run((tx) => this.recordFailure(tx, ssmId, reason));
  }

  /** Fails a model still in progress, with its `ssm.failed` event (its creator hears why), in the caller's transaction. */
  private async recordFailure(tx: Transaction, ssmId: string, reason: string): Promise<SsmRow | null> {
    const failed = await tx.ssms.markFailed(ssmId, reason);
    if (failed)
      tx.events.record({
        ...systemEvent(failed.createdBy, failed.deviceId, failed.projectId, 'ssm.failed', ssmObject(ssmId), {
          name: failed.name,
          error: reason,
        }),
        before: { status: 'in_progress' },
      });
    return failed;
  }

  /**
   * The patients a configuration builds from, each once (a patient in two cohorts counts once, under the first
   * cohort), in patient order; every refusal of issue 18's "bad input" with its message. `cohorts`: those the
   * configuration may use (the project's, or those of the draft of one).
   */
  private async shapesOf(
    choices: SsmChoices,
    configuration: SsmConfiguration,
    waitForCohorts = false,
  ): Promise<ConfiguredShape[]> {
    const byId = new Map(choices.cohorts.map((cohort) => [cohort.id, cohort]));
    // Imaging datasets of the project being checked or refused are no cohorts (a room or trial says the same).
    const datasets = choices.imaging.filter((row) => row.status === 'modelling' || row.status === 'ready');
    const imagingIds = new Set(datasets.map((row) => row.id));
    const missing = configuration.cohortIds.filter((id) => !byId.has(id) && !imagingIds.has(id));
    if (missing.length > 0)
      throw new ServiceError(
        422,
        'cohort_not_in_project',
        'A chosen patient cohort is not part of this project. Choose among the project’s cohorts.',
        { cohortIds: missing },
      );
    datasets.forEach(assertImagingCohortReady);
    const patients = new Map<string, { patient: SyntheticPatient; cohortId: string }>();
    for (const id of configuration.cohortIds.filter((c) => byId.has(c))) {
      const cohort = byId.get(id) as CohortRow;
      const stored = await this.cohorts.patients(cohort.id);
      // A cohort being ordered has its patients drawn already (an order of an older server may not: it must wait).
      const chained = waitForCohorts && cohort.status === 'in_progress' && stored.length === cohort.size;
      if (!chained) assertCohortReady(cohort);
      for (const entry of stored)
        if (!patients.has(entry.patientId))
          patients.set(entry.patientId, { patient: storedPatient(cohort, entry), cohortId: cohort.id });
    }
    const imagingPatients = new Set(datasets.flatMap((row) => row.models?.patients.map((p) => p.patient) ?? []));
    const strangers = configuration.excludedPatients.filter((id) => !patients.has(id) && !imagingPatients.has(id));
    if (strangers.length > 0)
      throw new ServiceError(
        422,
        'unknown_patient',
        `These patients are not in the chosen cohorts: ${strangers.slice(0, 10).join(', ')}${strangers.length > 10 ? ' …' : ''}.`,
        { patients: strangers },
      );
    const excluded = new Set(configuration.excludedPatients);
    const virtual = [...patients.values()].filter(({ patient }) => !excluded.has(patient.id));
    const imaging = imagingShapesOf(datasets, configuration);
    const kept: ConfiguredShape[] = [
      ...virtual.map((shape) => ({ source: 'virtual' as const, ...shape })),
      ...imaging.map((shape) => ({ source: 'imaging' as const, ...shape })),
    ].sort((a, b) => byPatient(idOf(a), idOf(b)) || byPatient(a.cohortId, b.cohortId));
    if (kept.length === 0)
      throw new ServiceError(
        422,
        'all_patients_excluded',
        `Every patient is left out. Keep at least ${ssmMinShapes} patients in the model.`,
      );
    const lacking = virtual.filter(({ patient }) => !hasPhase(patient, configuration.phase));
    if (lacking.length > 0)
      throw new ServiceError(
        422,
        'phase_missing',
        `${lacking.length} of the chosen patients have no ${ssmPhaseLabels[configuration.phase].toLowerCase()} images (${lacking
          .slice(0, 5)
          .map(({ patient }) => patient.id)
          .join(', ')}${lacking.length > 5 ? ' …' : ''}). Leave them out or choose another phase.`,
        { patients: lacking.map(({ patient }) => patient.id) },
      );
    if (kept.length < ssmMinShapes)
      throw new ServiceError(422, ssmTooFewCode, ssmTooFewMessage(kept.length), {
        shapes: kept.length,
        minimum: ssmMinShapes,
      });
    assertRegistrable(imaging, virtual.length > 0);
    return kept;
  }

  /**
   * A ready model's results as they stand now (for the backfill of work finished before migration 0027,
   * services/result-backfill.ts), or null when it is not ready or its model file is missing.
   */
  async currentResults(ssmId: string): Promise<Record<string, unknown> | null> {
    const row = await this.repository.findById(ssmId);
    if (row?.status !== 'ready' || !row.summary) return null;
    const model = await this.blobs.get(await this.region(row.deviceId), ssmModelKey(ssmId));
    return model ? ssmResults(row, row.summary, model) : null;
  }

  private async region(deviceId: string): Promise<DataRegion> {
    const device = await this.devices.findById(deviceId);
    if (!device) throw new ServiceError(404, 'not_found', 'No such device workspace.');
    return device.dataRegion === 'us' ? 'us' : 'eu';
  }
}

/** The frame of a model's shapes: the reference patient's, centred (generalised Procrustes). */
const ssmFrame = 'ssm-procrustes-mm';

/**
 * A shape's label: `mean`, or comma-separated standard deviations per mode (`2,0,-1.5`), each within ±3 SD, no more
 * than the model's modes. 422 otherwise.
 */
export function parseSsmInstance(label: string, modeCount: number): number[] {
  if (label === 'mean') return [];
  if (!ssmInstancePattern.test(label))
    throw new ServiceError(
      422,
      'invalid_instance',
      'Name a shape as "mean" or as standard deviations per mode, e.g. 2,0,-1.5.',
    );
  const values = label.split(',').map(Number);
  if (values.length > modeCount) throw new ServiceError(422, 'invalid_instance', `This model has ${modeCount} modes.`);
  if (values.some((v) => Math.abs(v) > ssmMaxDeviation))
    throw new ServiceError(
      422,
      'invalid_instance',
      `A mode can be moved at most ${ssmMaxDeviation} standard deviations from the mean.`,
    );
  return values;
}

/** A shape's label in words: `mean shape`, or the moved modes (`2,0,-1.5` → `mode 1 +2 SD, mode 3 −1.5 SD`). */
export function ssmShapeLabel(label: string): string {
  if (label === 'mean') return 'mean shape';
  const moved = label
    .split(',')
    .map(Number)
    .flatMap((sd, k) => (sd === 0 ? [] : [`mode ${k + 1} ${sd > 0 ? '+' : '−'}${Math.abs(sd)} SD`]));
  return moved.length > 0 ? moved.join(', ') : 'mean shape';
}

/** A patient has a static phase's images when the phase, or cine CT (which implies both), is among its phases. */
function hasPhase(patient: SyntheticPatient, phase: SsmConfiguration['phase']): boolean {
  return patient.phases.includes(phase) || patient.phases.includes('cine_ct');
}

/** A chosen cohort that failed (refused when an SSM is created on it). */
function cohortFailedMessage(name: string): string {
  return `The cohort ${name} could not be prepared, so it has no patients for a shape model.`;
}

/** Why an SSM waiting for a cohort (issue 18's chaining) failed with it. */
export function chainedCohortFailedMessage(name: string): string {
  return `The patient cohort ${name} could not be prepared, so this shape model was not built. Order the cohort again, then create the SSM from the project’s page.`;
}

function assertCohortReady(cohort: CohortRow): void {
  if (cohort.status !== 'ready')
    throw new ServiceError(
      409,
      'cohort_not_ready',
      cohort.status === 'failed'
        ? cohortFailedMessage(cohort.name)
        : `The patients of the cohort ${cohort.name} are still being prepared. You get a notification when they are ready.`,
    );
}

/**
 * Whether a ready model was built with the current build code's landmark modes (`ssm-2`): a rebuild would give the
 * same model. Older models lack the landmark modes in their summary.
 */
function buildIsCurrent(ssm: SsmRow): boolean {
  const summary = ssm.summary ? summarySchema.safeParse(ssm.summary) : null;
  return summary?.success === true && landmarksFollowModes(summary.data.landmarks);
}

function notFailed(): ServiceError {
  return new ServiceError(
    409,
    'ssm_not_failed',
    'Only a shape model whose build failed can be retried; this one is being built or is ready.',
  );
}

function assertReady(ssm: SsmRow): void {
  if (ssm.status !== 'ready') throw notReady(ssm.status);
}

function notReady(status: string): ServiceError {
  return new ServiceError(
    409,
    'ssm_not_ready',
    status === 'failed'
      ? 'This shape model could not be built.'
      : 'This shape model is still being built. You get a notification when it is ready.',
  );
}

/** A file name's stem from an SSM's name: letters, digits and dashes. */
function fileStem(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'ssm'
  );
}

function toSsm(row: SsmListRow, waitingFor: { id: string; name: string }[]): Ssm {
  const { ssm } = row;
  const summary = ssm.summary ? summarySchema.safeParse(ssm.summary) : null;
  const parts = summary?.success ? summary.data : null;
  return {
    id: ssm.id,
    projectId: ssm.projectId,
    name: ssm.name,
    configuration: ssmConfigurationSchema.parse(ssm.configuration),
    shapeCount: ssm.shapeCount,
    status: ssm.status,
    progress: ssm.status === 'ready' ? 1 : (row.progress ?? 0),
    progressMessage: ssm.status === 'in_progress' ? row.progressMessage : null,
    waitingFor,
    error: ssm.error,
    createdBy: ssm.createdBy ? { id: ssm.createdBy, fullName: row.creatorName ?? '' } : null,
    createdAt: ssm.createdAt.toISOString(),
    readyAt: ssm.readyAt?.toISOString() ?? null,
    modes: parts?.modes ?? null,
    quality: parts?.quality ?? null,
    shapes: parts?.shapes ?? null,
    modelCard: parts?.modelCard ?? null,
    version: ssm.version,
    rebuiltFrom: ssm.rebuiltFrom ? { id: ssm.rebuiltFrom, version: ssm.version - 1 } : null,
    rebuiltAs: row.rebuiltAs,
    landmarksFollowModes: parts ? landmarksFollowModes(parts.landmarks) : null,
  };
}
