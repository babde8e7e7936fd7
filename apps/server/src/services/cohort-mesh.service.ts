import {
  CINE_FRAME_COUNT,
  cineFrames,
  MESH_MODEL_VERSION,
  phaseLabel,
  toMeshPhase,
  type Landmark,
  type MeshPhase,
  type SyntheticPatient,
} from '@insilico/anatomy';
import type { CpuRunner } from '../cpu/pool';
import { patientGlbTask } from '../cpu/patient-mesh.task';
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

/**
 * The phases an order prepares: the static ones (end-diastole, end-systole). Cine frames are built on first view
 * and cached then: they would triple an order's time (docs/decisions/cohort-meshes.md).
 */
export function orderedPhasesOf(patient: SyntheticPatient): MeshPhase[] {
  return meshPhasesOf(patient).filter((phase) => phase.kind !== 'cine');
}

/** The phase a label names (`end-diastole`, `end-systole`, `cine-03of12`), if the patient has it. */
export function patientPhase(patient: SyntheticPatient, label: string): MeshPhase {
  const phase = meshPhasesOf(patient).find((candidate) => phaseLabel(candidate) === label);
  if (!phase) throw new ServiceError(404, 'not_found', `Patient ${patient.id} has no images for the phase ${label}.`);
  return phase;
}

/** Writes in flight while the next mesh is built: file writes (and their fsync) overlap the computation. */
const WRITES_IN_FLIGHT = 4;

/** The landmarks a GLB of `patientGlb` carries in `asset.extras` (JSON chunk right after the 12-byte header). */
function landmarksOfGlb(glb: Uint8Array): readonly Landmark[] {
  const view = new DataView(glb.buffer, glb.byteOffset, glb.byteLength);
  const length = view.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + length))) as {
    asset?: { extras?: { landmarks?: Landmark[] } };
  };
  return json.asset?.extras?.landmarks ?? [];
}

/** The population a cohort's stored patients come from (part of every mesh key). */
interface PopulationOfMeshes {
  modelVersion: string;
  populationSeed: number;
}

/** What names a cohort's meshes: its population and the mesh model that built the meshes of its order. */
export interface MeshSource extends PopulationOfMeshes {
  meshModelVersion: string;
}

/**
 * A patient's meshes per phase as one GLB (all organs, metres, with the landmarks in mm), built from the patient's
 * stored record on first use and cached in the workspace's data region. The key names every input (mesh model,
 * population model, seed, patient, phase), so a cached file never goes stale and is shared by cohorts holding the
 * same synthetic patient. A cohort reads its meshes under the mesh model of its order for ever; a phase not built
 * then (a cine frame first viewed after a mesh model change) is built by this server's mesh model and cached under
 * that model's key (docs/decisions/cohort-storage.md). Meshes are built in the CPU pool's threads, so neither an
 * order nor a first view of cine frames holds the event loop.
 */
export class PatientMeshCache {
  constructor(
    private readonly blobs: BlobStore,
    private readonly cpu: CpuRunner,
  ) {}

  private key(
    source: PopulationOfMeshes,
    meshModelVersion: string,
    patient: SyntheticPatient,
    phase: MeshPhase,
  ): string {
    return `meshes/${meshModelVersion}/${source.modelVersion}-${source.populationSeed}/${patient.id}/${phaseLabel(phase)}.glb`;
  }

  /**
   * Builds (by this server's mesh model) and stores every listed phase that is not stored yet (idempotent): as
   * many builds at once as the pool runs, a few writes overlapping them. Calls `done` after each phase, built or
   * found, in order.
   */
  async prepare(
    region: DataRegion,
    source: PopulationOfMeshes,
    items: readonly { patient: SyntheticPatient; phase: MeshPhase }[],
    done: (index: number) => Promise<void>,
    signal: AbortSignal,
  ): Promise<void> {
    const writing: Promise<void>[] = [];
    const building: Promise<{ key: string; glb: Uint8Array | null }>[] = [];
    let next = 0;
    const build = async ({ patient, phase }: { patient: SyntheticPatient; phase: MeshPhase }) => {
      const key = this.key(source, MESH_MODEL_VERSION, patient, phase);
      if (await this.exists(region, key)) return { key, glb: null };
      return { key, glb: await this.cpu.run(patientGlbTask, { patient, phase }, { signal }) };
    };
    try {
      for (let index = 0; index < items.length; index++) {
        signal.throwIfAborted();
        while (next < items.length && building.length < this.cpu.concurrency) {
          const started = build(items[next++]!);
          started.catch(() => undefined); // awaited in order below; a failure must not be "unhandled" meanwhile
          building.push(started);
        }
        const { key, glb } = await building.shift()!;
        if (glb) {
          writing.push(this.blobs.put(region, key, glb));
          if (writing.length >= WRITES_IN_FLIGHT) await writing.shift();
        }
        await done(index);
      }
      await Promise.all(writing);
    } finally {
      // On failure, let the builds and writes still in flight end before the job reports (no stray rejections).
      await Promise.allSettled([...building, ...writing]);
    }
  }

  async glb(region: DataRegion, source: MeshSource, patient: SyntheticPatient, phase: MeshPhase): Promise<Buffer> {
    const ordered = await this.blobs.get(region, this.key(source, source.meshModelVersion, patient, phase));
    if (ordered) return ordered;
    const key = this.key(source, MESH_MODEL_VERSION, patient, phase);
    const stored = source.meshModelVersion === MESH_MODEL_VERSION ? null : await this.blobs.get(region, key);
    if (stored) return stored;
    const built = await this.cpu.run(patientGlbTask, { patient, phase });
    const glb = Buffer.from(built.buffer, built.byteOffset, built.byteLength);
    await this.blobs.put(region, key, glb);
    return glb;
  }

  async landmarks(
    region: DataRegion,
    source: MeshSource,
    patient: SyntheticPatient,
    phase: MeshPhase,
  ): Promise<readonly Landmark[]> {
    return landmarksOfGlb(await this.glb(region, source, patient, phase));
  }

  private async exists(region: DataRegion, key: string): Promise<boolean> {
    const file = await this.blobs.open(region, key);
    file?.stream.destroy();
    return file !== null;
  }
}
