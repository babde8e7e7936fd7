import {
  imagingCohortNotReadyMessage,
  imagingDatasetNotFoundMessage,
  imagingPatientEndpoints,
  imagingPatientNotFoundMessage,
  pathOf,
  type CohortParameterTable,
  type ImagingCohort,
  type ImagingPatient,
  type PatientLandmarks,
} from '@insilico/contracts';
import type { DeliveredPatient } from '@insilico/scenarios';
import type { CpuRunner } from '../cpu/pool';
import { deliveredGlbTask, deliveredSurfacesTask } from '../cpu/imaging-patient-mesh.task';
import { withLocalFile, type BlobStore } from '../repositories/blob.repository';
import type { ImagingDatasetRow, ImagingRepository } from '../repositories/imaging.repository';
import { toImagingPatient } from './imaging-anatomy';
import { imagingParameterTable } from './imaging-parameter-table';
import { ServiceError } from './errors';
import type { ProjectAccessService } from './project-access.service';

export interface ImagingPatientServiceDeps {
  repository: ImagingRepository;
  projects: ProjectAccessService;
  blobs: BlobStore;
  cpu: CpuRunner;
}

/** What a room shows of its subject, whatever the source: phases, organs, and where their meshes and landmarks are. */
export interface RoomAnatomy {
  phases: string[];
  organs: string[];
  /** `…/meshes/{phase}` (GLB, metres) and `…/meshes/{phase}/landmarks` (mm). */
  meshUrlTemplate: string;
  landmarksUrlTemplate: string;
  /** Whether the room may show (and save) this phase or shape. */
  shows(phase: string): boolean;
}

/**
 * The patients of a project's imaging cohorts (issue 19 item 7), used like built-in patients: listed per cohort,
 * each with its delivered surfaces, landmarks and what is measured on them; the surfaces of one phase as a GLB
 * (built from the models zip in the CPU pool on first view, then kept beside it in the dataset's data region); the
 * anatomy a room on the patient shows. Whoever may read the project (project.read) may read its imaging patients,
 * guests on it included, as with its virtual cohorts.
 */
export class ImagingPatientService {
  constructor(private readonly deps: ImagingPatientServiceDeps) {}

  /** The project's imaging cohorts (modelling or ready), each with its patients once the models are delivered. */
  async cohorts(userId: string, deviceId: string, projectId: string): Promise<ImagingCohort[]> {
    await this.deps.projects.require('project.read', userId, deviceId, projectId);
    const rows = await this.deps.repository.projectDatasets(projectId);
    return rows.map((row) => ({
      datasetId: row.id,
      name: row.name,
      status: row.status,
      patients: row.status === 'ready' ? this.patientsOf(row, projectId) : [],
    }));
  }

  async patient(
    userId: string,
    deviceId: string,
    projectId: string,
    datasetId: string,
    patientId: string,
  ): Promise<ImagingPatient> {
    await this.deps.projects.require('project.read', userId, deviceId, projectId);
    return (await this.delivered(projectId, datasetId, patientId)).patient;
  }

  /** The patient's delivered surfaces of `phase` as one GLB (organs as nodes, metres; landmarks in mm). */
  async glb(
    userId: string,
    deviceId: string,
    projectId: string,
    datasetId: string,
    patientId: string,
    phase: string,
  ): Promise<Buffer> {
    await this.deps.projects.require('project.read', userId, deviceId, projectId);
    const { row, patient } = await this.delivered(projectId, datasetId, patientId);
    requirePhase(patient, phase);
    const key = `${row.modelsStorageKey!.replace(/\.zip$/, '')}/meshes/${patient.id}/${phase}.glb`;
    const cached = await this.deps.blobs.get(row.region, key);
    if (cached) return cached;
    const built = await this.withModels(row, (models) =>
      this.deps.cpu.run(deliveredGlbTask, { ...models, patient: patient.id, phase, landmarks: patient.landmarks }),
    );
    const glb = Buffer.from(built.buffer, built.byteOffset, built.byteLength);
    await this.deps.blobs.put(row.region, key, glb);
    return glb;
  }

