import { createHash, randomUUID } from 'node:crypto';
import { phaseLabel, type MeshPhaseInput, type SyntheticPatient } from '@insilico/anatomy';
import {
  pathOf,
  placementRuleSchema,
  roomNameMaxLength,
  roomNameTakenMessage,
  simulationResolutionMessage,
  trialEndpoints,
  trialNameMaxLength,
  trialNameTakenMessage,
  trialNotFoundMessage,
  trialOutcomeDefinitions,
  trialOutcomeParameter,
  customOutcomeDefinition,
  customOutcomeProblem,
  type CreateTrialBody,
  type FrameColumn,
  type PlacementRule,
  type ReplaceCustomOutcomes,
  type StoredCustomOutcome,
  type Trial,
  type TrialAcceptance,
  type TrialCounts,
  type TrialDetail,
  type TrialList,
  type TrialOutcomeColumns,
  type TrialReport,
  type TrialReportList,
  type TrialPatient,
  type TrialPatientStatus,
  type TrialSetup,
} from '@insilico/contracts';
import {
  resolveParameters,
  type PlacementTransform,
  type DeliveredPatient,
  type RulePlacement,
  type ScenarioPatient,
} from '@insilico/scenarios';
import type { Manifest } from '@insilico/sph';
import type { ObjectSummaries } from '../cpu/frame-summary';
import { frameTimelineTask } from '../cpu/frame-timeline.task';
import type { CpuRunner } from '../cpu/pool';
import { trialGapTask } from '../cpu/trial-gap.task';
import { trialDeliveredPlacementTask, trialPlacementTask } from '../cpu/trial-placement.task';
import { trialReportTask } from '../cpu/trial-report.task';
import { projectEvent, systemEvent } from '../events/kinds';
import { simulationJob } from '../jobs/simulation.job';
import { trialOutcomesJob, type TrialOutcomesJobData } from '../jobs/trial-outcomes.job';
import { trialPatientJob, type TrialPatientJobData } from '../jobs/trial-patient.job';
import { trialReportJob } from '../jobs/trial-report.job';
import { decideProject } from '../policies/project.policy';
import type { BlobStore, DataRegion } from '../repositories/blob.repository';
import type { SimulationRepository, SimulationRow } from '../repositories/simulation.repository';
import type {
  TrialListRow,
  TrialPatientRow,
  TrialPatientWithRun,
  TrialReportRow,
  TrialRepository,
  TrialRow,
  TrialSubjectPatient,
} from '../repositories/trial.repository';
import type { UnitOfWork } from '../repositories/unit-of-work';
import { storedPatient } from './cohort-records';
import { meshPhasesOf } from './cohort-mesh.service';
import { ServiceError } from './errors';
import type { ImagingPatientService } from './imaging-patient.service';
import type { NotificationService } from './notification.service';
import type { ProjectAccessService } from './project-access.service';
import type { RoomService } from './room.service';
import type { SimulationService } from './simulation.service';
import { ssmShapeLabel, type SsmService } from './ssm.service';
import {
  currentOutcomeValues,
  customOutcomeHistory,
  evaluateCustomOutcomes,
  firstHistory,
  firstVersions,
  planCustomOutcomeChange,
  storedCustomOutcomes,
  trialOutcomesOf,
  versionOf,
  type StepStats,
} from './trial-custom-outcomes';
import { computeOutcomes, type FrameMaxima } from './trial-outcomes';
import { compareTrials, trialComparison } from './trial-comparison';
import { trialOutcomesCsv } from './trial-csv';
import { instancePopulation } from './trial-population';
import type { TrialReportInput } from './trial-report';
import { resultsOf, type ResultKeeper } from './result-snapshots';
import { trialResults } from './result-snapshot-contents';

export interface TrialServiceDeps {
  repository: TrialRepository;
  simulationRepository: SimulationRepository;
  simulations: SimulationService;
  rooms: RoomService;
  projects: ProjectAccessService;
  blobs: BlobStore;
  unitOfWork: UnitOfWork;
  cpu: CpuRunner;
  /** The creator hears when an automatic re-run is refused (no change of a record: no event to follow). */
  notifications: NotificationService;
  /** The server's version, written into reports' provenance. */
  codeVersion?: string;
  /** Keeps a finished trial's outcomes table as a snapshot named by its event (issue 20 item 7). */
  results?: ResultKeeper;
  /** The shapes of SSMs, for trials on an SSM's named instances (their aortic root surface and landmarks). */
  ssms?: SsmService;
  /** The patients of the project's imaging cohorts: trials on their delivered anatomy (issue 19 item 7). */
  imagingPatients?: Pick<ImagingPatientService, 'trialSubject' | 'readyCohorts' | 'scenarioPatient'>;
}

/** The frame object each kind's outcomes read (the manifest's object kind). */
const OUTCOME_OBJECT = { fluid: 'fluid', solid: 'solid', particle: 'particles' } as const;

/**
 * In-silico trials (issue 17): one set-up applied to every patient of one of the project's cohorts. Create checks the
 * set-up and queues one `trial.patient` job per patient; that job places the device by the rule, makes the patient's
 * room and its simulation as the trial's creator (the simulation's own job runs it), and after the run the outcomes
 * are read from its stored outputs. Reading needs `project.read`, starting, cancelling and retrying `project.work`.
 * See docs/decisions/trials.md.
 */
export class TrialService {
  constructor(private readonly deps: TrialServiceDeps) {}

  async list(userId: string, deviceId: string, projectId: string): Promise<TrialList> {
    const access = await this.deps.projects.require('project.read', userId, deviceId, projectId);
    const canRun = decideProject('project.work', access.standing).allowed;
    const rows = await this.deps.repository.list(projectId);
    const patients = await this.deps.repository.patients(rows.map((r) => r.trial.id));
    return {
      items: rows.map((row) =>
        toTrial(
          row,
          patients.filter((p) => p.patient.trialId === row.trial.id),
          canRun,
        ),
      ),
      canRun,
    };
  }

  /** A new trial's choices: the project's ready cohorts and device versions, and the operator's test switch. */
  async setup(userId: string, deviceId: string, projectId: string): Promise<TrialSetup> {
    const access = await this.deps.projects.require('project.read', userId, deviceId, projectId);
    const choices = await this.deps.repository.choices(projectId);
    const imaging = (await this.deps.imagingPatients?.readyCohorts(projectId)) ?? [];
    return {
      ...choices,
      cohorts: [...choices.cohorts, ...imaging.map((c) => ({ ...c, source: 'imaging' as const }))],
      testResolution: await this.deps.simulations.testResolutionAllowed(deviceId),
      canRun: decideProject('project.work', access.standing).allowed,
    };
  }

  async get(userId: string, deviceId: string, projectId: string, trialId: string): Promise<TrialDetail> {
    const { row, canRun } = await this.require('project.read', userId, deviceId, projectId, trialId);
    return this.present(row, canRun);
  }

  /** Device CI: the trial's set-up again on another device version (or the same one), linked to it for comparison. */
  async rerun(
    userId: string,
    deviceId: string,
    projectId: string,
    trialId: string,
    body: { versionId: string; name: string },
  ): Promise<TrialDetail> {
    const { row } = await this.require('project.work', userId, deviceId, projectId, trialId);
    return this.create(userId, deviceId, projectId, setupOf(row.trial, body.versionId, body.name), row.trial.id, {
      acceptance: row.trial.acceptance,
      autoRerun: false,
      customOutcomes: storedCustomOutcomes(row.trial),
    });
  }

  /**
   * The acceptance criteria (outcome → bounds) and the automatic re-run switch (project.work): a criterion on an
   * outcome the kind does not define is refused (422), nothing changed.
   */
  async update(
    userId: string,
    deviceId: string,
    projectId: string,
    trialId: string,
    body: { acceptance?: TrialAcceptance | undefined; autoRerun?: boolean | undefined },
  ): Promise<TrialDetail> {
    const { row } = await this.require('project.work', userId, deviceId, projectId, trialId);
    const keys: readonly string[] = trialOutcomesOf(row.trial).map((d) => d.key);
    const unknown = Object.keys(body.acceptance ?? {}).filter((key) => !keys.includes(key));
    if (unknown.length > 0)
      throw new ServiceError(
        422,
        'unknown_outcome',
        `A ${row.trial.kind} trial has no outcome ${unknown.join(', ')}. Choose one of: ${keys.join(', ')}.`,
      );
    const values = {
      ...(body.acceptance !== undefined ? { acceptance: body.acceptance } : {}),
      ...(body.autoRerun !== undefined ? { autoRerun: body.autoRerun } : {}),
    };
    await this.deps.unitOfWork.run(async (tx) => {
      await tx.trials.update(trialId, values);
      tx.events.record({
        ...projectEvent(userId, deviceId, projectId, 'trial.settings_changed', { type: 'trial', id: trialId }),
        before: {
          name: row.trial.name,
          ...(body.acceptance !== undefined ? { acceptance: row.trial.acceptance } : {}),
          ...(body.autoRerun !== undefined ? { autoRerun: row.trial.autoRerun } : {}),
        },
        after: values,
      });
    });
    return this.get(userId, deviceId, projectId, trialId);
  }

