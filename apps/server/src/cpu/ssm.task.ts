import { buildPatientMeshes, MESH_MODEL_VERSION, type Landmark, type SyntheticPatient } from '@insilico/anatomy';
import type { SsmModelCard, SsmOrgan, SsmPhase } from '@insilico/contracts';
import {
  applyTransform,
  buildShapeModel,
  compactness,
  correspondByTopology,
  encodeShapeModel,
  generalisation,
  decodeShapeModel,
  generalisedProcrustes,
  instanceLabel,
  landmarkModes,
  mapInstance,
  modesForVariance,
  projectShape,
  specificity,
  SSM_CODE_VERSION,
  SsmInputError,
  type ProcrustesTransform,
  type ShapeBasis,
} from '@insilico/ssm';
import { cpuTask, wholeBuffer, type CpuTaskContext } from './task';

/** The shapes of one model: patients (with their cohort), organs, phase; `seed` of the specificity samples. */
export interface SsmBuildInput {
  patients: { patient: SyntheticPatient; cohortId: string }[];
  organs: SsmOrgan[];
  phase: SsmPhase;
  seed: number;
  /** Specificity samples (1,000, ShapeWorks' number). */
  samples: number;
  /** The quality curves run to this many modes at most. */
  curveModes: number;
  /**
   * A rebuild's named instances to carry over: the version it rebuilds (its model file) and their shapes' labels,
   * each mapped onto the new model (`mapInstance` of @insilico/ssm; docs/decisions/ssm-versions.md).
   */
  instances?: { model: Uint8Array; labels: string[] };
}

/** A named instance of the version rebuilt, as a shape of the new model (null where it cannot be mapped, and why). */
export type SsmMappedInstance =
  | { label: string; mapped: string; residual_mm: number; clampedModes: number[] }
  | { label: string; mapped: null; reason: string };

/** The model file and what the SSM's page shows. */
export interface SsmBuildOutput {
  bytes: Uint8Array;
  modes: { variance: number; explained: number }[];
  quality: { compactness: number[]; generalisation: number[]; specificity: number[]; modesKept: number };
  shapes: { patientId: string; cohortId: string; residual: number; outlier: boolean }[];
  card: Omit<SsmModelCard, 'cohorts'>;
  /** The patients' landmarks, aligned and averaged, each tied to its nearest vertex (instances carry it along). */
  landmarks: SsmLandmark[];
  /** The rebuilt version's named instances mapped onto this model, in the order asked (none for a first version). */
  instances: SsmMappedInstance[];
}

/** A landmark of the mean shape (mm, the model's frame). */
export interface SsmLandmark {
  name: string;
  position: [number, number, number];
  normal?: [number, number, number];
  axis?: [number, number, number];
  /** The nearest vertex of the joint mesh. */
  vertex: number;
  /**
   * Per mode, how the landmark moves per standard deviation: its position, then its normal and axis where it has
   * them (3 numbers each), regressed on the patients' mode coefficients (`landmarkModes` of @insilico/ssm). Models
   * built before it (SSM_CODE_VERSION ssm-1) lack it.
   */
  modes?: number[][];
}

/** Share of the variance the kept modes hold. */
const KEPT_VARIANCE = 0.95;
/** Every n-th vertex enters the quality measures' mean distances when a shape has more than this many. */
const QUALITY_VERTICES = 1000;

/**
 * Builds a statistical shape model (the CPU pool's task): each patient's organ meshes at the phase, joined organ
 * after organ into one mesh (one topology for all: docs/decisions/ssm.md), rigid generalised Procrustes, PCA,
 * compactness, leave-one-out generalisation and specificity curves, per-shape residuals with outliers flagged.
 */
