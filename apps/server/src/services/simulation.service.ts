import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { phaseLabel, type MeshPhase, type SyntheticPatient } from '@insilico/anatomy';
import {
  defaultParticleName,
  frameColumnsAt,
  particleNameTakenMessage,
  pathOf,
  simulationEndpoints,
  simulationHelpMessage,
  simulationNameTakenMessage,
  simulationNotFoundMessage,
  simulationResolutionMessage,
  type CreateSimulation,
  type Simulation,
  type SimulationListQuery,
  type SimulationParticle,
  type SimulationParticleList,
  type SimulationHeatmapQuery,
  type SimulationTimeline,
  type SimulationPage,
  type SimulationResults,
  type SimulationSetup,
} from '@insilico/contracts';
import {
  MATERIALS,
  NUMERIC_PARAMETERS,
  PARTICLE_CAP,
  SCENARIO_VERSION,
  defaultParameters,
  type BuiltScenario,
  type ParameterIssue,
  type PlacementTransform,
  type ScenarioPatient,
  type SimulationKind,
} from '@insilico/scenarios';
import { outputLabel, outputUnit, unpackArrays, type SphCase } from '@insilico/sph';
import type { Readable } from 'node:stream';
import { frameExportTask } from '../cpu/frame-export.task';
import { objectTimelineTask, timelineScalars } from '../cpu/frame-timeline.task';
import type { ObjectSummaries } from '../cpu/frame-summary';
import { frameHeatmapTask, type FrameHeatmapOutput, type HeatmapColumnPart } from '../cpu/frame-heatmap.task';
import { scenarioTask, type ScenarioTaskInput, type ScenarioTaskOutput } from '../cpu/scenario.task';
import { simulationSegmentTask, type SimulationSegmentOutput } from '../cpu/simulation.task';
import type { ResultManifest } from '../cpu/wall-shear';
import type { CpuRunner } from '../cpu/pool';
import { simulationJob, type SimulationJobData } from '../jobs/simulation.job';
import { projectEvent, systemEvent } from '../events/kinds';
import { decideProject } from '../policies/project.policy';
import { holdingLocalFiles, type BlobStore, type DataRegion } from '../repositories/blob.repository';
import type { SettingsRepository } from '../repositories/settings.repository';
import type { SimulationListRow, SimulationRepository, SimulationRow } from '../repositories/simulation.repository';
import type { UnitOfWork } from '../repositories/unit-of-work';
import { storedPatient } from './cohort-records';
import { patientPhase, meshPhasesOf } from './cohort-mesh.service';
import { ServiceError } from './errors';
import type { ImagingPatientService } from './imaging-patient.service';
import type { SsmService } from './ssm.service';
import { setTestResolution, testResolutionAllowed } from './simulation-test-resolution';
import type { ProjectAccessService } from './project-access.service';
import type { RoomGrant, RoomService } from './room.service';
import { resultsOf, type ResultKeeper } from './result-snapshots';
import { simulationResults } from './result-snapshot-contents';

export interface SimulationServiceDeps {
  repository: SimulationRepository;
  rooms: RoomService;
  projects: ProjectAccessService;
  blobs: BlobStore;
  /** Rows and their job commit together (docs/decisions/one-transaction-idiom.md). */
  unitOfWork: UnitOfWork;
  /** Where the operator's switch of the test resolution per workspace is kept (app_settings). */
  settings: Pick<SettingsRepository, 'get' | 'set'>;
  cpu: CpuRunner;
  /** Scratch folder of running simulations on this machine (frames are written here, then stored). */
  workDir: string;
  /** Simulations of one workspace that may run at the same time (more wait, queued). */
  concurrencyPerWorkspace?: number;
  /** Whether a run is a trial patient's: its end tells nobody (the trial tells once, issue 17). */
  quietRun?: (simulationId: string) => Promise<boolean>;
  /** Patients of imaging cohorts (issue 19): rooms on them simulate their delivered anatomy. */
  imagingPatients?: ImagingPatientService;
  /** Statistical shape models (issue 18): rooms on them simulate the shape they show. */
  ssms?: SsmService;
  log: { warn(details: object, message: string): void; info(details: object, message: string): void };
  /** Keeps a finished run's results as a snapshot named by its event (issue 20 item 7). */
  results?: ResultKeeper;
}

/** What the performer needs from its context. */
export interface SimulationRunContext {
  attempt: number;
  signal: AbortSignal;
  progress(fraction: number, message?: string): Promise<void>;
}

/** A run's job data: with the user whose analytics consent came with the request (issue 21). */
function runData(simulationId: string, userId: string, analytics: { consent: boolean }): SimulationJobData {
  return analytics.consent ? { simulationId, analyticsUserId: userId } : { simulationId };
}

/** Saved timesteps per stored segment of a run: a kill loses at most this many. */
const SEGMENT_TIMESTEPS = 1;
/** How often a waiting run asks for a slot of its workspace again, and a running one whether it was cancelled, ms. */
const SLOT_POLL_MS = 2000;
const CANCEL_POLL_MS = 500;

/**
 * The web page of a simulation's results (notifications link to it; the web's lists open the same address): the
 * workspace too, so a link opened while another workspace is selected still finds the project.
 */
export function simulationResultsPath(
  deviceId: string | null,
  projectId: string,
  roomId: string,
  simulationId: string,
): string {
  const device = deviceId ? `&device=${deviceId}` : '';
  return `/projects/room/analyses?project=${projectId}&room=${roomId}&simulation=${simulationId}${device}`;
}

/**
 * Simulations of rooms (issue 16): set-up defaults and estimates, create (the case is built and checked in a CPU
 * thread, stored with its files, then queued), the list per room and project, rename, cancel, retry, delete, results,
 * and the run itself (`run`, called by simulation.performer.ts). Reading needs `project.read`, everything that starts,
 * changes or removes a run `project.work` (project.policy.ts): a guest on the project views results, never runs.
 * See docs/decisions/simulations.md.
 */
export class SimulationService {
  private readonly limit: number;

  constructor(private readonly deps: SimulationServiceDeps) {
    this.limit = Math.max(1, deps.concurrencyPerWorkspace ?? 2);
  }