  /**
   * Device CI, automatically: a device version became ready on the project (processed with the project as its target,
   * or added to it). Each of the project's trials with automatic re-run on is re-run on it as its creator, once (a
   * trial already re-run on that version, or on it already, is left); a refusal (the creator lost access, the cohort
   * went) tells the creator instead. Errors other than refusals throw: the caller's job retries.
   */
  async versionReady(projectId: string, versionId: string): Promise<void> {
    const deviceId = await this.deps.simulationRepository.deviceOf(projectId);
    const version = await this.deps.repository.projectVersion(projectId, versionId);
    if (!deviceId || version?.status !== 'ready') return;
    for (const trial of await this.deps.repository.autoRerunTrials(projectId)) {
      if (!trial.createdBy || trial.deviceVersionId === versionId) continue;
      if (await this.deps.repository.rerunOn(trial.id, versionId)) continue;
      const name = await this.rerunName(projectId, trial.name, version.name);
      try {
        await this.create(trial.createdBy, deviceId, projectId, setupOf(trial, versionId, name), trial.id, {
          acceptance: trial.acceptance,
          autoRerun: true,
          customOutcomes: storedCustomOutcomes(trial),
        });
      } catch (error) {
        if (!(error instanceof ServiceError)) throw error;
        await this.deps.notifications.post({
          userId: trial.createdBy,
          kind: 'trial.rerun_failed',
          title: `Trial ${trial.name} was not re-run on ${version.name}`,
          body: error.message,
          link: trialPagePath(projectId, trial.id, deviceId),
          dedupeKey: `trial:${trial.id}:rerun:${versionId}`,
        });
      }
    }
  }

  /** `<trial> – <version>` within the name limit, numbered when a trial of the project already has it. */
  private async rerunName(projectId: string, trialName: string, versionName: string): Promise<string> {
    for (let n = 1; n <= 20; n++) {
      const suffix = ` – ${versionName}${n === 1 ? '' : ` (${n})`}`;
      const name = `${trialName.slice(0, Math.max(1, trialNameMaxLength - suffix.length))}${suffix}`.slice(
        0,
        trialNameMaxLength,
      );
      if (!(await this.deps.repository.nameTaken(projectId, name))) return name;
    }
    return `${trialName.slice(0, trialNameMaxLength - 9)} – ${Date.now().toString(36)}`.slice(0, trialNameMaxLength);
  }

  async create(
    userId: string,
    deviceId: string,
    projectId: string,
    body: CreateTrialBody,
    basedOnTrialId: string | null = null,
    /** A re-run's: the criteria, the switch, and the user outcomes with their keys and versions (compared by key). */
    inherit: { acceptance: TrialAcceptance; autoRerun: boolean; customOutcomes?: StoredCustomOutcome[] } = {
      acceptance: {},
      autoRerun: false,
    },
  ): Promise<TrialDetail> {
    await this.deps.projects.require('project.work', userId, deviceId, projectId);
    if (body.resolution === 'test' && !(await this.deps.simulations.testResolutionAllowed(deviceId)))
      throw new ServiceError(422, 'trial_setup_invalid', simulationResolutionMessage);
    if (await this.deps.repository.nameTaken(projectId, body.name))
      throw new ServiceError(409, 'trial_name_taken', trialNameTakenMessage);
    const subject = await this.subjectOf(projectId, body);
    const version = await this.deps.repository.projectVersion(projectId, body.versionId);
    if (!version) throw new ServiceError(422, 'version_not_in_project', 'Choose a device version of this project.');
    if (version.status !== 'ready')
      throw new ServiceError(
        422,
        'version_not_ready',
        `The device version ${version.name} has not finished processing. Choose a ready version.`,
      );
    const { patients } = subject;
    // The parameters are checked against the first patient's defaults: ranges and keys are the same for every one.
    const { issues } = resolveParameters(body.kind, await subject.first(), body.parameters ?? {});
    if (issues.length > 0)
      throw new ServiceError(422, 'trial_setup_invalid', issues.map((i) => i.message).join(' '), {
        issues: issues.map((i) => ({ key: i.key, message: i.message })),
      });
    // The user's outcomes: each from the kind's catalogue, each name once among all the trial's outcomes.
    const labels: string[] = trialOutcomeDefinitions[body.kind].map((d) => d.label);
    for (const outcome of body.customOutcomes) {
      const problem = customOutcomeProblem(body.kind, outcome, labels);
      if (problem) throw new ServiceError(422, 'trial_outcome_invalid', problem);
      labels.push(outcome.label);
    }
    const customOutcomes = inherit.customOutcomes ?? firstVersions(body.customOutcomes);
    const trial = await this.deps.unitOfWork.run(async (tx) => {
      const created = await tx.trials.create(
        {
          projectId,
          cohortId: subject.cohortId,
          ssmId: subject.ssmId,
          imagingDatasetId: subject.imagingDatasetId,
          deviceVersionId: version.id,
          deviceVersionName: version.name,
          name: body.name,
          kind: body.kind,
          resolution: body.resolution,
          parameters: body.parameters ?? {},
          placement: { ...body.placement },
          customOutcomes,
          customOutcomeHistory: firstHistory(customOutcomes, new Date().toISOString(), userId),
          basedOnTrialId,
          createdBy: userId,
          acceptance: inherit.acceptance,
          autoRerun: inherit.autoRerun,
        },
        patients,
      );
      if (!created) return null;
      // Device CI: the automatic re-run flag moves to the newest trial of the chain (one re-run per new version).
      if (basedOnTrialId && inherit.autoRerun) await tx.trials.update(basedOnTrialId, { autoRerun: false });
      tx.events.record({
        ...projectEvent(userId, deviceId, projectId, basedOnTrialId ? 'trial.rerun' : 'trial.started', {
          type: 'trial',
          id: created.id,
        }),
        after: {
          name: created.name,
          kind: body.kind,
          resolution: body.resolution,
          ...(subject.ssmId
            ? { ssmId: subject.ssmId }
            : subject.imagingDatasetId
              ? { imagingDatasetId: subject.imagingDatasetId }
              : { cohortId: subject.cohortId }),
          deviceVersionId: version.id,
          placement: { ...body.placement },
          parameters: body.parameters ?? {},
          ...(body.customOutcomes.length > 0 ? { customOutcomes: body.customOutcomes } : {}),
          patients: patients.length,
          basedOnTrialId,
        },
      });
      // One durable job per patient, committed with the rows (docs/decisions/one-transaction-idiom.md).
      for (const p of patients)
        await tx.jobs.enqueue(trialPatientJob, { trialId: created.id, patientId: p.patientId }, userId);
      return created;
    });
    if (!trial) throw new ServiceError(409, 'trial_name_taken', trialNameTakenMessage);
    return this.get(userId, deviceId, projectId, trial.id);
  }

  /**
   * What the trial runs on: one of the project's ready cohorts (its patients), one of its ready imaging cohorts (its
   * delivered patients, `cohortId` naming the dataset), or one of its ready SSMs (its named instances: the rooms on
   * its saved shapes, each a patient keyed by its room). 4xx in words otherwise, nothing stored. `first` gives the
   * first patient's anatomy, against whose defaults the parameters are checked.
   */
  private async subjectOf(
    projectId: string,
    body: CreateTrialBody,
  ): Promise<{
    cohortId: string | null;
    ssmId: string | null;
    imagingDatasetId: string | null;
    patients: TrialSubjectPatient[];
    first: () => Promise<ScenarioPatient>;
  }> {
    if ((body.cohortId === undefined) === (body.ssmId === undefined))
      throw new ServiceError(
        422,
        'trial_subject_invalid',
        body.cohortId === undefined
          ? 'Choose one of the project’s cohorts or one of its shape models.'
          : 'Choose a cohort or a shape model, not both.',
      );
    if (body.ssmId !== undefined) {
      const ssm = await this.deps.repository.projectSsm(projectId, body.ssmId);
      if (!ssm || !this.deps.ssms)
        throw new ServiceError(422, 'ssm_not_in_project', 'Choose one of the project’s shape models.');
      if (ssm.status !== 'ready')
        throw new ServiceError(409, 'ssm_not_ready', `The shape model ${ssm.name} is not ready yet.`);
      const patients = await this.deps.repository.ssmInstances(projectId, ssm.id);
      if (patients.length === 0)
        throw new ServiceError(
          422,
          'ssm_no_instances',
          `The shape model ${ssm.name} has no named instances. Create one from its page (a room on a shape) first.`,
        );
      const ssms = this.deps.ssms;
      const shape = patients[0]?.instance?.shape ?? 'mean';
      const first = () => ssms.scenarioPatient(projectId, ssm.id, shape);
      return { cohortId: null, ssmId: ssm.id, imagingDatasetId: null, patients, first };
    }
    const cohort = await this.deps.repository.projectCohort(projectId, body.cohortId!);
    if (!cohort) return this.imagingSubject(projectId, body.cohortId!);
    if (cohort.status !== 'ready')
      throw new ServiceError(409, 'cohort_not_ready', `The cohort ${cohort.name} is not ready yet.`);
    const patients = await this.deps.repository.cohortPatients(cohort.id);
    if (patients.length === 0)
      throw new ServiceError(422, 'cohort_empty', `The cohort ${cohort.name} has no patients.`);
    const first = async () => {
      const stored = await this.deps.simulationRepository.patientRecord(cohort.id, patients[0]!.patientId);
      if (!stored) throw new ServiceError(409, 'cohort_not_ready', `The cohort ${cohort.name} cannot be read.`);
      return storedPatient(stored.cohort, stored);
    };
    return { cohortId: cohort.id, ssmId: null, imagingDatasetId: null, patients, first };
  }