  async landmarks(
    userId: string,
    deviceId: string,
    projectId: string,
    datasetId: string,
    patientId: string,
    phase: string,
  ): Promise<PatientLandmarks> {
    const patient = await this.patient(userId, deviceId, projectId, datasetId, patientId);
    requirePhase(patient, phase);
    return { patientId: patient.id, phase, unit: 'mm', frame: 'images-patient-frame', landmarks: patient.landmarks };
  }

  /** What a room on the patient shows: its delivered phases and organs, served by this service's routes. */
  async roomAnatomy(
    userId: string,
    deviceId: string,
    projectId: string,
    datasetId: string,
    patientId: string,
  ): Promise<RoomAnatomy & { patient: ImagingPatient }> {
    const patient = await this.patient(userId, deviceId, projectId, datasetId, patientId);
    // A template the client fills in: the placeholder follows the patient's path (pathOf would encode its braces).
    const patientPath = pathOf(imagingPatientEndpoints.patient, {
      deviceId,
      projectId,
      datasetId,
      patientId: patient.id,
    });
    const path = `${patientPath}/meshes/{phase}`;
    return {
      patient,
      phases: patient.meshes.phases,
      organs: patient.meshes.organs,
      meshUrlTemplate: path,
      landmarksUrlTemplate: `${path}/landmarks`,
      shows: (phase) => patient.meshes.phases.includes(phase),
    };
  }

  /**
   * The patient as a simulation starts from it (the room's access already checked): the phase the room shows (its
   * saved phase, else the first delivered), the aortic root surface of that phase read from the models in the CPU
   * pool (null when none was delivered: the scenario builder says so in words), the landmarks, and the stroke
   * volume measured on the LV blood pools where both phases were delivered.
   */
  async scenarioPatient(
    projectId: string,
    datasetId: string,
    patientId: string,
    savedPhase: string | null,
  ): Promise<DeliveredPatient> {
    const { row, patient } = await this.delivered(projectId, datasetId, patientId);
    const phase = savedPhase && patient.meshes.phases.includes(savedPhase) ? savedPhase : patient.meshes.phases[0];
    if (!phase) throw new ServiceError(409, 'no_anatomy', `Patient ${patient.id} has no surfaces to simulate.`);
    const [root] = await this.withModels(row, (models) =>
      this.deps.cpu.run(deliveredSurfacesTask, { ...models, patient: patient.id, phase, organs: ['aortic_root'] }),
    );
    return {
      source: 'imaging',
      id: patient.id,
      phase,
      aorticRoot: root?.mesh ?? null,
      landmarks: patient.landmarks,
      strokeVolume_mL: patient.parameters.find((p) => p.key === 'strokeVolume_mL')?.value ?? null,
    };
  }

  /**
   * A patient of one of the project's ready imaging cohorts, for a new room: 422 when the dataset is not an imaging
   * cohort of the project or has no such patient, 409 while its models are being made.
   */
  async roomSubject(projectId: string, datasetId: string, patientId: string): Promise<ImagingPatient> {
    const row = await this.deps.repository.findInProject(projectId, datasetId);
    if (!row || (row.status !== 'modelling' && row.status !== 'ready'))
      throw new ServiceError(
        422,
        'imaging_cohort_not_in_project',
        'Choose a patient of one of this project’s cohorts.',
      );
    if (row.status !== 'ready') throw new ServiceError(409, 'imaging_cohort_not_ready', imagingCohortNotReadyMessage);
    const patient = this.patientsOf(row, projectId).find((p) => p.id === patientId);
    if (!patient)
      throw new ServiceError(422, 'patient_not_in_cohort', `Imaging cohort ${row.name} has no patient ${patientId}.`);
    return patient;
  }