export function buildSsm(input: SsmBuildInput, context: CpuTaskContext): SsmBuildOutput {
  context.progress(0, 'Building the patients’ meshes');
  const parts: SsmModelCard['parts'] = [];
  const landmarksOf: Landmark[][] = [];
  const joined = input.patients.map(({ patient }, i) => {
    const meshes = buildPatientMeshes(patient, input.phase);
    landmarksOf.push([...meshes.landmarks]);
    const organs = input.organs.map((organ) => {
      const found = meshes.organs.find((o) => o.organ === organ);
      if (!found) throw new Error(`The mesh model has no ${organ}.`);
      return found.mesh;
    });
    if (i === 0) {
      let firstVertex = 0;
      let firstTriangle = 0;
      organs.forEach((mesh, k) => {
        const vertices = mesh.positions.length / 3;
        const triangles = mesh.indices.length / 3;
        parts.push({ organ: input.organs[k] as SsmOrgan, firstVertex, vertices, firstTriangle, triangles });
        firstVertex += vertices;
        firstTriangle += triangles;
      });
    }
    context.progress((0.15 * (i + 1)) / input.patients.length, 'Building the patients’ meshes');
    return joinMeshes(organs);
  });
  context.progress(0.15, 'Aligning the shapes');
  const shapes = correspondByTopology(joined);
  const alignment = generalisedProcrustes(shapes.shapes);
  context.progress(0.2, 'Computing the modes');
  const model = buildShapeModel(alignment.aligned);
  const stride = Math.max(1, Math.ceil(shapes.vertexCount / QUALITY_VERTICES));
  const curveModes = Math.max(1, Math.min(input.curveModes, model.modeCount));
  context.progress(0.25, 'Measuring generalisation');
  const general = generalisation(alignment.aligned, shapes.indices, {
    maxModes: Math.min(curveModes, input.patients.length - 2),
    stride,
  });
  context.progress(0.45, 'Measuring specificity');
  const specific = specificity(model, alignment.aligned, shapes.indices, {
    maxModes: curveModes,
    samples: input.samples,
    seed: input.seed,
    stride,
  });
  context.progress(0.99, 'Storing the model');
  const bytes = encodeShapeModel(model, shapes.indices);
  context.transfer(...wholeBuffer(bytes));
  const outliers = flagOutliers(general.perShape);
  const coefficients = alignment.aligned.map((shape) => projectShape(model, shape));
  const landmarks = meanLandmarks(landmarksOf, alignment.transforms, model.mean, (vectors) =>
    landmarkModes(coefficients, model.variances, vectors).map((row) => Array.from(row, roundMicrometre)),
  );
  return {
    bytes,
    modes: Array.from(model.variances, (variance, k) => ({ variance, explained: model.explained[k] as number })),
    quality: {
      compactness: Array.from(compactness(model).subarray(0, curveModes)),
      generalisation: Array.from(general.curve),
      specificity: Array.from(specific),
      modesKept: modesForVariance(model, KEPT_VARIANCE),
    },
    shapes: input.patients.map(({ patient, cohortId }, j) => ({
      patientId: patient.id,
      cohortId,
      residual: general.perShape[j] as number,
      outlier: outliers[j] as boolean,
    })),
    card: {
      shapes: input.patients.length,
      organs: input.organs,
      phase: input.phase,
      correspondence: 'shared mesh topology (vertex i is one anatomical point on every patient)',
      alignment: `rigid generalised Procrustes (no scaling), ${alignment.iterations} iterations`,
      referenceShape: input.patients[0]?.patient.id ?? '',
      seed: input.seed,
      meshModelVersion: MESH_MODEL_VERSION,
      codeVersion: SSM_CODE_VERSION,
      vertices: shapes.vertexCount,
      triangles: shapes.indices.length / 3,
      parts,
    },
    landmarks,
    instances: input.instances ? mapInstances(input.instances, model) : [],
  };
}

/** Each label of the older model (`mean` or SD per mode) as a shape of the new one; refusals in words. */
function mapInstances(instances: { model: Uint8Array; labels: string[] }, model: ShapeBasis): SsmMappedInstance[] {
  const older = decodeShapeModel(instances.model);
  return instances.labels.map((label): SsmMappedInstance => {
    try {
      const deviations = label === 'mean' ? [] : label.split(',').map(Number);
      const mapped = mapInstance(older, model, deviations);
      return {
        label,
        mapped: instanceLabel(mapped.deviations),
        residual_mm: Math.round(mapped.residual_mm * 1e4) / 1e4,
        clampedModes: mapped.clampedModes,
      };
    } catch (error) {
      if (!(error instanceof SsmInputError)) throw error;
      return { label, mapped: null, reason: error.message };
    }
  });
}