  /**
   * One of the project's ready imaging cohorts as the trial's subject: its delivered patients in the cohort's order
   * (what each lacks for the rule is that patient's failure, not the trial's). 422 for a dataset of no project of
   * this one, 409 while its models are being made.
   */
  private async imagingSubject(projectId: string, datasetId: string) {
    const imaging = this.deps.imagingPatients;
    const dataset = imaging ? await imaging.trialSubject(projectId, datasetId) : null;
    if (!imaging || !dataset)
      throw new ServiceError(422, 'cohort_not_in_project', 'Choose one of the project’s cohorts.');
    if (dataset.patients.length === 0)
      throw new ServiceError(422, 'cohort_empty', `The cohort ${dataset.name} has no patients.`);
    const patients = dataset.patients.map((p, i) => ({ patientId: p.id, patientIndex: i }));
    const first = () => imaging.scenarioPatient(projectId, dataset.id, dataset.patients[0]!.id, null);
    return { cohortId: null, ssmId: null, imagingDatasetId: dataset.id, patients, first };
  }

  /** Stops the trial: patients not prepared yet are not, queued and running runs are cancelled. */
  async cancel(userId: string, deviceId: string, projectId: string, trialId: string): Promise<TrialDetail> {
    const { row, canRun } = await this.require('project.work', userId, deviceId, projectId, trialId);
    const patients = await this.deps.repository.patients([trialId]);
    const status = toTrial(row, patients, canRun).status;
    if (status !== 'running')
      throw new ServiceError(
        409,
        'trial_not_running',
        status === 'cancelled' ? 'The trial has already been cancelled.' : 'The trial has already finished.',
      );
    await this.deps.unitOfWork.run(async (tx) => {
      await tx.trials.update(trialId, { cancelledAt: new Date() });
      tx.events.record({
        ...projectEvent(userId, deviceId, projectId, 'trial.cancelled', { type: 'trial', id: trialId }),
        before: { status },
        after: { status: 'cancelled', name: row.trial.name },
      });
      for (const p of patients)
        if (p.patient.simulationId && (p.run?.status === 'queued' || p.run?.status === 'running'))
          await tx.simulations.transition(p.patient.simulationId, ['queued', 'running'], {
            status: 'cancelled',
            etaSeconds: null,
            finishedAt: new Date(),
          });
    });
    return this.get(userId, deviceId, projectId, trialId);
  }

  /**
   * Deletes the trial: its queued and running runs are cancelled and its patient rows, outcomes (they leave the
   * population analysis) and reports go, in one transaction with the `trial.deleted` event. The rooms and simulations
   * it made stay: they are ordinary rooms of the project, deleted one by one like any other (docs/decisions/trials.md).
   */
  async remove(userId: string, deviceId: string, projectId: string, trialId: string): Promise<void> {
    const { row, canRun } = await this.require('project.work', userId, deviceId, projectId, trialId);
    const patients = await this.deps.repository.patients([trialId]);
    const trial = toTrial(row, patients, canRun);
    const reports = await this.deps.unitOfWork.run(async (tx) => {
      const stored = await tx.trials.reports(trialId);
      let cancelledRuns = 0;
      for (const p of patients)
        if (p.patient.simulationId && (p.run?.status === 'queued' || p.run?.status === 'running')) {
          const moved = await tx.simulations.transition(p.patient.simulationId, ['queued', 'running'], {
            status: 'cancelled',
            etaSeconds: null,
            finishedAt: new Date(),
          });
          if (moved) cancelledRuns++;
        }
      await tx.trials.delete(trialId);
      tx.events.record({
        ...projectEvent(userId, deviceId, projectId, 'trial.deleted', { type: 'trial', id: trialId }),
        before: {
          name: row.trial.name,
          status: trial.status,
          counts: { ...trial.counts },
          cohortId: row.trial.cohortId,
          ...(row.trial.ssmId ? { ssmId: row.trial.ssmId } : {}),
          ...(row.trial.imagingDatasetId ? { imagingDatasetId: row.trial.imagingDatasetId } : {}),
          deviceVersionId: row.trial.deviceVersionId,
          rooms: patients.flatMap((p) => (p.patient.roomId ? [p.patient.roomId] : [])),
        },
        after: { cancelledRuns },
      });
      return stored;
    });
    for (const report of reports) await this.deps.blobs.delete(report.region as DataRegion, report.storageKey);
  }

  /**
   * Runs the failed and cancelled patients again, never the finished ones. A corrected placement rule, when sent,
   * becomes the trial's and places the patients that failed before their run existed (placement or case building).
   */
  async retry(
    userId: string,
    deviceId: string,
    projectId: string,
    trialId: string,
    placement: PlacementRule | undefined,
  ): Promise<TrialDetail> {
    const { row } = await this.require('project.work', userId, deviceId, projectId, trialId);
    const patients = await this.deps.repository.patients([trialId]);
    const again = patients.filter((p) => {
      const status = patientStatus(row.trial, p);
      return status === 'failed' || status === 'cancelled';
    });
    if (again.length === 0)
      throw new ServiceError(409, 'trial_not_retryable', 'No patient of this trial failed or was cancelled.');
    await this.deps.unitOfWork.run(async (tx) => {
      await tx.trials.update(trialId, { cancelledAt: null, ...(placement ? { placement: { ...placement } } : {}) });
      tx.events.record({
        ...projectEvent(userId, deviceId, projectId, 'trial.retried', { type: 'trial', id: trialId }),
        before: { placement: row.trial.placement },
        after: {
          name: row.trial.name,
          placement: placement ? { ...placement } : row.trial.placement,
          patients: again.map((p) => p.patient.patientId),
        },
      });
      for (const p of again) {
        const simulationId = p.patient.simulationId;
        const runAgain = simulationId && p.patient.stage === null && p.run && p.run.status !== 'completed';
        if (runAgain) {
          const moved = await tx.simulations.transition(simulationId, ['failed', 'cancelled'], {
            status: 'queued',
            error: null,
            finishedAt: null,
          });
          if (moved) {
            const job = await tx.jobs.enqueue(simulationJob, { simulationId }, userId);
            await tx.simulations.update(simulationId, { jobId: job.id });
          }
          continue;
        }
        // Placed again, by the trial's rule now: the record of the rule it failed by goes with the failure (the
        // `trial.retried` event keeps both rules and the patients).
        await tx.trials.updatePatient(trialId, p.patient.patientId, { stage: null, error: null, placement: null });
        await tx.jobs.enqueue(trialPatientJob, { trialId, patientId: p.patient.patientId }, userId);
      }
    });
    return this.get(userId, deviceId, projectId, trialId);
  }

  /** The trial's reports, newest first (project.read). */
  async reports(userId: string, deviceId: string, projectId: string, trialId: string): Promise<TrialReportList> {
    await this.require('project.read', userId, deviceId, projectId, trialId);
    const rows = await this.deps.repository.reports(trialId);
    const names = await this.deps.repository.userNames(rows.flatMap((r) => (r.createdBy ? [r.createdBy] : [])));
    return { items: rows.map((r) => toReport(r, names, deviceId, projectId)) };
  }

  /**
   * Asks for a report (project.read: whoever sees the trial may have its report): the row and its job commit with the
   * `trial.report_requested` event; the job renders and stores the PDF.
   */
  async requestReport(userId: string, deviceId: string, projectId: string, trialId: string): Promise<TrialReport> {
    const { row } = await this.require('project.read', userId, deviceId, projectId, trialId);
    const region = ((await this.deps.simulationRepository.dataRegionOf(deviceId)) ?? 'eu') as DataRegion;
    const report = await this.deps.unitOfWork.run(async (tx) => {
      const id = randomUUID();
      const created = await tx.trials.createReport({
        id,
        trialId,
        region,
        storageKey: `trials/${trialId}/reports/${id}.pdf`,
        createdBy: userId,
      });
      tx.events.record({
        ...projectEvent(userId, deviceId, projectId, 'trial.report_requested', { type: 'trial', id: trialId }),
        after: { name: row.trial.name, reportId: id },
      });
      await tx.jobs.enqueue(trialReportJob, { reportId: id }, userId);
      return created;
    });
    const names = await this.deps.repository.userNames([userId]);
    return toReport(report, names, deviceId, projectId);
  }