  /**
   * An imaging cohort of the project as a trial's subject (access already checked): its delivered patients in the
   * cohort's order. Null when the dataset is no imaging cohort of the project; 409 while its models are being made.
   */
  async trialSubject(
    projectId: string,
    datasetId: string,
  ): Promise<{ id: string; name: string; readyAt: string | null; patients: ImagingPatient[] } | null> {
    const row = await this.deps.repository.findInProject(projectId, datasetId);
    if (!row || (row.status !== 'modelling' && row.status !== 'ready')) return null;
    if (row.status !== 'ready') throw new ServiceError(409, 'imaging_cohort_not_ready', imagingCohortNotReadyMessage);
    return {
      id: row.id,
      name: row.name,
      readyAt: row.readyAt?.toISOString() ?? null,
      patients: this.patientsOf(row, projectId),
    };
  }

  /** The project's ready imaging cohorts with their numbers of delivered patients (a new trial's choices). */
  async readyCohorts(projectId: string): Promise<{ id: string; name: string; patients: number }[]> {
    const rows = await this.deps.repository.projectDatasets(projectId);
    return rows
      .filter((row) => row.status === 'ready')
      .map((row) => ({ id: row.id, name: row.name, patients: this.patientsOf(row, projectId).length }));
  }

  /**
   * The parameter table of a ready imaging cohort of the project (what the population analysis reads, as a virtual
   * cohort's `…/cohorts/:id/parameters`): 404 for a dataset of no project of this one, 409 while modelling.
   */
  async projectParameterTable(
    userId: string,
    deviceId: string,
    projectId: string,
    datasetId: string,
  ): Promise<CohortParameterTable> {
    await this.deps.projects.require('project.read', userId, deviceId, projectId);
    const row = await this.deps.repository.findInProject(projectId, datasetId);
    if (!row || (row.status !== 'modelling' && row.status !== 'ready'))
      throw new ServiceError(404, 'imaging_dataset_not_found', imagingDatasetNotFoundMessage);
    if (row.status !== 'ready') throw new ServiceError(409, 'imaging_cohort_not_ready', imagingCohortNotReadyMessage);
    return imagingParameterTable(row);
  }

  /** The parameter table of a ready imaging dataset (access already checked), or null while it has no models. */
  async parameterTable(datasetId: string): Promise<CohortParameterTable | null> {
    const row = await this.deps.repository.find(datasetId);
    return row?.status === 'ready' && row.models ? imagingParameterTable(row) : null;
  }

  /** The dataset's delivered patient, or 404 (409 while the models are being made). */
  private async delivered(projectId: string, datasetId: string, patientId: string) {
    const row = await this.deps.repository.findInProject(projectId, datasetId);
    if (!row || (row.status !== 'modelling' && row.status !== 'ready'))
      throw new ServiceError(404, 'imaging_dataset_not_found', imagingDatasetNotFoundMessage);
    if (row.status !== 'ready') throw new ServiceError(409, 'imaging_cohort_not_ready', imagingCohortNotReadyMessage);
    const patient = this.patientsOf(row, projectId).find((p) => p.id === patientId);
    if (!patient) throw new ServiceError(404, 'imaging_patient_not_found', imagingPatientNotFoundMessage);
    return { row, patient };
  }

  /** `use` given the delivered models zip on this machine's disk (read by ranges in the CPU pool). */
  private async withModels<T>(
    row: ImagingDatasetRow,
    use: (models: { path: string; bytes: number }) => Promise<T>,
  ): Promise<T> {
    const key = row.modelsStorageKey;
    if (!key) throw new Error(`Imaging dataset ${row.id} has no delivered models.`);
    return withLocalFile(this.deps.blobs, row.region, key, (models) => {
      if (!models) throw new Error(`The delivered models of imaging dataset ${row.id} are missing from storage.`);
      return use(models);
    });
  }

  private patientsOf(row: ImagingDatasetRow, projectId: string): ImagingPatient[] {
    return (row.models?.patients ?? [])
      .map((delivered) => toImagingPatient({ id: row.id, name: row.name, projectId }, delivered))
      .sort((a, b) => a.id.localeCompare(b.id));
  }
}

function requirePhase(patient: ImagingPatient, phase: string): void {
  if (!patient.meshes.phases.includes(phase))
    throw new ServiceError(404, 'not_found', `Patient ${patient.id} has no surfaces for the phase ${phase}.`);
}