  async setup(
    userId: string,
    deviceId: string,
    projectId: string,
    roomId: string,
    kind: SimulationKind,
  ): Promise<SimulationSetup> {
    const grant = await this.deps.rooms.require('project.read', userId, deviceId, projectId, roomId);
    const room = await this.roomInput(grant);
    const output = await this.build({ ...room.input, kind, resolution: null, parameters: {} });
    const device = room.placements[0];
    const fields = NUMERIC_PARAMETERS.filter((p) => (p.kinds as readonly string[]).includes(kind));
    return {
      kind,
      phase: room.phase,
      parameters: defaultParameters(kind, room.input.patient),
      fields: fields.map((p) => ({
        key: p.key,
        label: p.label,
        unit: p.unit,
        min: p.min,
        max: p.max,
        integer: 'integer' in p && p.integer === true,
      })),
      materials: MATERIALS.map((m) => ({
        id: m.id,
        name: m.name,
        youngsModulus_GPa: m.youngsModulus / 1e9,
        poissonRatio: m.poissonRatio,
        density_kg_m3: m.density,
        source: m.source,
      })),
      device: device ? { versionId: device.versionId, name: device.versionName } : null,
      estimates: output.ok ? output.estimates : null,
      planes: output.ok ? await this.planes(room.input, kind) : null,
      problems: output.ok ? [] : output.issues.map((i) => i.message),
      problemsAdjustable: !output.ok && output.issues.every((i) => fields.some((field) => field.key === i.key)),
      helpMessage: simulationHelpMessage,
      canRun: decideProject('project.work', grant.access.standing).allowed,
      particleCap: PARTICLE_CAP,
      testResolution: await this.testResolutionAllowed(deviceId),
    };
  }

  /** The operator's switch of the 'test' resolution for one workspace (`simulation-test-resolution.ts`). */
  async setTestResolution(deviceId: string, allowed: boolean): Promise<{ deviceId: string; testResolution: boolean }> {
    return setTestResolution(this.deps.settings, deviceId, allowed);
  }

  async testResolutionAllowed(deviceId: string): Promise<boolean> {
    return testResolutionAllowed(this.deps.settings, deviceId);
  }

  /** The test resolution is refused like an unknown one unless the operator allowed it for the workspace. */
  private async checkResolution(deviceId: string, body: CreateSimulation): Promise<void> {
    if (body.resolution === 'test' && !(await this.testResolutionAllowed(deviceId)))
      throw new ServiceError(422, 'simulation_setup_invalid', simulationResolutionMessage);
  }

  /** The estimate of one set-up (every input checked as for a run; nothing is stored or queued). */
  async estimate(userId: string, deviceId: string, projectId: string, roomId: string, body: CreateSimulation) {
    const grant = await this.deps.rooms.require('project.read', userId, deviceId, projectId, roomId);
    await this.checkResolution(deviceId, body);
    const built = await this.buildChecked(grant, body);
    return { resolution: built.resolution, ...built.estimate };
  }

  async create(
    userId: string,
    deviceId: string,
    projectId: string,
    roomId: string,
    body: CreateSimulation,
    /** The starter's browser sent the analytics consent cookie: the run's completion is recorded for them. */
    analytics: { consent: boolean } = { consent: false },
  ): Promise<Simulation> {
    const grant = await this.deps.rooms.require('project.work', userId, deviceId, projectId, roomId);
    await this.checkResolution(deviceId, body);
    const name = body.name ?? (await this.defaultName(roomId, body.kind));
    if (await this.deps.repository.nameTaken(roomId, name))
      throw new ServiceError(409, 'simulation_name_taken', simulationNameTakenMessage);
    const { built, room } = await this.buildCheckedWithRoom(grant, body);
    const device = room.placements[0];
    // A version deleted while the case was being built: nothing is stored or queued.
    if (device && !(await this.deps.repository.versionReady(device.versionId)))
      throw new ServiceError(
        422,
        'device_version_gone',
        `The device version ${device.versionName} was deleted or is no longer ready. Place another device in the room.`,
      );
    const region = await this.regionOf(deviceId);
    const id = randomUUID();
    const prefix = `simulations/${id}`;
    // The case and its files are stored first: the run reads them, never the room (which may change meanwhile).
    await this.deps.blobs.put(region, `${prefix}/case/case.json`, Buffer.from(JSON.stringify(built.engineCase)));
    for (const [file, bytes] of Object.entries(built.files))
      await this.deps.blobs.put(region, `${prefix}/case/${file}`, bytes);
    const values = {
      id,
      roomId,
      projectId,
      deviceVersionId: device?.versionId ?? null,
      deviceVersionName: device?.versionName ?? null,
      kind: body.kind,
      name,
      parameters: built.parameters as Record<string, unknown>,
      resolution: built.resolution,
      phase: room.phase,
      endTime: built.engineCase.endTime,
      estimate: { resolution: built.resolution, ...built.estimate },
      scenarioVersion: SCENARIO_VERSION,
      region,
      storagePrefix: prefix,
      createdBy: userId,
    };
    let row: SimulationRow | null;
    try {
      // The row and its job commit together: no job without its simulation, no queued simulation without a job.
      row = await this.deps.unitOfWork.run(async (tx) => {
        const created = await tx.simulations.create(values);
        if (!created) return null;
        const run = await tx.jobs.enqueue(simulationJob, runData(created.id, userId, analytics), userId);
        tx.events.record({
          ...projectEvent(userId, deviceId, projectId, 'simulation.started', { type: 'simulation', id: created.id }),
          after: {
            name,
            roomId,
            kind: body.kind,
            resolution: built.resolution,
            deviceVersionId: values.deviceVersionId,
            parameters: values.parameters,
            phase: room.phase,
          },
        });
        return tx.simulations.update(created.id, { jobId: run.id });
      });
    } catch (error) {
      await this.removeStored(region, prefix, [], Object.keys(built.files));
      throw error;
    }
    if (!row) {
      await this.removeStored(region, prefix, [], Object.keys(built.files));
      throw new ServiceError(409, 'simulation_name_taken', simulationNameTakenMessage);
    }
    return this.get(userId, deviceId, projectId, row.id);
  }

  async list(
    userId: string,
    deviceId: string,
    projectId: string,
    query: SimulationListQuery,
    roomId?: string,
  ): Promise<SimulationPage> {
    const access = roomId
      ? (await this.deps.rooms.require('project.read', userId, deviceId, projectId, roomId)).access
      : await this.deps.projects.require('project.read', userId, deviceId, projectId);
    const { rows, total } = await this.deps.repository.list({ projectId, ...(roomId ? { roomId } : {}), ...query });
    return {
      items: rows.map(toSimulation),
      total,
      page: query.page,
      pageSize: query.pageSize,
      canRun: decideProject('project.work', access.standing).allowed,
    };
  }

  async get(userId: string, deviceId: string, projectId: string, simulationId: string): Promise<Simulation> {
    const { row } = await this.require('project.read', userId, deviceId, projectId, simulationId);
    return this.present(row);
  }