  /** A ready report's PDF bytes (project.read); 404 while it is not ready. */
  async reportFile(
    userId: string,
    deviceId: string,
    projectId: string,
    trialId: string,
    reportId: string,
  ): Promise<{ bytes: Buffer; fileName: string; sha256: string }> {
    const { row } = await this.require('project.read', userId, deviceId, projectId, trialId);
    const report = await this.deps.repository.report(trialId, reportId);
    const bytes =
      report?.status === 'ready' ? await this.deps.blobs.get(report.region as DataRegion, report.storageKey) : null;
    if (!report || !bytes)
      throw new ServiceError(404, 'trial_report_not_found', 'This report is not ready or does not exist.');
    const stamp = report.createdAt.toISOString().slice(0, 10);
    const safe = fileStem(row.trial.name);
    return { bytes, fileName: `${safe}-report-${stamp}.pdf`, sha256: report.sha256 ?? '' };
  }

  /**
   * The `trial.report` job: gathers the trial as it stands (set-up, cohort, outcomes, criteria, failures, runs), renders
   * the PDF in the CPU pool and stores it once with its SHA-256. A report already stored is left as it is.
   */
  async buildReport(reportId: string): Promise<{ status: string }> {
    const report = await this.deps.repository.reportById(reportId);
    if (!report) return { status: 'deleted' };
    if (report.status !== 'queued') return { status: report.status };
    const trial = await this.deps.repository.findById(report.trialId);
    const listRow = trial ? await this.deps.repository.find(trial.projectId, trial.id) : null;
    if (!trial || !listRow) return { status: 'deleted' };
    const patients = await this.deps.repository.patients([trial.id]);
    const subject = await this.reportSubject(trial, patients);
    if (!subject) return { status: 'deleted' };
    const labelOf = new Map(patients.map((p, i) => [p.patient.patientId, subject.labels[i]!]));
    const summary = toTrial(listRow, patients, false);
    const base = trial.basedOnTrialId ? await this.deps.repository.findById(trial.basedOnTrialId) : null;
    const runs = await this.deps.repository.runProvenance(
      patients.flatMap((p) => (p.patient.simulationId ? [p.patient.simulationId] : [])),
    );
    const runOf = new Map(runs.map((r) => [r.simulationId, r]));
    const names = await this.deps.repository.userNames(
      [report.createdBy, trial.createdBy].filter((id): id is string => id !== null),
    );
    const first = runs[0] ?? null;
    const acceptance = trial.acceptance;
    const custom = storedCustomOutcomes(trial);
    const input: TrialReportInput = {
      generatedAt: report.createdAt.toISOString(),
      generatedBy: report.createdBy ? (names.get(report.createdBy) ?? null) : null,
      trial: {
        id: trial.id,
        name: trial.name,
        status: summary.status,
        kind: trial.kind,
        resolution: trial.resolution,
        deviceVersionName: trial.deviceVersionName,
        basedOn: base ? { name: base.name, deviceVersionName: base.deviceVersionName } : null,
        createdAt: trial.createdAt.toISOString(),
        createdBy: summary.createdBy?.name ?? null,
        placement: trial.placement as unknown as PlacementRule,
        parameters: trial.parameters,
        counts: summary.counts,
      },
      subject: subject.subject,
      patients: patients.map((p, i) => {
        const shown = toPatient(trial, p);
        const label = subject.labels[i]!;
        const { patientId, status, stage, error, placement } = shown;
        return { patientId, label, status, stage, error, placement };
      }),
      outcomes: trialOutcomesOf(trial).map((d) => ({
        ...d,
        values: patients.map((p) => currentOutcomeValues(custom, p.patient).values?.[d.key] ?? null),
        criterion: acceptance[d.key] ?? null,
      })),
      comparison: base ? await this.reportComparison(base, { trial, patients }, labelOf) : null,
      solver: {
        resolvedParameters: first?.parameters ?? null,
        scenarioVersion: first?.scenarioVersion ?? null,
        endTime_s: first?.endTime ?? null,
      },
      provenance: {
        codeVersion: this.deps.codeVersion ?? 'unknown',
        workers: [...new Set(runs.flatMap((r) => (r.workerId ? [r.workerId] : [])))].sort(),
        runs: patients.flatMap((p) => {
          const run = p.patient.simulationId ? runOf.get(p.patient.simulationId) : undefined;
          if (!run) return [];
          const seconds =
            run.startedAt && run.finishedAt ? (run.finishedAt.getTime() - run.startedAt.getTime()) / 1000 : null;
          const label = labelOf.get(p.patient.patientId) ?? p.patient.patientId;
          return [{ label, workerId: run.workerId, attempts: run.attempts, seconds }];
        }),
      },
    };
    const bytes = await this.deps.cpu.run(trialReportTask, input);
    await this.deps.blobs.put(report.region as DataRegion, report.storageKey, bytes);
    await this.deps.repository.updateReport(report.id, {
      status: 'ready',
      bytes: bytes.byteLength,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      finishedAt: new Date(),
    });
    return { status: 'ready' };
  }

  /**
   * What a report says the trial ran on, and how it names each patient: a cohort (its description; patients by id), an
   * imaging cohort (the user's own data, never called synthetic; patients by id), or an SSM (its model card and
   * modes; each named instance by its name and shape, with its mode scores). Null when the cohort or the SSM is gone.
   */
  private async reportSubject(
    trial: TrialRow,
    patients: readonly TrialPatientWithRun[],
  ): Promise<{ subject: TrialReportInput['subject']; labels: string[] } | null> {
    if (trial.cohortId !== null) {
      const cohort = await this.deps.repository.cohortDescription(trial.cohortId);
      return cohort && { subject: { kind: 'cohort', ...cohort }, labels: patients.map((p) => p.patient.patientId) };
    }
    if (trial.imagingDatasetId !== null) {
      const dataset = await this.deps.imagingPatients
        ?.trialSubject(trial.projectId, trial.imagingDatasetId)
        .catch((error: unknown) => (error instanceof ServiceError ? null : Promise.reject(error)));
      if (!dataset) return null;
      const { id, name, readyAt } = dataset;
      const subject = { kind: 'imaging' as const, id, name, readyAt, patients: dataset.patients.length };
      return { subject, labels: patients.map((p) => p.patient.patientId) };
    }
    const ssm = trial.ssmId !== null ? await this.deps.ssms?.describe(trial.projectId, trial.ssmId) : null;
    if (!ssm?.modelCard) return null;
    const card = ssm.modelCard;
    const instances = patients.map((p) => toPatient(trial, p).instance ?? { name: p.patient.patientId, shape: 'mean' });
    const population = instancePopulation(
      { id: ssm.id, name: ssm.name, modeCount: ssm.modes?.length ?? 0 },
      instances.map((i, k) => ({ id: patients[k]!.patient.patientId, ...i })),
      [],
    );
    const kept = ssm.quality?.modesKept ?? null;
    return {
      subject: {
        kind: 'ssm',
        id: ssm.id,
        name: ssm.name,
        builtAt: ssm.readyAt,
        codeVersion: card.codeVersion,
        meshModelVersion: card.meshModelVersion,
        seed: card.seed,
        cohorts: card.cohorts.map((c) => c.name),
        shapes: card.shapes,
        organs: card.organs,
        phase: card.phase,
        correspondence: card.correspondence,
        alignment: card.alignment,
        modeCount: ssm.modes?.length ?? 0,
        modesKept: kept,
        explainedKept:
          kept === null || !ssm.modes ? null : ssm.modes.slice(0, kept).reduce((sum, m) => sum + m.explained, 0),
        modes: population.modes,
        instances: population.instances.map((i) => ({
          name: i.name,
          shape: i.shape,
          shapeInWords: ssmShapeLabel(i.shape),
          modeScores: i.modeScores,
        })),
      },
      labels: instances.map((i) => `${i.name} (${ssmShapeLabel(i.shape)})`),
    };
  }

  /**
   * Device CI's comparison of a re-run with the trial it re-runs as the report draws it (`compareTrials`, the trial
   * page's computation), each patient named by the report's label, only those with a value on both versions.
   */
  private async reportComparison(
    base: TrialRow,
    current: { trial: TrialRow; patients: readonly TrialPatientWithRun[] },
    labelOf: ReadonlyMap<string, string>,
  ): Promise<TrialReportInput['comparison']> {
    const basePatients = await this.deps.repository.patients([base.id]);
    const comparison = compareTrials({ trial: base, patients: basePatients }, current);
    const label = (id: string) => labelOf.get(id) ?? id;
    return {
      basedOn: { name: comparison.basedOn.name, deviceVersionName: comparison.basedOn.deviceVersionName },
      outcomes: comparison.outcomes.map((o) => ({
        label: o.label,
        unit: o.unit,
        paired: o.paired,
        meanDifference: o.meanDifference,
        criterion: o.criterion,
        differences: o.patients.flatMap((p) =>
          p.difference === null ? [] : [{ label: label(p.patientId), difference: p.difference }],
        ),
        passToFail: o.passToFail.map(label),
        failToPass: o.failToPass.map(label),
      })),
      leftOut: comparison.leftOut,
    };
  }