/** Landmark modes are stored to a micrometre (per SD), which keeps the summary small. */
const roundMicrometre = (v: number) => Math.round(v * 1e6) / 1e6;

/**
 * Each landmark moved with its patient's alignment and averaged over the patients (directions by their rotation,
 * renormalised), then tied to the nearest vertex of the mean shape; `modesOf` turns the aligned vectors of every
 * patient (position, then normal and axis where the landmark has them) into the landmark's modes.
 */
function meanLandmarks(
  perPatient: readonly Landmark[][],
  transforms: readonly ProcrustesTransform[],
  mean: Float64Array,
  modesOf: (vectors: number[][]) => number[][],
): SsmLandmark[] {
  const first = perPatient[0] ?? [];
  return first.map((landmark, l) => {
    const position = [0, 0, 0];
    const normal = [0, 0, 0];
    const axis = [0, 0, 0];
    const vectors = perPatient.map((landmarks, j) => {
      const t = transforms[j] as ProcrustesTransform;
      const own = landmarks[l] as Landmark;
      const p = applyTransform(Float64Array.from(own.position), t);
      const rotate = (v: readonly number[]) =>
        applyTransform(Float64Array.from(v), { ...t, scale: 1, from: [0, 0, 0], to: [0, 0, 0] });
      for (let a = 0; a < 3; a++) position[a] = (position[a] as number) + (p[a] as number) / perPatient.length;
      const n = landmark.normal && own.normal ? Array.from(rotate(own.normal)) : [];
      const x = landmark.axis && own.axis ? Array.from(rotate(own.axis)) : [];
      n.forEach((v, a) => (normal[a] = (normal[a] as number) + v));
      x.forEach((v, a) => (axis[a] = (axis[a] as number) + v));
      return [...p, ...n, ...x];
    });
    let vertex = 0;
    let best = Infinity;
    for (let i = 0; i < mean.length; i += 3) {
      const d =
        ((mean[i] as number) - (position[0] as number)) ** 2 +
        ((mean[i + 1] as number) - (position[1] as number)) ** 2 +
        ((mean[i + 2] as number) - (position[2] as number)) ** 2;
      if (d < best) [best, vertex] = [d, i / 3];
    }
    const unit = (v: number[]): [number, number, number] | undefined => {
      const n = Math.hypot(...v);
      return n > 0 ? [(v[0] as number) / n, (v[1] as number) / n, (v[2] as number) / n] : undefined;
    };
    const out: SsmLandmark = {
      name: landmark.name,
      position: position as [number, number, number],
      vertex,
      modes: modesOf(vectors),
    };
    const n = landmark.normal ? unit(normal) : undefined;
    const x = landmark.axis ? unit(axis) : undefined;
    if (n) out.normal = n;
    if (x) out.axis = x;
    return out;
  });
}

/** Organ meshes as one mesh: positions one after the other, each organ's triangles shifted to its vertices. */
function joinMeshes(meshes: readonly { positions: Float64Array; indices: Uint32Array }[]) {
  const vertices = meshes.reduce((n, m) => n + m.positions.length, 0);
  const triangles = meshes.reduce((n, m) => n + m.indices.length, 0);
  const positions = new Float64Array(vertices);
  const indices = new Uint32Array(triangles);
  let v = 0;
  let t = 0;
  for (const mesh of meshes) {
    positions.set(mesh.positions, v);
    for (let i = 0; i < mesh.indices.length; i++) indices[t + i] = (mesh.indices[i] as number) + v / 3;
    v += mesh.positions.length;
    t += mesh.indices.length;
  }
  return { positions, indices };
}

/**
 * Outliers: a leave-one-out residual more than 3 robust standard deviations (1.4826 × the median absolute
 * deviation) above the median, and above 0.1 mm (residuals of a few micrometres are all "equal").
 */
export function flagOutliers(residuals: ArrayLike<number>): boolean[] {
  const values = Array.from(residuals);
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
  };
  const mid = median(values);
  const spread = 1.4826 * median(values.map((x) => Math.abs(x - mid)));
  return values.map((x) => x > 0.1 && x > mid + 3 * spread);
}

export const ssmBuildTask = cpuTask(import.meta.url, 'buildSsm', buildSsm);