  async rename(
    userId: string,
    deviceId: string,
    projectId: string,
    simulationId: string,
    name: string,
  ): Promise<Simulation> {
    const { row } = await this.require('project.work', userId, deviceId, projectId, simulationId);
    const renamed = await this.deps.unitOfWork.run(async (tx) => {
      const changed = await tx.simulations.rename(row.id, row.roomId, name);
      if (changed && changed.name !== row.name)
        tx.events.record({
          ...simulationEvent(userId, deviceId, row, 'simulation.renamed'),
          before: { name: row.name },
          after: { name, roomId: row.roomId },
        });
      return changed;
    });
    if (!renamed) throw new ServiceError(409, 'simulation_name_taken', simulationNameTakenMessage);
    return this.present(renamed);
  }

  /** Cancels a queued or running run: the performer sees it within half a second and ends the engine's thread. */
  async cancel(userId: string, deviceId: string, projectId: string, simulationId: string): Promise<Simulation> {
    const { row } = await this.require('project.work', userId, deviceId, projectId, simulationId);
    const cancelled = await this.deps.unitOfWork.run(async (tx) => {
      const moved = await tx.simulations.transition(row.id, ['queued', 'running'], {
        status: 'cancelled',
        etaSeconds: null,
        finishedAt: new Date(),
      });
      if (moved)
        tx.events.record({
          ...simulationEvent(userId, deviceId, row, 'simulation.cancelled'),
          before: { status: row.status },
          after: { status: 'cancelled', name: row.name, roomId: row.roomId },
        });
      return moved;
    });
    if (!cancelled)
      throw new ServiceError(409, 'simulation_not_running', `The simulation has already ${finishedWord(row.status)}.`);
    return this.present(cancelled);
  }

  /** Runs a failed or cancelled simulation again from its last stored checkpoint (or from the start). */
  async retry(
    userId: string,
    deviceId: string,
    projectId: string,
    simulationId: string,
    analytics: { consent: boolean } = { consent: false },
  ): Promise<Simulation> {
    const { row } = await this.require('project.work', userId, deviceId, projectId, simulationId);
    const queued = await this.deps.unitOfWork.run(async (tx) => {
      const moved = await tx.simulations.transition(row.id, ['failed', 'cancelled'], {
        status: 'queued',
        error: null,
        finishedAt: null,
      });
      if (!moved) return null;
      const run = await tx.jobs.enqueue(simulationJob, runData(moved.id, userId, analytics), userId);
      tx.events.record({
        ...simulationEvent(userId, deviceId, row, 'simulation.retried'),
        before: { status: row.status, error: row.error },
        after: { status: 'queued', name: row.name, roomId: row.roomId },
      });
      return tx.simulations.update(moved.id, { jobId: run.id });
    });
    if (!queued)
      throw new ServiceError(409, 'simulation_not_retryable', 'Only a failed or cancelled simulation can run again.');
    return this.present(queued);
  }

  /** Deletes the simulation and every stored output; a running one is cancelled first (its thread ends). */
  async remove(userId: string, deviceId: string, projectId: string, simulationId: string): Promise<void> {
    const { row } = await this.require('project.work', userId, deviceId, projectId, simulationId);
    await this.deps.unitOfWork.run(async (tx) => {
      await tx.simulations.remove(row.id);
      tx.events.record({
        ...simulationEvent(userId, deviceId, row, 'simulation.deleted'),
        before: { name: row.name, status: row.status, roomId: row.roomId, kind: row.kind },
      });
    });
    const region = row.region as DataRegion;
    const stored = await this.deps.blobs.get(region, `${row.storagePrefix}/case/case.json`);
    const caseFiles = stored ? caseFilesOf(JSON.parse(stored.toString('utf8')) as SphCase) : [];
    await this.removeStored(region, row.storagePrefix, row.storedFiles, caseFiles);
  }

  async results(userId: string, deviceId: string, projectId: string, simulationId: string): Promise<SimulationResults> {
    const { row } = await this.require('project.read', userId, deviceId, projectId, simulationId);
    const manifest = await this.storedManifest(row);
    if (!manifest)
      throw new ServiceError(409, 'no_results', 'This simulation has no results yet: its first timestep is not saved.');
    const params = { deviceId, projectId, simulationId: row.id };
    // The templates the client fills in keep their `{placeholders}` (pathOf would encode the braces).
    const base = pathOf(simulationEndpoints.get, params);
    return {
      simulationId: row.id,
      status: row.status,
      manifest,
      frameUrlTemplate: `${base}/frames/{object}/{timestep}`,
      exportUrlTemplate: `${base}/exports/{object}/{timestep}/{format}`,
      monitorsUrl: row.storedFiles.includes('monitors.csv') ? pathOf(simulationEndpoints.monitors, params) : null,
      heatmapUrl: pathOf(simulationEndpoints.heatmap, params),
      ranges: await this.runRanges(row, manifest),
    };
  }

  /**
   * Per object and scalar, the minimum and maximum over every stored timestep, from the frames' summaries (the colour
   * bar's range over the whole run); null when a stored frame has no summary (a result stored before them).
   */
  private async runRanges(row: SimulationRow, manifest: ResultManifest): Promise<SimulationResults['ranges']> {
    const ranges: NonNullable<SimulationResults['ranges']> = {};
    for (const object of manifest.objects) {
      const summaries = await this.storedSummaries(row, object.name);
      const stored = manifest.timesteps.filter((t) => row.storedFiles.includes(`${object.name}/${t.index}.bin`));
      if (!summaries || stored.some((t) => !summaries.timesteps[String(t.index)])) return null;
      const byScalar: Record<string, { min: number; max: number }> = {};
      for (const step of stored) {
        for (const [name, s] of Object.entries(summaries.timesteps[String(step.index)]!.stats)) {
          if (s.min === null || s.max === null) continue;
          const r = byScalar[name];
          byScalar[name] = r
            ? { min: Math.min(r.min, s.min), max: Math.max(r.max, s.max) }
            : { min: s.min, max: s.max };
        }
      }
      ranges[object.name] = byScalar;
    }
    return ranges;
  }