  /** The report job gave up: the report shows why instead of staying queued. */
  async reportFailed(reportId: string, reason: string): Promise<void> {
    await this.deps.repository.updateReport(reportId, {
      status: 'failed',
      error: `The report could not be made: ${reason}`,
      finishedAt: new Date(),
    });
  }

  /**
   * A trial's outcomes as population parameters of its cohort: every patient of the cohort (the parameter table's
   * order), null where the patient has no outcome (failed, not finished, or not defined for the run). For a trial on
   * an SSM: its named instances (the trial's order) with their mode scores and each outcome's figures over them.
   */
  async outcomeColumns(
    userId: string,
    deviceId: string,
    projectId: string,
    trialId: string,
  ): Promise<TrialOutcomeColumns> {
    const { row } = await this.require('project.read', userId, deviceId, projectId, trialId);
    // An imaging cohort is named by its dataset's id, as the population analysis names it.
    const cohortId = row.trial.cohortId ?? row.trial.imagingDatasetId;
    const custom = storedCustomOutcomes(row.trial);
    const patients = await this.deps.repository.patients([trialId]);
    const byPatient = new Map(
      patients.map((p) => [p.patient.patientId, currentOutcomeValues(custom, p.patient).values]),
    );
    // A virtual cohort's patients in its order; an imaging cohort's delivered patients and an SSM's instances are the
    // trial's own patients, in its order.
    const ids =
      row.trial.cohortId !== null
        ? (await this.deps.repository.cohortPatients(row.trial.cohortId)).map((p) => p.patientId)
        : patients.map((p) => p.patient.patientId);
    const definitions = trialOutcomesOf(row.trial);
    const values = definitions.map((d) => ids.map((id) => byPatient.get(id)?.[d.key] ?? null));
    const completed = new Map(
      patients.flatMap(({ patient, run }) =>
        patient.roomId && patient.simulationId && run?.status === 'completed'
          ? [[patient.patientId, { roomId: patient.roomId, simulationId: patient.simulationId }] as const]
          : [],
      ),
    );
    const ssm = row.trial.ssmId !== null ? await this.deps.ssms?.describe(projectId, row.trial.ssmId) : null;
    if (row.trial.ssmId !== null && !ssm)
      throw new ServiceError(409, 'ssm_not_ready', 'The shape model of this trial cannot be read.');
    return {
      trialId,
      trialName: row.trial.name,
      cohortId,
      ids,
      outcomes: definitions.map((d) => ({ ...d, parameter: trialOutcomeParameter(trialId, d.key) })),
      values,
      runs: ids.map((id) => completed.get(id) ?? null),
      instances: ssm
        ? instancePopulation(
            { id: ssm.id, name: ssm.name, modeCount: ssm.modes?.length ?? 0 },
            patients.map((p) => ({ id: p.patient.patientId, ...(toPatient(row.trial, p).instance ?? instanceless) })),
            definitions.map((d, j) => ({ ...d, values: values[j]!, criterion: row.trial.acceptance[d.key] ?? null })),
          )
        : null,
    };
  }

  /** The trial's patients and outcomes as CSV (project.read), named after the trial. */
  async outcomesCsv(
    userId: string,
    deviceId: string,
    projectId: string,
    trialId: string,
  ): Promise<{ fileName: string; text: string }> {
    const { row, canRun } = await this.require('project.read', userId, deviceId, projectId, trialId);
    const safe = fileStem(row.trial.name);
    return { fileName: `${safe}-outcomes.csv`, text: trialOutcomesCsv(await this.present(row, canRun)) };
  }

  /** Every outcome parameter of the project's trials on a cohort (the analyses accept them as parameters). */
  async outcomeParameters(projectId: string, cohortId: string): Promise<ReadonlySet<string>> {
    const trials = await this.deps.repository.trialsOnCohort(projectId, cohortId);
    return new Set(trials.flatMap((t) => trialOutcomesOf(t).map((d) => trialOutcomeParameter(t.id, d.key))));
  }

  /**
   * The `trial.patient` job: places the device by the rule, makes the patient's room and simulation as the trial's
   * creator (their permission decides, as if they set it up by hand), or reads the outcomes of a finished run again.
   * A refusal is recorded on the patient with its stage and the message; anything else throws (the job retries).
   */
  async preparePatient(data: TrialPatientJobData): Promise<{ status: string }> {
    const trial = await this.deps.repository.findById(data.trialId);
    const patient = trial ? await this.deps.repository.patient(data.trialId, data.patientId) : null;
    if (!trial || !patient) return { status: 'deleted' };
    if (patient.error) return { status: 'failed' };
    if (patient.simulationId) {
      await this.simulationFinished(patient.simulationId);
      return { status: 'prepared' };
    }
    if (trial.cancelledAt) return { status: 'cancelled' };
    const fail = async (stage: 'placement' | 'setup', error: string, placement?: Record<string, unknown>) => {
      await this.deps.repository.updatePatient(trial.id, patient.patientId, {
        stage,
        error,
        ...(placement ? { placement } : {}),
      });
      await this.recordWhenFinished(trial.id);
      return { status: 'failed' };
    };
    const deviceId = await this.deps.simulationRepository.deviceOf(trial.projectId);
    if (!deviceId || !trial.createdBy)
      return fail('setup', 'The trial’s creator is no longer a member of the workspace.');
    if (!trial.deviceVersionId) return fail('setup', `The device version ${trial.deviceVersionName} was deleted.`);
    const rule = trial.placement as unknown as PlacementRule;
    const subject = await this.placeOn(trial, patient, rule);
    if ('failure' in subject) return fail('placement', subject.failure);
    const { placed, view } = subject;
    const record = { rule, annulusDiameter_mm: placed.annulusDiameter_mm };
    if (!placed.ok) return fail('placement', placed.reason, record);
    const creator = trial.createdBy;
    try {
      const roomId = patient.roomId ?? (await this.createRoom(creator, deviceId, trial, patient));
      await this.deps.repository.updatePatient(trial.id, patient.patientId, {
        roomId,
        placement: { ...record, transform: placed.transform },
      });
      await this.deps.rooms.saveScene(creator, deviceId, trial.projectId, roomId, {
        view: { phase: view, hiddenOrgans: [] },
        placements: [
          { versionId: trial.deviceVersionId, transform: sceneTransform(placed.transform), landmark: rule.landmark },
        ],
      });
      // An attempt that crashed after creating the run adopts it (the room holds only the trial's simulation).
      const existing = await this.deps.simulationRepository.list({
        projectId: trial.projectId,
        roomId,
        search: '',
        sort: 'createdAt',
        order: 'asc',
        page: 1,
        pageSize: 1,
      });
      const simulationId =
        existing.rows[0]?.simulation.id ??
        (
          await this.deps.simulations.create(creator, deviceId, trial.projectId, roomId, {
            kind: trial.kind,
            resolution: trial.resolution,
            parameters: trial.parameters as Record<string, number | boolean | string>,
            name: trial.name,
          })
        ).id;
      await this.deps.repository.updatePatient(trial.id, patient.patientId, { simulationId });
      // Cancelled or deleted while the case was being built: the new run does not start.
      const now = await this.deps.repository.findById(trial.id);
      if (!now || now.cancelledAt)
        await this.deps.simulationRepository.transition(simulationId, ['queued'], {
          status: 'cancelled',
          finishedAt: new Date(),
        });
      return { status: 'prepared' };
    } catch (error) {
      if (error instanceof ServiceError && error.status !== 404) return fail('setup', error.message);
      throw error;
    }
  }

