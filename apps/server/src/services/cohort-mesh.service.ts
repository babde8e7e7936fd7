import {
  buildPatientMeshes,
  CINE_FRAME_COUNT,
  cineFrames,
  MESH_MODEL_VERSION,
  MODEL_VERSION,
  patientGlb,
  phaseLabel,
  toMeshPhase,
  type Landmark,
  type MeshPhase,
  type SyntheticPatient,
} from '@insilico/anatomy';
import type { BlobStore, DataRegion } from '../repositories/blob.repository';
import { ServiceError } from './errors';

/** The mesh phases of a patient: its static phases, and every cine frame when cine CT is available. */
export function meshPhasesOf(patient: SyntheticPatient): MeshPhase[] {
  const phases: MeshPhase[] = [];
  if (patient.phases.includes('end-diastole')) phases.push(toMeshPhase('end-diastole'));
  if (patient.phases.includes('end-systole')) phases.push(toMeshPhase('end-systole'));
  if (patient.phases.includes('cine_ct')) phases.push(...cineFrames(CINE_FRAME_COUNT));
  return phases;
}

/** The phase a label names (`end-diastole`, `end-systole`, `cine-03of12`), if the patient has it. */
export function patientPhase(patient: SyntheticPatient, label: string): MeshPhase {
  const phase = meshPhasesOf(patient).find((candidate) => phaseLabel(candidate) === label);
  if (!phase) throw new ServiceError(404, 'not_found', `Patient ${patient.id} has no images for the phase ${label}.`);
  return phase;
}

/**
 * A patient's meshes per phase as one GLB (all organs, metres) and its landmarks (JSON, mm), built on first use
 * and cached in the workspace's data region. Meshes depend only on (population model, seed, patient, phase,
 * mesh model), so the key names all of them and a cached file never goes stale.
 */
export class PatientMeshCache {
  constructor(private readonly blobs: BlobStore) {}

  private key(populationSeed: number, patient: SyntheticPatient, phase: MeshPhase, extension: string): string {
    return `meshes/${MESH_MODEL_VERSION}/${MODEL_VERSION}-${populationSeed}/${patient.id}/${phaseLabel(phase)}.${extension}`;
  }

  /** Builds and stores the phase unless both files exist already (idempotent). Answers whether it built. */
  async prepare(
    region: DataRegion,
    populationSeed: number,
    patient: SyntheticPatient,
    phase: MeshPhase,
  ): Promise<boolean> {
    const glbKey = this.key(populationSeed, patient, phase, 'glb');
    const landmarksKey = this.key(populationSeed, patient, phase, 'landmarks.json');
    if ((await this.exists(region, glbKey)) && (await this.exists(region, landmarksKey))) return false;
    await this.build(region, populationSeed, patient, phase);
    return true;
  }

  async glb(region: DataRegion, populationSeed: number, patient: SyntheticPatient, phase: MeshPhase): Promise<Buffer> {
    const key = this.key(populationSeed, patient, phase, 'glb');
    return (await this.blobs.get(region, key)) ?? (await this.build(region, populationSeed, patient, phase)).glb;
  }

  async landmarks(
    region: DataRegion,
    populationSeed: number,
    patient: SyntheticPatient,
    phase: MeshPhase,
  ): Promise<readonly Landmark[]> {
    const stored = await this.blobs.get(region, this.key(populationSeed, patient, phase, 'landmarks.json'));
    if (stored) return JSON.parse(stored.toString('utf8')) as Landmark[];
    return (await this.build(region, populationSeed, patient, phase)).landmarks;
  }

  private async build(
    region: DataRegion,
    populationSeed: number,
    patient: SyntheticPatient,
    phase: MeshPhase,
  ): Promise<{ glb: Buffer; landmarks: readonly Landmark[] }> {
    const meshes = buildPatientMeshes(patient, phase);
    const glb = Buffer.from(patientGlb(meshes));
    // Landmarks first, GLB last: `prepare` treats the GLB as the marker of a complete phase.
    await this.blobs.put(
      region,
      this.key(populationSeed, patient, phase, 'landmarks.json'),
      Buffer.from(JSON.stringify(meshes.landmarks)),
    );
    await this.blobs.put(region, this.key(populationSeed, patient, phase, 'glb'), glb);
    return { glb, landmarks: meshes.landmarks };
  }

  private async exists(region: DataRegion, key: string): Promise<boolean> {
    const file = await this.blobs.open(region, key);
    file?.stream.destroy();
    return file !== null;
  }
}