  /**
   * The histogram/heatmap card's Range mode binned next to the stored frames (one CPU-pool task that reads only the
   * output's column of each frame): the chosen objects that have the output, over timesteps `start`…`end`.
   */
  async heatmap(
    userId: string,
    deviceId: string,
    projectId: string,
    simulationId: string,
    query: SimulationHeatmapQuery,
  ): Promise<FrameHeatmapOutput> {
    const { row } = await this.require('project.read', userId, deviceId, projectId, simulationId);
    const manifest = await this.storedManifest(row);
    if (!manifest)
      throw new ServiceError(409, 'no_results', 'This simulation has no results yet: its first timestep is not saved.');
    const unknown = query.objects.filter((name) => !manifest.objects.some((o) => o.name === name));
    if (unknown.length > 0)
      throw new ServiceError(404, 'not_found', `This simulation has no object ${unknown.join(', ')}.`);
    const objects = manifest.objects.filter(
      (o) => query.objects.includes(o.name) && o.columns.some((c) => c.name === query.output),
    );
    if (objects.length === 0)
      throw new ServiceError(400, 'unknown_column', `The chosen objects have no output ${query.output}.`);
    // The timesteps whose frames are stored for every chosen object (a run still going has fewer).
    const region = row.region as DataRegion;
    const saved = manifest.timesteps.findIndex((t) =>
      objects.some((o) => !row.storedFiles.includes(`${o.name}/${t.index}.bin`)),
    );
    const timesteps = saved < 0 ? manifest.timesteps.length : saved;
    if (timesteps === 0)
      throw new ServiceError(409, 'no_results', 'This simulation has no results yet: its first timestep is not saved.');
    const clamp = (t: number) => Math.min(timesteps - 1, t);
    const lo = clamp(Math.min(query.start, query.end));
    const hi = clamp(Math.max(query.start, query.end));
    // A range shorter than 1 step is widened by the binning (spec §5 "minimum range is 1"): its neighbours come along.
    const first = hi - lo < 1 ? Math.max(0, lo - 1) : lo;
    const last = hi - lo < 1 ? Math.min(timesteps - 1, hi + 1) : hi;
    // The frames' files stay held (never evicted from a local cache) until the pool task has read them.
    const plot = await holdingLocalFiles(this.deps.blobs, async (localFile) => {
      const frames: { timestep: number; parts: HeatmapColumnPart[] }[] = [];
      for (let t = first; t <= last; t++) {
        const step = manifest.timesteps[t]!;
        const parts: HeatmapColumnPart[] = [];
        for (const object of objects) {
          const count = step.particleCounts?.[object.name] ?? object.particleCount;
          const column = frameColumnsAt(object.columns, count).find((c) => c.name === query.output)!;
          const file = await localFile(region, `${row.storagePrefix}/out/${object.name}/${t}.bin`);
          if (!file) throw new ServiceError(404, 'not_found', 'This simulation has no such output (yet).');
          parts.push({ path: file.path, offset: column.offset, count, components: column.components });
        }
        frames.push({ timestep: t, parts });
      }
      return this.deps.cpu.run(frameHeatmapTask, {
        timesteps,
        frames,
        start: lo,
        end: hi,
        bins: query.binSize !== undefined ? { binSize: query.binSize } : { binCount: query.binCount ?? 50 },
      });
    });
    if (!plot)
      throw new ServiceError(409, 'no_results', 'This simulation has no results yet: its first timestep is not saved.');
    return plot;
  }

  /** One stored output file (a frame or monitors.csv) as a stream. */
  async output(
    userId: string,
    deviceId: string,
    projectId: string,
    simulationId: string,
    file: string,
  ): Promise<{ stream: Readable; bytes: number }> {
    const { row } = await this.require('project.read', userId, deviceId, projectId, simulationId);
    if (!row.storedFiles.includes(file))
      throw new ServiceError(404, 'not_found', 'This simulation has no such output (yet).');
    const opened = await this.deps.blobs.open(row.region as DataRegion, `${row.storagePrefix}/out/${file}`);
    if (!opened) throw new ServiceError(404, 'not_found', 'This simulation has no such output (yet).');
    return opened;
  }