  /**
   * A trial patient's anatomy: a cohort patient's stored record at its first phase (the one a trial places and runs
   * on), an SSM instance's shape or an imaging patient's delivered surfaces at its first delivered phase (the aortic
   * root surface and landmarks, `phase` null); or why it cannot be read. Placement and the paravalvular gap read the
   * same anatomy through here.
   */
  private async anatomyOf(
    trial: TrialRow,
    patient: TrialPatientRow,
  ): Promise<
    | { patient: SyntheticPatient; phase: MeshPhaseInput; view: string }
    | { patient: DeliveredPatient; phase: null; view: string }
    | { failure: string }
  > {
    if (trial.ssmId !== null) {
      const shape = patient.instanceShape ?? 'mean';
      if (!this.deps.ssms) return { failure: 'Shape models cannot be read by this server.' };
      try {
        const anatomy = await this.deps.ssms.scenarioPatient(trial.projectId, trial.ssmId, shape);
        return { patient: anatomy, phase: null, view: shape };
      } catch (error) {
        if (error instanceof ServiceError) return { failure: error.message };
        throw error;
      }
    }
    if (trial.imagingDatasetId !== null) {
      if (!this.deps.imagingPatients) return { failure: 'Imaging patients cannot be read by this server.' };
      try {
        const anatomy = await this.deps.imagingPatients.scenarioPatient(
          trial.projectId,
          trial.imagingDatasetId,
          patient.patientId,
          null,
        );
        return { patient: anatomy, phase: null, view: anatomy.phase };
      } catch (error) {
        if (error instanceof ServiceError) return { failure: error.message };
        throw error;
      }
    }
    const stored = trial.cohortId
      ? await this.deps.simulationRepository.patientRecord(trial.cohortId, patient.patientId)
      : null;
    if (!stored) return { failure: 'The patient is no longer in the cohort.' };
    const anatomy = storedPatient(stored.cohort, stored);
    const phase = meshPhasesOf(anatomy)[0];
    if (!phase) return { failure: `Patient ${patient.patientId} has no images to place a device in.` };
    return { patient: anatomy, phase, view: phaseLabel(phase) };
  }

  /**
   * The rule applied to the patient's anatomy (`anatomyOf`) in a CPU-pool thread. Answers the placement and the view
   * the room saves (the phase, or the shape the simulation then runs on), or why the patient cannot be placed.
   */
  private async placeOn(
    trial: TrialRow,
    patient: TrialPatientRow,
    rule: PlacementRule,
  ): Promise<{ placed: RulePlacement; view: string } | { failure: string }> {
    const anatomy = await this.anatomyOf(trial, patient);
    if ('failure' in anatomy) return anatomy;
    const placed =
      anatomy.phase === null
        ? await this.deps.cpu.run(trialDeliveredPlacementTask, { patient: anatomy.patient, rule })
        : await this.deps.cpu.run(trialPlacementTask, { patient: anatomy.patient, phase: anatomy.phase, rule });
    return { placed, view: anatomy.view };
  }

  /**
   * After a run (simulation.performer.ts calls this for every run): when the simulation is a trial patient's and it
   * completed, its outcomes are read from the stored monitors and frames (each frame in a CPU-pool thread).
   */
  async simulationFinished(simulationId: string): Promise<void> {
    const patient = await this.deps.repository.patientOfSimulation(simulationId);
    if (!patient || patient.outcomes) return;
    const run = await this.deps.simulationRepository.findById(simulationId);
    if (run?.status !== 'completed') return;
    try {
      const outputs = await this.readRunOutputs(run);
      const { object, last, read } = outputs;
      const density = (run.parameters as { bloodDensity_kg_m3?: number }).bloodDensity_kg_m3 ?? null;
      const lastFrame = object && last ? await read(`${object.name}/${last.index}.bin`) : null;
      const outcomes = computeOutcomes({
        kind: run.kind,
        monitorsCsv: outputs.monitorsCsv,
        frameMaxima: outputs.maxima,
        bloodDensity_kg_m3: density,
        ...(run.kind === 'solid' && object && last && lastFrame
          ? {
              paravalvularGap: await this.paravalvularGap(patient, run.estimate, {
                frame: new Uint8Array(lastFrame.buffer, lastFrame.byteOffset, lastFrame.byteLength),
                count: last.particleCounts?.[object.name] ?? object.particleCount,
                columns: object.columns,
              }),
            }
          : {}),
      });
      // The user's outcomes with the definitions of the moment of writing: a change of them waits for this write,
      // and its job (queued after) finds the values of the version written here.
      await this.deps.unitOfWork.run(async (tx) => {
        const trial = await tx.trials.lock(patient.trialId);
        const custom = trial ? storedCustomOutcomes(trial) : [];
        const own = evaluateCustomOutcomes(custom, outputs.steps, outputs.monitorsCsv);
        await tx.trials.updatePatient(patient.trialId, patient.patientId, {
          outcomes: { ...outcomes.values, ...own.values },
          outcomeNotes: { ...outcomes.notes, ...own.notes },
          outcomeVersions: Object.fromEntries(custom.map((o) => [o.key, o.version])),
          stage: null,
          error: null,
        });
      });
    } catch (error) {
      await this.deps.repository.updatePatient(patient.trialId, patient.patientId, {
        stage: 'outcomes',
        error: `The outcomes could not be read: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
    await this.recordWhenFinished(patient.trialId);
  }

  /**
   * What the outcomes are read from in a finished run's stored outputs: the manifest's object of the kind, each saved
   * timestep's statistics (the frames' stored summaries, or the frame scanned in a CPU-pool thread), their maxima,
   * and monitors.csv. Never runs anything again.
   */
  private async readRunOutputs(run: SimulationRow) {
    const region = run.region as DataRegion;
    const read = async (file: string) =>
      run.storedFiles.includes(file) ? await this.deps.blobs.get(region, `${run.storagePrefix}/out/${file}`) : null;
    const manifestBytes = await read('manifest.json');
    const manifest = manifestBytes ? (JSON.parse(manifestBytes.toString('utf8')) as Manifest) : null;
    const object = manifest?.objects.find((o) => o.kind === OUTCOME_OBJECT[run.kind]);
    const maxima: FrameMaxima = {};
    const steps: StepStats[] = [];
    // The frames' stored summaries (written with the frames) give each timestep's statistics without a scan.
    const summaryBytes = object ? await read(`${object.name}/summary.json`) : null;
    const summaries = summaryBytes ? (JSON.parse(summaryBytes.toString('utf8')) as ObjectSummaries) : null;
    for (const step of object ? manifest!.timesteps : []) {
      let stats = summaries?.timesteps[String(step.index)]?.stats;
      if (!stats) {
        const bytes = await read(`${object!.name}/${step.index}.bin`);
        if (!bytes) continue;
        stats = (
          await this.deps.cpu.run(frameTimelineTask, {
            frame: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
            count: step.particleCounts?.[object!.name] ?? object!.particleCount,
            columns: object!.columns,
            particles: [],
          })
        ).stats;
      }
      steps.push(stats);
      for (const [name, value] of Object.entries(stats))
        if (value.max !== null && Number.isFinite(value.max))
          maxima[name] = Math.max(maxima[name] ?? -Infinity, value.max);
    }
    const monitors = await read('monitors.csv');
    return {
      read,
      object,
      last: manifest?.timesteps.at(-1),
      steps,
      maxima,
      monitorsCsv: monitors ? monitors.toString('utf8') : null,
    };
  }

  /**
   * Changes the trial's user outcomes (project.work): add, change, rename, remove, in one request with the whole list
   * (`planCustomOutcomeChange`). A changed computation is the outcome's next version; the values of earlier versions
   * stay on each patient (`earlierOutcomes`), removed outcomes' too, and the trial's record keeps every version. Acceptance
   * criteria of removed outcomes, and of changed ones whose unit changed, go. When a finished patient needs a new or
   * changed value, a `trial.outcomes` job reads it from the saved outputs (progress on the trial; the requester is told).
   */
  async replaceCustomOutcomes(
    userId: string,
    deviceId: string,
    projectId: string,
    trialId: string,
    body: ReplaceCustomOutcomes,
  ): Promise<TrialDetail> {
    await this.require('project.work', userId, deviceId, projectId, trialId);
    await this.deps.unitOfWork.run(async (tx) => {
      const trial = await tx.trials.lock(trialId);
      if (!trial) throw new ServiceError(404, 'trial_not_found', trialNotFoundMessage);
      const change = planCustomOutcomeChange(trial, body.outcomes, new Date().toISOString(), userId);
      if (typeof change === 'string') throw new ServiceError(422, 'trial_outcome_invalid', change);
      if (change.added.length + change.changed.length + change.renamed.length + change.removed.length === 0)
        throw new ServiceError(409, 'trial_outcomes_unchanged', 'Nothing changed in the outcomes of your own.');
      const before = storedCustomOutcomes(trial);
      const unitOf = (outcomes: readonly StoredCustomOutcome[], key: string) => {
        const o = outcomes.find((x) => x.key === key);
        return o ? customOutcomeDefinition(trial.kind, o.definition, o.key).unit : null;
      };
      const dropped = [
        ...change.removed,
        ...change.changed.filter((key) => unitOf(before, key) !== unitOf(change.outcomes, key)),
      ].filter((key) => key in trial.acceptance);
      const acceptance = Object.fromEntries(Object.entries(trial.acceptance).filter(([key]) => !dropped.includes(key)));
      // The values of removed outcomes are kept on each patient beside the version they came from.
      const patients = await tx.trials.patients([trialId]);
      let toRead = 0;
      for (const { patient, run } of patients) {
        if (!patient.outcomes) continue;
        if (change.added.length + change.changed.length > 0 && (run === null || run.status === 'completed')) toRead++;
        if (change.removed.length === 0) continue;
        const outcomes = { ...patient.outcomes };
        const earlierOutcomes = { ...patient.earlierOutcomes };
        for (const key of change.removed)
          if (key in outcomes) {
            earlierOutcomes[`${key}@${versionOf(patient, key)}`] = outcomes[key] ?? null;
            delete outcomes[key];
          }
        await tx.trials.updatePatient(trialId, patient.patientId, { outcomes, earlierOutcomes });
      }
      const job = toRead > 0 ? await tx.jobs.enqueue(trialOutcomesJob, { trialId, requestedBy: userId }, userId) : null;
      await tx.trials.update(trialId, {
        customOutcomes: change.outcomes,
        customOutcomeHistory: change.history,
        acceptance,
        ...(job ? { outcomeJobId: job.id } : {}),
      });
      tx.events.record({
        ...projectEvent(userId, deviceId, projectId, 'trial.outcomes_changed', { type: 'trial', id: trialId }),
        before: { name: trial.name, customOutcomes: before, acceptance: trial.acceptance },
        after: {
          customOutcomes: change.outcomes,
          added: change.added,
          changed: change.changed,
          renamed: change.renamed,
          removed: change.removed,
          droppedCriteria: dropped,
          patientsToRead: toRead,
        },
      });
    });
    return this.get(userId, deviceId, projectId, trialId);
  }

  /**
   * The `trial.outcomes` job: every finished patient whose user outcomes are not all of their definitions' current
   * versions is read again from its run's saved outputs (the frames' statistics and monitors.csv); the value it
   * replaces is kept with its version. Written under the trial's lock with the definitions of that moment, so a change
   * meanwhile is never overwritten by an older reading (its own job follows). Ends with `trial.outcomes_read` for the
   * person who made the change (told from the event).
   */
  async rereadOutcomes(
    data: TrialOutcomesJobData,
    work: { progress(fraction: number, message?: string): Promise<void>; signal: AbortSignal },
  ): Promise<{ status: string; read?: number; failed?: number }> {
    const trial = await this.deps.repository.findById(data.trialId);
    if (!trial) return { status: 'deleted' };
    const stale = (p: TrialPatientWithRun, outcomes: readonly StoredCustomOutcome[]) =>
      p.patient.outcomes !== null &&
      // A finished run, or one deleted since (its values become null with the reason).
      (p.run === null || p.run.status === 'completed') &&
      outcomes.some((o) => !(o.key in p.patient.outcomes!) || versionOf(p.patient, o.key) !== o.version);
    const waiting = (await this.deps.repository.patients([trial.id])).filter((p) =>
      stale(p, storedCustomOutcomes(trial)),
    );
    let read = 0;
    let failed = 0;
    for (const [i, p] of waiting.entries()) {
      if (work.signal.aborted) throw new Error('The reading was stopped; it goes on at the next attempt.');
      await work.progress(i / waiting.length, `Reading patient ${p.patient.patientId} (${i + 1} of ${waiting.length})`);
      const run = p.patient.simulationId ? await this.deps.simulationRepository.findById(p.patient.simulationId) : null;
      let outputs: Awaited<ReturnType<TrialService['readRunOutputs']>> | null = null;
      let problem: string | null = null;
      try {
        if (run?.status !== 'completed') throw new Error('the patient’s run was deleted');
        outputs = await this.readRunOutputs(run);
      } catch (error) {
        problem = `The saved outputs could not be read: ${error instanceof Error ? error.message : String(error)}`;
      }
      const wrote = await this.deps.unitOfWork.run(async (tx) => {
        const now = await tx.trials.lock(trial.id);
        const patient = now ? await tx.trials.patient(trial.id, p.patient.patientId) : null;
        if (!now || !patient?.outcomes) return false;
        const custom = storedCustomOutcomes(now);
        const due = custom.filter((o) => !(o.key in patient.outcomes!) || versionOf(patient, o.key) !== o.version);
        if (due.length === 0) return false;
        const fresh = outputs
          ? evaluateCustomOutcomes(due, outputs.steps, outputs.monitorsCsv)
          : {
              values: Object.fromEntries(due.map((o) => [o.key, null])),
              notes: Object.fromEntries(due.map((o) => [o.key, problem!])),
            };
        const earlierOutcomes = { ...patient.earlierOutcomes };
        for (const o of due)
          if (o.key in patient.outcomes)
            earlierOutcomes[`${o.key}@${versionOf(patient, o.key)}`] = patient.outcomes[o.key] ?? null;
        const notes = { ...patient.outcomeNotes };
        for (const o of due) delete notes[o.key];
        await tx.trials.updatePatient(trial.id, patient.patientId, {
          outcomes: { ...patient.outcomes, ...fresh.values },
          outcomeNotes: { ...notes, ...fresh.notes },
          outcomeVersions: { ...patient.outcomeVersions, ...Object.fromEntries(due.map((o) => [o.key, o.version])) },
          earlierOutcomes,
        });
        return true;
      });
      if (wrote && outputs) read++;
      else if (wrote) failed++;
    }
    await work.progress(1, 'Read');
    const deviceId = await this.deps.simulationRepository.deviceOf(trial.projectId);
    await this.deps.unitOfWork.run(async (tx) => {
      tx.events.record(
        systemEvent(
          data.requestedBy,
          deviceId,
          trial.projectId,
          'trial.outcomes_read',
          { type: 'trial', id: trial.id },
          { name: trial.name, patients: waiting.length, read, failed },
        ),
      );
    });
    return { status: 'read', read, failed };
  }

  /**
   * The paravalvular gap area of a solid trial patient's run: the anatomy the patient was placed on (`anatomyOf`: a
   * cohort patient at its first phase, or the SSM instance's shape) and the device's last frame, in a CPU-pool thread
   * (`trial-gap.task.ts`).
   */
  private async paravalvularGap(
    patient: TrialPatientRow,
    estimate: Record<string, unknown>,
    device: { frame: Uint8Array; count: number; columns: FrameColumn[] },
  ): Promise<{ value: number | null; note: string }> {
    const trial = await this.deps.repository.findById(patient.trialId);
    if (!trial) return { value: null, note: 'The trial was deleted.' };
    const anatomy = await this.anatomyOf(trial, patient);
    if ('failure' in anatomy) return { value: null, note: anatomy.failure };
    const dp = estimate.dp_mm;
    if (typeof dp !== 'number') return { value: null, note: 'The run’s particle spacing is not known.' };
    return this.deps.cpu.run(trialGapTask, { patient: anatomy.patient, phase: anatomy.phase, ...device, dp_mm: dp });
  }

  /**
   * A trial's per-patient outcomes table as it stands now (for the backfill of trials finished before migration 0027,
   * services/result-backfill.ts), or null when there is no such trial or it was cancelled.
   */
  async currentResults(trialId: string): Promise<Record<string, unknown> | null> {
    const trial = await this.deps.repository.findById(trialId);
    if (!trial || trial.cancelledAt) return null;
    const patients = await this.deps.repository.patients([trialId]);
    return trialResults(trial, patients, (p) => patientStatus(trial, p));
  }

  /**
   * Records the trial's end once its last patient has finished (done or failed): a `trial.finished` event (the system,
   * for the creator, who hears of it from the event: services/job-notifications.ts), once per outcome: a retry that
   * finishes again records again, with its counts.
   */
  private async recordWhenFinished(trialId: string): Promise<void> {
    const trial = await this.deps.repository.findById(trialId);
    if (!trial || trial.cancelledAt) return;
    const deviceId = await this.deps.simulationRepository.deviceOf(trial.projectId);
    // A re-run (device CI) is compared with the trial it re-runs, when that one is still there.
    const base = trial.basedOnTrialId ? await this.deps.repository.findById(trial.basedOnTrialId) : null;
    await this.deps.unitOfWork.run(async (tx) => {
      // Two last patients finishing at once take turns here: the second finds the first's record.
      const last = await tx.trials.lockAndLastFinish(trialId);
      const patients = await tx.trials.patients([trialId]);
      const counts = { done: 0, failed: 0, open: 0 };
      for (const p of patients) {
        const status = patientStatus(trial, p);
        if (status === 'done') counts.done++;
        else if (status === 'failed') counts.failed++;
        else if (status !== 'cancelled') counts.open++;
      }
      if (counts.open > 0 || (last?.done === counts.done && last.failed === counts.failed)) return;
      const comparison = base
        ? trialComparison({ trial: base, patients: await tx.trials.patients([base.id]) }, { trial, patients })
        : null;
      const table = {
        ...trialResults(trial, patients, (p) => patientStatus(trial, p)),
        ...(comparison ? { comparison } : {}),
      };
      const subject = { objectType: 'trial', objectId: trial.id, deviceId, projectId: trial.projectId } as const;
      const snapshot = (await this.deps.results?.keep(tx, subject, table)) ?? null;
      tx.events.record(
        systemEvent(
          trial.createdBy,
          deviceId,
          trial.projectId,
          'trial.finished',
          { type: 'trial', id: trial.id },
          {
            name: trial.name,
            patients: patients.length,
            done: counts.done,
            failed: counts.failed,
            ...(comparison ? { comparison } : {}),
            ...resultsOf(snapshot),
          },
        ),
      );
    });
  }

  /**
   * The patient's room: `<trial> – <patient>` (an SSM instance's: `<trial> – <instance>`, a room on the SSM), numbered
   * when a room of the project already has that name.
   */
  private async createRoom(userId: string, deviceId: string, trial: TrialRow, patient: TrialPatientRow) {
    const base = `${trial.name} – ${patient.instanceName ?? patient.patientId}`.slice(0, roomNameMaxLength - 5);
    for (let n = 1; n <= 20; n++) {
      try {
        const name = n === 1 ? base : `${base} (${n})`;
        const room = await this.deps.rooms.create(
          userId,
          deviceId,
          trial.projectId,
          trial.ssmId !== null
            ? { ssmId: trial.ssmId, name }
            : trial.imagingDatasetId !== null
              ? { imagingDatasetId: trial.imagingDatasetId, patientId: patient.patientId, name }
              : { cohortId: trial.cohortId ?? '', patientId: patient.patientId, name },
        );
        return room.id;
      } catch (error) {
        if (!(error instanceof ServiceError) || error.code !== 'room_name_taken') throw error;
      }
    }
    throw new ServiceError(409, 'room_name_taken', roomNameTakenMessage);
  }

  private async require(
    action: 'project.read' | 'project.work',
    userId: string,
    deviceId: string,
    projectId: string,
    trialId: string,
  ): Promise<{ row: TrialListRow; canRun: boolean }> {
    const access = await this.deps.projects.require(action, userId, deviceId, projectId);
    const row = await this.deps.repository.find(projectId, trialId);
    if (!row) throw new ServiceError(404, 'trial_not_found', trialNotFoundMessage);
    return { row, canRun: decideProject('project.work', access.standing).allowed };
  }

  private async present(row: TrialListRow, canRun: boolean): Promise<TrialDetail> {
    const patients = await this.deps.repository.patients([row.trial.id]);
    return { ...toTrial(row, patients, canRun), patients: patients.map((p) => toPatient(row.trial, p)) };
  }
}

/** A trial patient's instance when it has none recorded (never on an SSM trial's patients): the mean shape. */
const instanceless = { name: '', shape: 'mean' } as const;

/** A trial's name as the stem of a downloaded file's name (reports, CSV). */
function fileStem(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'trial';
}

/** A trial's set-up on another device version under a new name (device CI's re-runs). */
function setupOf(trial: TrialRow, versionId: string, name: string): CreateTrialBody {
  return {
    name,
    ...(trial.ssmId !== null
      ? { ssmId: trial.ssmId }
      : { cohortId: trial.cohortId ?? trial.imagingDatasetId ?? undefined }),
    versionId,
    kind: trial.kind,
    resolution: trial.resolution,
    parameters: trial.parameters as CreateTrialBody['parameters'],
    placement: trial.placement as unknown as PlacementRule,
    customOutcomes: storedCustomOutcomes(trial).map((o) => o.definition),
  };
}

/** The trial page's address (notifications and the activity feed link to it); `device` keeps the workspace chosen. */
export function trialPagePath(projectId: string, trialId: string, deviceId: string | null): string {
  return `/projects/trial?project=${projectId}&trial=${trialId}${deviceId ? `&device=${deviceId}` : ''}`;
}

/** The scene's (mutable tuple) form of a placement. */
function sceneTransform(t: PlacementTransform) {
  const [px, py, pz] = t.position;
  const [qx, qy, qz, qw] = t.quaternion;
  const [sx, sy, sz] = t.scale;
  return {
    position: [px, py, pz] as [number, number, number],
    quaternion: [qx, qy, qz, qw] as [number, number, number, number],
    scale: [sx, sy, sz] as [number, number, number],
  };
}

/** A patient's state: preparing counts as queued, a finished run whose outcomes are being read as running. */
export function patientStatus(trial: TrialRow, p: TrialPatientWithRun): TrialPatientStatus {
  if (p.patient.error) return 'failed';
  if (!p.run) return trial.cancelledAt ? 'cancelled' : 'queued';
  switch (p.run.status) {
    case 'completed':
      return p.patient.outcomes ? 'done' : 'running';
    case 'failed':
      return 'failed';
    case 'cancelled':
      return 'cancelled';
    case 'queued':
    case 'running':
      return p.run.status;
  }
}

/** The rule a patient was placed (or refused) by, as its placement record keeps it; null before its placement. */
function placedBy(patient: TrialPatientRow): PlacementRule | null {
  const parsed = placementRuleSchema.safeParse(patient.placement?.['rule']);
  return parsed.success ? parsed.data : null;
}

function toPatient(trial: TrialRow, p: TrialPatientWithRun): TrialPatient {
  const status = patientStatus(trial, p);
  const shown = currentOutcomeValues(storedCustomOutcomes(trial), p.patient);
  const runFailed = !p.patient.error && p.run?.status === 'failed';
  return {
    patientId: p.patient.patientId,
    instance:
      p.patient.instanceName !== null
        ? { name: p.patient.instanceName, shape: p.patient.instanceShape ?? 'mean' }
        : null,
    status,
    error: p.patient.error ?? (runFailed ? (p.run?.error ?? 'The simulation failed.') : null),
    stage: p.patient.stage ?? (runFailed ? 'run' : null),
    placement: placedBy(p.patient),
    roomId: p.patient.roomId,
    simulationId: p.patient.simulationId,
    simulationStatus: p.run?.status ?? null,
    progress: p.run?.status === 'completed' ? 1 : (p.run?.progress ?? 0),
    etaSeconds: p.run?.etaSeconds ?? null,
    outcomes: shown.values,
    outcomeNotes: shown.notes,
    outcomeVersions: p.patient.outcomeVersions,
    earlierOutcomes: Object.entries(p.patient.earlierOutcomes).map(([at, value]) => {
      const [key, version] = at.split('@');
      return { key: key!, version: Number(version), value };
    }),
  };
}

function toTrial(row: TrialListRow, patients: readonly TrialPatientWithRun[], canRun: boolean): Trial {
  const t = row.trial;
  const counts: TrialCounts = { total: patients.length, done: 0, running: 0, queued: 0, failed: 0, cancelled: 0 };
  for (const p of patients) counts[patientStatus(t, p)]++;
  const open = counts.queued + counts.running;
  const finished = counts.done + counts.failed;
  const status = t.cancelledAt ? 'cancelled' : open === 0 ? 'completed' : 'running';
  // The trial's throughput so far: patients finished per second since it started.
  const elapsed = (Date.now() - t.createdAt.getTime()) / 1000;
  const etaSeconds = status === 'running' && finished > 0 && elapsed > 0 ? open / (finished / elapsed) : null;
  return {
    id: t.id,
    projectId: t.projectId,
    name: t.name,
    cohort:
      t.cohortId !== null
        ? { id: t.cohortId, name: row.cohortName ?? '', source: 'virtual' }
        : t.imagingDatasetId !== null
          ? { id: t.imagingDatasetId, name: row.imagingName ?? '', source: 'imaging' }
          : null,
    ssm: t.ssmId !== null ? { id: t.ssmId, name: row.ssmName ?? '' } : null,
    deviceVersion: { id: t.deviceVersionId, name: t.deviceVersionName },
    kind: t.kind,
    resolution: t.resolution,
    parameters: t.parameters as Trial['parameters'],
    placement: t.placement as unknown as PlacementRule,
    status,
    counts,
    etaSeconds,
    outcomes: trialOutcomesOf(t),
    basedOnTrialId: t.basedOnTrialId,
    createdBy: t.createdBy && row.createdByName ? { id: t.createdBy, name: row.createdByName } : null,
    createdAt: t.createdAt.toISOString(),
    cancelledAt: t.cancelledAt?.toISOString() ?? null,
    acceptance: t.acceptance,
    autoRerun: t.autoRerun,
    customOutcomes: storedCustomOutcomes(t),
    customOutcomeHistory: customOutcomeHistory(t),
    outcomeRefresh: row.outcomeJobStatus
      ? { status: row.outcomeJobStatus, progress: row.outcomeJobProgress ?? 0, message: row.outcomeJobMessage }
      : null,
    canRun,
  };
}

function toReport(
  r: TrialReportRow,
  names: ReadonlyMap<string, string>,
  deviceId: string,
  projectId: string,
): TrialReport {
  const name = r.createdBy ? names.get(r.createdBy) : undefined;
  return {
    id: r.id,
    status: r.status,
    error: r.error,
    bytes: r.bytes,
    sha256: r.sha256,
    createdBy: r.createdBy && name ? { id: r.createdBy, name } : null,
    createdAt: r.createdAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
    url:
      r.status === 'ready'
        ? pathOf(trialEndpoints.reportPdf, { deviceId, projectId, trialId: r.trialId, reportId: r.id })
        : null,
  };
}