  /** One stored frame as CSV or VTP (converted in the CPU pool), with its download name. */
  async exportFrame(
    userId: string,
    deviceId: string,
    projectId: string,
    simulationId: string,
    frame: { object: string; timestep: number; format: 'csv' | 'vtp' },
  ): Promise<{ text: string; fileName: string }> {
    const { row } = await this.require('project.read', userId, deviceId, projectId, simulationId);
    const manifest = await this.storedManifest(row);
    const object = manifest?.objects.find((o) => o.name === frame.object);
    const step = manifest?.timesteps[frame.timestep];
    const key = `${frame.object}/${frame.timestep}.bin`;
    if (!object || !step || !row.storedFiles.includes(key))
      throw new ServiceError(404, 'not_found', 'This simulation has no such output (yet).');
    const bytes = await this.deps.blobs.get(row.region as DataRegion, `${row.storagePrefix}/out/${key}`);
    if (!bytes) throw new ServiceError(404, 'not_found', 'This simulation has no such output (yet).');
    const text = await this.deps.cpu.run(frameExportTask, {
      frame: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      columns: frameColumnsAt(object.columns, step.particleCounts?.[object.name] ?? object.particleCount),
      time: step.time,
      format: frame.format,
    });
    // Timesteps are shown from 1 (spec §5's timestep slider); the file says which one a person saw.
    const safeName = row.name.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-|-$/g, '') || 'simulation';
    return { text, fileName: `${safeName}-${object.name}-timestep-${frame.timestep + 1}.${frame.format}` };
  }

  /**
   * Some columns of one stored frame, back to back in the manifest's order (the results page fetches positions and
   * the coloured output per timestep, not every column): bytes sent are 4 × particles × components per column.
   */
  async frameColumns(
    userId: string,
    deviceId: string,
    projectId: string,
    simulationId: string,
    frame: { object: string; timestep: number; columns: string[] },
  ): Promise<Buffer> {
    const { row } = await this.require('project.read', userId, deviceId, projectId, simulationId);
    const { bytes, columns } = await this.storedFrame(row, frame.object, frame.timestep);
    const chosen: Buffer[] = [];
    for (const name of frame.columns) {
      const column = columns.find((c) => c.name === name);
      if (!column) throw new ServiceError(400, 'unknown_column', `The object ${frame.object} has no output ${name}.`);
      chosen.push(bytes.subarray(column.offset, column.offset + column.byteLength));
    }
    return Buffer.concat(chosen);
  }

  /** The particles of the simulation that people named (the others are "Particle <id>"). */
  async particles(
    userId: string,
    deviceId: string,
    projectId: string,
    simulationId: string,
  ): Promise<SimulationParticleList> {
    const { row } = await this.require('project.read', userId, deviceId, projectId, simulationId);
    return { items: await this.deps.repository.particleNames(row.id) };
  }

  /**
   * Names a particle of an object (spec §5: unique, 'Particle name already exists'). The default name of another
   * particle counts as taken: the card shows it next to this one.
   */
  async renameParticle(
    userId: string,
    deviceId: string,
    projectId: string,
    simulationId: string,
    particle: { object: string; particle: number; name: string },
  ): Promise<SimulationParticle> {
    const { row } = await this.require('project.work', userId, deviceId, projectId, simulationId);
    const manifest = await this.storedManifest(row);
    if (!manifest?.objects.some((o) => o.name === particle.object))
      throw new ServiceError(404, 'not_found', 'This simulation has no such object.');
    const numbered = /^particle\s+(\d+)$/i.exec(particle.name);
    const taken =
      (numbered !== null && Number(numbered[1]) !== particle.particle) ||
      !(await this.deps.unitOfWork.run(async (tx) => {
        const before = (await tx.simulations.particleNames(row.id)).find(
          (named) => named.object === particle.object && named.particle === particle.particle,
        );
        const named = await tx.simulations.nameParticle(row.id, particle.object, particle.particle, particle.name);
        if (named)
          tx.events.record({
            ...simulationEvent(userId, deviceId, row, 'simulation.particle_named'),
            before: { object: particle.object, particle: particle.particle, name: before?.name ?? null },
            after: { object: particle.object, particle: particle.particle, name: particle.name, roomId: row.roomId },
          });
        return named;
      }));
    if (taken) throw new ServiceError(409, 'particle_name_taken', particleNameTakenMessage);
    return { object: particle.object, particle: particle.particle, name: particle.name };
  }

  /**
   * An object's timeline: per saved timestep the min, max and mean of every output (the results page's predefined
   * plots, e.g. the maximum von Mises stress over time) and the values of the chosen particles (the line-graph
   * card, the per-particle CSV). One CPU-pool task: the statistics come from the summaries stored with the frames,
   * and only the chosen particles' values are read from the files.
   */
  async timeline(
    userId: string,
    deviceId: string,
    projectId: string,
    simulationId: string,
    query: { object: string; particles: number[] },
  ): Promise<SimulationTimeline> {
    const { row } = await this.require('project.read', userId, deviceId, projectId, simulationId);
    const manifest = await this.storedManifest(row);
    const object = manifest?.objects.find((o) => o.name === query.object);
    if (!manifest || !object) throw new ServiceError(404, 'not_found', 'This simulation has no such object.');
    const scalars = timelineScalars(object.columns);
    const stats: SimulationTimeline['stats'] = Object.fromEntries(
      scalars.map((s) => [s.name, { min: [], max: [], mean: [] }]),
    );
    const names = new Map(
      (await this.deps.repository.particleNames(row.id))
        .filter((p) => p.object === object.name)
        .map((p) => [p.particle, p.name]),
    );
    const particles: SimulationTimeline['particles'] = query.particles.map((particle) => ({
      particle,
      name: names.get(particle) ?? defaultParticleName(particle),
      values: Object.fromEntries(scalars.map((s) => [s.name, []])),
    }));
    const summaries = await this.storedSummaries(row, object.name);
    const region = row.region as DataRegion;
    const times: number[] = [];
    // The frames' files stay held (never evicted from a local cache) until the pool task has read them.
    const parts = await holdingLocalFiles(this.deps.blobs, async (localFile) => {
      const frames: { path: string; count: number; summary: ObjectSummaries['timesteps'][string] | null }[] = [];
      for (const step of manifest.timesteps) {
        const key = `${object.name}/${step.index}.bin`;
        // Frames after the last stored one (a run still going) are not there yet.
        if (!row.storedFiles.includes(key)) break;
        const file = await localFile(region, `${row.storagePrefix}/out/${key}`);
        if (!file) break;
        frames.push({
          path: file.path,
          count: step.particleCounts?.[object.name] ?? object.particleCount,
          summary: summaries?.timesteps[String(step.index)] ?? null,
        });
        times.push(step.time);
      }
      // One pool task for the whole timeline: stored summaries answer the statistics, the files only the particles.
      return this.deps.cpu.run(objectTimelineTask, { frames, columns: object.columns, particles: query.particles });
    });
    for (const part of parts) {
      for (const scalar of scalars) {
        const s = part.stats[scalar.name]!;
        stats[scalar.name]!.min.push(s.min);
        stats[scalar.name]!.max.push(s.max);
        stats[scalar.name]!.mean.push(s.mean);
      }
      particles.forEach((p, k) => {
        for (const scalar of scalars) p.values[scalar.name]!.push(part.values[k]![scalar.name] ?? null);
      });
    }
    const unitOf = (column: string) => (column === 'position' ? 'mm' : outputUnit(column));
    return {
      object: object.name,
      times,
      outputs: scalars.map((s) => ({
        name: s.name,
        label: s.name === s.column ? outputLabel(s.name) : `${outputLabel(s.column)} ${s.name.slice(-1)}`,
        unit: unitOf(s.column),
      })),
      stats,
      particles,
    };
  }

  /**
   * The run (simulation.performer.ts): waits for a slot of its workspace, fetches its case and, after a crash, its
   * last checkpoint from storage, runs segments in the CPU pool (each ends with a checkpoint that is stored with the
   * new frames), reports progress with simulated time and ETA, stops the engine's thread on a cancel, and fails
   * with a clear message when the run diverges (keeping the frames up to the last good one). Idempotent: a finished
   * or cancelled simulation is left as it is.
   */
  async run(data: SimulationJobData, context: SimulationRunContext): Promise<{ status: string; resumedFrom?: number }> {
    let row = await this.deps.repository.findById(data.simulationId);
    if (!row || row.status === 'completed' || row.status === 'cancelled' || row.status === 'failed')
      return { status: row?.status ?? 'deleted' };
    const deviceId = await this.deps.repository.deviceOf(row.projectId);
    while (!(await this.deps.repository.claim(row.id, deviceId ?? '', this.limit))) {
      const current = await this.deps.repository.findById(row.id);
      if (!current || current.status !== 'queued') return { status: current?.status ?? 'deleted' };
      await delay(SLOT_POLL_MS, context.signal);
    }
    const region = row.region as DataRegion;
    // A folder per attempt: an abandoned attempt still finishing its last write never touches the next one's files.
    const dir = join(this.deps.workDir, `${row.id}-${context.attempt}-${randomUUID().slice(0, 8)}`);
    const cancel = new AbortController();
    const abort = () => cancel.abort(context.signal.reason);
    context.signal.addEventListener('abort', abort, { once: true });
    const watcher = setInterval(() => {
      void this.deps.repository.findById(row!.id).then(
        (current) => {
          if (!current || current.status === 'cancelled') cancel.abort(new Error('cancelled'));
        },
        () => undefined,
      );
    }, CANCEL_POLL_MS);
    try {
      const engineCase = JSON.parse(
        new TextDecoder().decode(await this.required(region, `${row.storagePrefix}/case/case.json`)),
      ) as SphCase;
      const files: Record<string, Uint8Array> = {};
      for (const name of caseFilesOf(engineCase))
        files[name] = await this.required(region, `${row.storagePrefix}/case/${name}`);
      // After a crash: the stored checkpoint, manifest and monitors go back where the engine continues from them.
      let restart: Uint8Array | null = null;
      if (row.storedFiles.includes('checkpoint.bin')) {
        await mkdir(join(dir, 'out'), { recursive: true });
        // The first frames too: the divergence check measures every frame against them.
        const firstFrames = row.storedFiles.filter((name) => /^[A-Za-z0-9_-]+\/0\.bin$/.test(name));
        for (const name of ['manifest.json', 'monitors.csv', 'checkpoint.bin', ...firstFrames]) {
          const bytes = await this.deps.blobs.get(region, `${row.storagePrefix}/out/${name}`);
          if (!bytes) continue;
          await mkdir(dirname(join(dir, 'out', name)), { recursive: true });
          await writeFile(join(dir, 'out', name), bytes);
        }
        restart = await readFile(join(dir, 'out', 'checkpoint.bin'));
      } else if (row.storedFiles.length) {
        // A run stopped before its first checkpoint was stored starts again: its partial outputs go.
        await this.removeStored(region, row.storagePrefix, row.storedFiles, null);
        row = (await this.deps.repository.update(row.id, { storedFiles: [], progress: 0, simulatedTime: 0 }))!;
      }
      // The checkpoint's own time, not the row's (progress may have run past the last stored checkpoint).
      const startTime = restart ? unpackArrays<{ time: number }>(restart).meta.time : 0;
      const ends = segmentEnds(engineCase, startTime);
      const started = Date.now();
      let stored = new Set(row.storedFiles);
      for (const end of ends) {
        const output = await this.deps.cpu.run(
          simulationSegmentTask,
          { dir, engineCase: { ...engineCase, endTime: end }, files, restart, totalEndTime: engineCase.endTime },
          {
            signal: cancel.signal,
            onProgress: (fraction, message) => {
              const time = Number(message ?? fraction * engineCase.endTime);
              const rate = (time - startTime) / Math.max(1e-3, (Date.now() - started) / 1000);
              const eta = rate > 0 ? (engineCase.endTime - time) / rate : null;
              void this.deps.repository
                .update(row!.id, { progress: fraction, simulatedTime: time, etaSeconds: eta })
                .catch(() => undefined);
              void context
                .progress(fraction, `${formatTime(time)} of ${formatTime(engineCase.endTime)}`)
                .catch(() => undefined);
            },
          },
        );
        const keep = output.divergence ? output.divergence.lastGoodTimestep : output.manifest.timesteps.length - 1;
        stored = await this.storeOutputs(row, dir, output, keep, stored, cancel.signal);
        if (output.divergence) {
          await this.finish(row, 'failed', output.divergence.message);
          return { status: 'failed', resumedFrom: startTime };
        }
        restart = await readFile(join(dir, 'out', 'checkpoint.bin'));
        await this.deps.repository.update(row.id, {
          progress: output.time / engineCase.endTime,
          simulatedTime: output.time,
        });
      }
      await this.finish(row, 'completed', null);
      return { status: 'completed', resumedFrom: startTime };
    } catch (error) {
      if (cancel.signal.aborted && !context.signal.aborted) return { status: 'cancelled' };
      if (context.signal.aborted) throw error;
      const message = `The simulation failed: ${error instanceof Error ? error.message : String(error)}`;
      if (context.attempt > simulationJob.retryLimit) await this.finish(row, 'failed', message);
      throw error;
    } finally {
      clearInterval(watcher);
      context.signal.removeEventListener('abort', abort);
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /**
   * Stores the frames up to `lastTimestep` that are not stored yet with their summaries, then monitors, checkpoint
   * and manifest.
   */
  private async storeOutputs(
    row: SimulationRow,
    dir: string,
    { manifest, summaries }: Pick<SimulationSegmentOutput, 'manifest' | 'summaries'>,
    lastTimestep: number,
    stored: Set<string>,
    signal: AbortSignal,
  ): Promise<Set<string>> {
    const region = row.region as DataRegion;
    const out = join(dir, 'out');
    const kept: ResultManifest = { ...manifest, timesteps: manifest.timesteps.slice(0, lastTimestep + 1) };
    const next = new Set(stored);
    for (const object of manifest.objects) {
      for (const step of kept.timesteps) {
        const key = `${object.name}/${step.index}.bin`;
        if (next.has(key)) continue;
        // A cancelled or handed-back attempt stops storing at once (the next attempt stores the same frames).
        signal.throwIfAborted();
        await this.deps.blobs.put(region, `${row.storagePrefix}/out/${key}`, await readFile(join(out, key)));
        next.add(key);
      }
      // The summaries of the kept frames, added to those stored by earlier segments.
      const fresh = Object.entries(summaries[object.name]?.timesteps ?? {}).filter(([k]) => Number(k) <= lastTimestep);
      if (fresh.length > 0) {
        const key = `${object.name}/summary.json`;
        const before = next.has(key)
          ? await this.storedSummaries({ ...row, storedFiles: [...next] }, object.name)
          : null;
        const merged = { timesteps: { ...before?.timesteps, ...Object.fromEntries(fresh) } };
        await this.deps.blobs.put(region, `${row.storagePrefix}/out/${key}`, Buffer.from(JSON.stringify(merged)));
        next.add(key);
      }
    }
    const monitors = await readFile(join(out, 'monitors.csv')).catch(() => null);
    if (monitors) {
      // Rows after the last good timestep go too (the first column is the time in s).
      const last = kept.timesteps.at(-1)?.time ?? 0;
      const lines = monitors.toString('utf8').split('\n');
      const rows = lines.slice(1).filter((l) => l !== '' && Number(l.split(',')[0]) <= last * (1 + 1e-12));
      await this.deps.blobs.put(
        region,
        `${row.storagePrefix}/out/monitors.csv`,
        Buffer.from(`${[lines[0], ...rows].join('\n')}\n`),
      );
      next.add('monitors.csv');
    }
    signal.throwIfAborted();
    // The manifest before the checkpoint: a crash between them leaves a checkpoint older than the manifest, and the
    // engine's restart keeps only the timesteps up to the checkpoint (it saves the newer ones again).
    await this.deps.blobs.put(region, `${row.storagePrefix}/out/manifest.json`, Buffer.from(JSON.stringify(kept)));
    next.add('manifest.json');
    if (lastTimestep === manifest.timesteps.length - 1) {
      const checkpoint = await readFile(join(out, 'checkpoint.bin')).catch(() => null);
      if (checkpoint) {
        await this.deps.blobs.put(region, `${row.storagePrefix}/out/checkpoint.bin`, checkpoint);
        next.add('checkpoint.bin');
      }
    }
    await this.deps.repository.update(row.id, { storedFiles: [...next] });
    return next;
  }

  /**
   * A completed simulation's results as they stand now (for the backfill of work finished before migration 0027,
   * services/result-backfill.ts), or null when it is not a completed simulation.
   */
  async currentResults(simulationId: string): Promise<Record<string, unknown> | null> {
    const row = await this.deps.repository.findById(simulationId);
    return row?.status === 'completed' ? this.resultsOf(row) : null;
  }

  private resultsOf(row: SimulationRow): Promise<Record<string, unknown>> {
    return simulationResults(row, (name) =>
      this.deps.blobs.get(row.region as DataRegion, `${row.storagePrefix}/out/${name}`),
    );
  }

  private async finish(row: SimulationRow, status: 'completed' | 'failed', error: string | null): Promise<void> {
    const deviceId = await this.deps.repository.deviceOf(row.projectId);
    const trialRun = (await this.deps.quietRun?.(row.id)) ?? false;
    const stored = status === 'completed' && this.deps.results ? await this.deps.repository.findById(row.id) : null;
    const results = stored ? await this.resultsOf(stored) : null;
    // The end state and its event (the system, for whoever started the run) commit together; they hear of it from the
    // event (services/job-notifications.ts), a trial's runs only through their trial.
    await this.deps.unitOfWork.run(async (tx) => {
      const done = await tx.simulations.transition(row.id, ['running', 'queued'], {
        status,
        error,
        etaSeconds: null,
        finishedAt: new Date(),
        ...(status === 'completed' ? { progress: 1 } : {}),
      });
      if (!done) return;
      const subject = { objectType: 'simulation', objectId: row.id, deviceId, projectId: row.projectId } as const;
      const snapshot = (await this.deps.results?.keep(tx, subject, results)) ?? null;
      tx.events.record({
        ...systemEvent(
          row.createdBy,
          deviceId,
          row.projectId,
          status === 'completed' ? 'simulation.completed' : 'simulation.failed',
          { type: 'simulation', id: row.id },
          { name: row.name, roomId: row.roomId, status, error, trialRun, ...resultsOf(snapshot) },
        ),
        before: { status: row.status },
      });
    });
  }

  private async require(
    action: 'project.read' | 'project.work',
    userId: string,
    deviceId: string,
    projectId: string,
    simulationId: string,
  ): Promise<{ row: SimulationRow }> {
    await this.deps.projects.require(action, userId, deviceId, projectId);
    const row = await this.deps.repository.find(projectId, simulationId);
    if (!row) throw new ServiceError(404, 'simulation_not_found', simulationNotFoundMessage);
    return { row };
  }

  private async present(row: SimulationRow): Promise<Simulation> {
    const entry = await this.deps.repository.findListRow(row.id);
    if (!entry) throw new ServiceError(404, 'simulation_not_found', simulationNotFoundMessage);
    return toSimulation(entry);
  }

  private async defaultName(roomId: string, kind: SimulationKind): Promise<string> {
    const label = kind[0]!.toUpperCase() + kind.slice(1);
    for (let n = 1; ; n++) {
      const name = `${label} ${n}`;
      if (!(await this.deps.repository.nameTaken(roomId, name))) return name;
    }
  }

  /**
   * The room's patient at its phase: a virtual patient's stored record, or a patient of an imaging cohort (its
   * delivered surface and landmarks, issue 19); one type for the scenario builder either way.
   */
  private async roomPatient(
    grant: RoomGrant,
  ): Promise<{ patient: ScenarioPatient; phase: MeshPhase | null; label: string }> {
    const { room } = grant.row;
    const saved = (room.scene as { view?: { phase?: string | null } }).view?.phase ?? null;
    if (room.imagingDatasetId !== null && room.imagingPatient !== null && this.deps.imagingPatients) {
      const { imagingDatasetId, imagingPatient, projectId } = room;
      const patient = await this.deps.imagingPatients.scenarioPatient(
        projectId,
        imagingDatasetId,
        imagingPatient,
        saved,
      );
      return { patient, phase: null, label: patient.phase };
    }
    if (room.ssmId !== null && this.deps.ssms) {
      // A room on an SSM simulates the shape its view shows (the mean, or standard deviations per mode).
      const patient = await this.deps.ssms.scenarioPatient(room.projectId, room.ssmId, saved ?? 'mean');
      return { patient, phase: null, label: patient.phase };
    }
    if (room.cohortId === null || grant.row.patientId === null)
      throw new ServiceError(409, 'no_anatomy', 'Simulations need a room on a patient or on an SSM.');
    const stored = await this.deps.repository.patientRecord(room.cohortId, grant.row.patientId);
    if (!stored) throw new ServiceError(404, 'not_found', 'The room’s patient is no longer in its cohort.');
    const patient: SyntheticPatient = storedPatient(stored.cohort, stored);
    const phase = saved ? patientPhase(patient, saved) : meshPhasesOf(patient)[0];
    if (!phase) throw new ServiceError(409, 'no_anatomy', `Patient ${patient.id} has no images to simulate.`);
    return { patient, phase, label: phaseLabel(phase) };
  }

  /** The room's patient, phase and placed devices with their STL bytes. */
  private async roomInput(grant: RoomGrant) {
    const { room } = grant.row;
    const { patient, phase, label } = await this.roomPatient(grant);
    const placements = await this.deps.repository.placements(room.id);
    const devices: ScenarioTaskInput['devices'] = [];
    for (const placement of placements) {
      if (placement.versionStatus !== 'ready') continue;
      const stl: Uint8Array[] = [];
      for (const file of placement.files) {
        const bytes = await this.deps.blobs.get(file.region as DataRegion, file.storageKey);
        if (bytes) stl.push(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      }
      if (stl.length)
        devices.push({
          name: placement.versionName,
          transform: placement.transform as unknown as PlacementTransform,
          stl,
        });
    }
    return {
      phase: label,
      placements: placements.filter((p) => p.versionStatus === 'ready'),
      input: { patient, phase, devices },
    };
  }

  private async build(input: ScenarioTaskInput): Promise<ScenarioTaskOutput> {
    return this.deps.cpu.run(scenarioTask, input);
  }

  private async buildChecked(grant: RoomGrant, body: CreateSimulation): Promise<BuiltScenario> {
    return (await this.buildCheckedWithRoom(grant, body)).built;
  }

  private async buildCheckedWithRoom(grant: RoomGrant, body: CreateSimulation) {
    const room = await this.roomInput(grant);
    const output = await this.build({
      ...room.input,
      kind: body.kind,
      resolution: body.resolution,
      parameters: body.parameters ?? {},
    });
    if (!output.ok) throw refusal(output.issues);
    return { built: output.built!, room };
  }

  private async planes(input: Omit<ScenarioTaskInput, 'kind' | 'resolution' | 'parameters'>, kind: SimulationKind) {
    if (kind === 'solid') return null;
    const output = await this.build({ ...input, kind, resolution: 'coarse', parameters: {} });
    const planes = output.ok ? output.built?.planes : null;
    if (!planes) return null;
    const plane = (p: typeof planes.inlet) => ({
      centre: [...p.centre] as [number, number, number],
      normal: [...p.normal] as [number, number, number],
      radius: p.radius,
    });
    return { inlet: plane(planes.inlet), outlet: plane(planes.outlet) };
  }

  private async regionOf(deviceId: string): Promise<DataRegion> {
    return (await this.deps.repository.dataRegionOf(deviceId)) === 'us' ? 'us' : 'eu';
  }

  private async storedManifest(row: SimulationRow): Promise<ResultManifest | null> {
    if (!row.storedFiles.includes('manifest.json')) return null;
    const bytes = await this.deps.blobs.get(row.region as DataRegion, `${row.storagePrefix}/out/manifest.json`);
    return bytes ? (JSON.parse(bytes.toString('utf8')) as ResultManifest) : null;
  }

  /** An object's stored frame summaries (`frame-summary.ts`), or null for a result stored before them. */
  private async storedSummaries(row: SimulationRow, objectName: string): Promise<ObjectSummaries | null> {
    const key = `${objectName}/summary.json`;
    if (!row.storedFiles.includes(key)) return null;
    const bytes = await this.deps.blobs.get(row.region as DataRegion, `${row.storagePrefix}/out/${key}`);
    return bytes ? (JSON.parse(bytes.toString('utf8')) as ObjectSummaries) : null;
  }

  /** A stored frame's bytes and its columns at that timestep's particle count; 404 when it is not stored (yet). */
  private async storedFrame(row: SimulationRow, objectName: string, timestep: number) {
    const manifest = await this.storedManifest(row);
    const object = manifest?.objects.find((o) => o.name === objectName);
    const step = manifest?.timesteps[timestep];
    const key = `${objectName}/${timestep}.bin`;
    const missing = () => new ServiceError(404, 'not_found', 'This simulation has no such output (yet).');
    if (!object || !step || !row.storedFiles.includes(key)) throw missing();
    const bytes = await this.deps.blobs.get(row.region as DataRegion, `${row.storagePrefix}/out/${key}`);
    if (!bytes) throw missing();
    return {
      bytes,
      columns: frameColumnsAt(object.columns, step.particleCounts?.[objectName] ?? object.particleCount),
    };
  }

  private async required(region: DataRegion, key: string): Promise<Uint8Array> {
    const bytes = await this.deps.blobs.get(region, key);
    if (!bytes) throw new Error(`the stored case file ${key} is missing`);
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Removes stored outputs and the named case files (null: keep the case). */
  private async removeStored(
    region: DataRegion,
    prefix: string,
    outputs: readonly string[],
    caseFiles: readonly string[] | null,
  ): Promise<void> {
    for (const file of outputs) await this.deps.blobs.delete(region, `${prefix}/out/${file}`);
    if (caseFiles === null) return;
    for (const file of ['case.json', ...caseFiles]) await this.deps.blobs.delete(region, `${prefix}/case/${file}`);
  }
}

/** The files a case names (STL paths relative to the case). */
/** The event of a change to a simulation (issue 20), in its project. */
function simulationEvent(userId: string, deviceId: string, row: SimulationRow, action: string) {
  return projectEvent(userId, deviceId, row.projectId, action, { type: 'simulation', id: row.id });
}

function caseFilesOf(c: SphCase): string[] {
  const files = new Set<string>();
  if (c.fluid?.vessel) files.add(c.fluid.vessel.file);
  if (c.walls?.vessel) files.add(c.walls.vessel.file);
  const regions = [c.fluid?.region, c.walls?.region, ...c.solids.flatMap((s) => [s.region, s.fixed])];
  for (const region of regions)
    for (const g of [...(region?.shapes ?? []), ...(region?.subtract ?? [])]) if (g.type === 'stl') files.add(g.file);
  return [...files];
}

/**
 * Segment end times: every SEGMENT_TIMESTEPS saved timesteps (every kind resumes from its checkpoint: the engine
 * restores inlets, outlets and the residence time's entry times; packages/sph NOTES).
 */
function segmentEnds(c: SphCase, from: number): number[] {
  const ends: number[] = [];
  const step = c.outputInterval * SEGMENT_TIMESTEPS;
  for (let k = Math.floor(from / step + 1e-9) + 1; k * step < c.endTime * (1 - 1e-9); k++) ends.push(k * step);
  ends.push(c.endTime);
  return ends;
}

function refusal(issues: readonly ParameterIssue[]): ServiceError {
  return new ServiceError(422, 'simulation_setup_invalid', issues.map((i) => i.message).join(' '), {
    issues: issues.map((i) => ({ key: i.key, message: i.message })),
  });
}

function toSimulation(entry: SimulationListRow): Simulation {
  const s = entry.simulation;
  return {
    id: s.id,
    projectId: s.projectId,
    roomId: s.roomId,
    roomName: entry.roomName,
    name: s.name,
    kind: s.kind,
    resolution: s.resolution,
    phase: s.phase,
    status: s.status,
    progress: s.progress,
    simulatedTime: s.simulatedTime,
    endTime: s.endTime,
    etaSeconds: s.etaSeconds,
    error: s.error,
    deviceVersion: s.deviceVersionName ? { id: s.deviceVersionId, name: s.deviceVersionName } : null,
    parameters: s.parameters as Simulation['parameters'],
    estimate: s.estimate as Simulation['estimate'],
    scenarioVersion: s.scenarioVersion,
    createdBy: s.createdBy && entry.createdByName ? { id: s.createdBy, name: entry.createdByName } : null,
    createdAt: s.createdAt.toISOString(),
    finishedAt: s.finishedAt?.toISOString() ?? null,
  };
}

function finishedWord(status: SimulationRow['status']): string {
  return status === 'completed' ? 'finished' : status === 'failed' ? 'failed' : 'been cancelled';
}

function formatTime(seconds: number): string {
  return `${(seconds * 1000).toPrecision(3)} ms`;
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
