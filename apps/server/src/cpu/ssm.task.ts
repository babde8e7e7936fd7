import { buildPatientMeshes, MESH_MODEL_VERSION, type Landmark, type SyntheticPatient } from '@insilico/anatomy';
import type { SsmModelCard, SsmOrgan, SsmPhase } from '@insilico/contracts';
import { CPD_MAX_MOVING_POINTS, decimateTo, type TriangleMesh } from '@insilico/mesh';
import {
  applyTransform,
  correspondByRegistration,
  REGISTRATION_DEFAULTS,
  type CorrespondingShapes,
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
import type { DeliveredLandmark } from '../services/imaging-anatomy';
import { readDeliveredSurfaces } from './imaging-patient-mesh.task';
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

/** A shape's landmark as the model averages it (mm, the shape's own frame). */
type ShapeLandmark = Pick<Landmark, 'name' | 'position' | 'normal' | 'axis'> | DeliveredLandmark;

/**
 * Shapes put in correspondence, what either build hands to {@link modelOf}: the joint meshes (vertex i one
 * anatomical point on every shape), each shape's landmarks (the same names in the same order), the organs' ranges,
 * and what the model card says of how they were paired.
 */
interface ShapesInCorrespondence {
  corresponding: CorrespondingShapes;
  landmarks: ShapeLandmark[][];
  parts: SsmModelCard['parts'];
  /** Per shape, its registration residual (mm): registered builds only. */
  registration?: number[];
  card: Pick<SsmModelCard, 'correspondence' | 'referenceShape' | 'meshModelVersion' | 'registration'>;
}

/**
 * Builds a statistical shape model of virtual patients (the CPU pool's task): each patient's organ meshes at the
 * phase, joined organ after organ into one mesh (one topology for all: docs/decisions/ssm.md), then {@link modelOf}.
 */
export function buildSsm(input: SsmBuildInput, context: CpuTaskContext): SsmBuildOutput {
  context.progress(0, 'Building the patients’ meshes');
  const built = input.patients.map(({ patient }, i) => {
    const meshes = virtualOrgans(patient, input.organs, input.phase);
    context.progress((0.15 * (i + 1)) / input.patients.length, 'Building the patients’ meshes');
    return meshes;
  });
  const first = input.patients[0]?.patient.id ?? '';
  const shapes: ShapesInCorrespondence = {
    corresponding: correspondByTopology(built.map(({ organs }) => joinMeshes(organs))),
    landmarks: built.map(({ landmarks }) => landmarks),
    parts: partsOf(input.organs, built[0]?.organs ?? []),
    card: {
      correspondence: 'shared mesh topology (vertex i is one anatomical point on every patient)',
      referenceShape: first,
      meshModelVersion: MESH_MODEL_VERSION,
    },
  };
  return modelOf(
    input,
    input.patients.map(({ patient, cohortId }) => ({ patientId: patient.id, cohortId })),
    shapes,
    scaled(context, 0.15),
  );
}

/** A virtual patient's organ meshes at the phase, in the order asked, with its landmarks. */
function virtualOrgans(patient: SyntheticPatient, organs: readonly SsmOrgan[], phase: SsmPhase) {
  const meshes = buildPatientMeshes(patient, phase);
  return {
    organs: organs.map((organ) => {
      const found = meshes.organs.find((o) => o.organ === organ);
      if (!found) throw new Error(`The mesh model has no ${organ}.`);
      return found.mesh;
    }),
    landmarks: [...meshes.landmarks] as ShapeLandmark[],
  };
}

/** A shape of a model built by registration: a virtual patient, or a patient of the user's imaging. */
export type SsmShapeSource =
  | { source: 'virtual'; patient: SyntheticPatient; cohortId: string }
  | {
      source: 'imaging';
      patientId: string;
      cohortId: string;
      /** The dataset's delivered models zip on this machine's disk. */
      models: { path: string; bytes: number };
      /** The delivered phase (its name in the zip) matching the model's phase. */
      phase: string;
      landmarks: DeliveredLandmark[];
    };

/** {@link SsmBuildInput} with shapes of either source (a configuration naming an imaging cohort). */
export interface SsmRegisteredBuildInput extends Omit<SsmBuildInput, 'patients'> {
  shapes: SsmShapeSource[];
}

/** The CPD parameters registered builds use (packages/ssm's defaults) and the E-step's target sampling. */
const REGISTRATION = { cpd: REGISTRATION_DEFAULTS, maxTargetPoints: 4000 };

/**
 * Builds a statistical shape model by registration (docs/decisions/imaging-patients.md): each shape's organ
 * surfaces (a virtual patient's meshes, an imaging patient's delivered surfaces), the reference shape's surfaces
 * (the shape with the fewest vertices) registered onto every other shape's organ by organ with coherent point drift
 * (`correspondByRegistration` of @insilico/ssm), so the reference's triangles serve all; then {@link modelOf}.
 * Every shape is registered, virtual ones too: one correspondence method makes one model.
 */
export async function buildRegisteredSsm(
  input: SsmRegisteredBuildInput,
  context: CpuTaskContext,
): Promise<SsmBuildOutput> {
  context.progress(0, 'Reading the patients’ surfaces');
  const read: { organs: TriangleMesh[]; landmarks: ShapeLandmark[] }[] = [];
  for (const shape of input.shapes) {
    read.push(await organsOf(shape, input.organs, input.phase));
    context.progress((0.05 * read.length) / input.shapes.length, 'Reading the patients’ surfaces');
  }
  const reference = fewestVertices(read.map(({ organs }) => organs));
  const referenceId = shapeId(input.shapes[reference] as SsmShapeSource);
  const template = (read[reference] as (typeof read)[number]).organs.map(registrationReference);
  const residuals: number[] = [];
  const joined = read.map(({ organs }, j) => {
    if (j === reference) {
      residuals.push(0);
      return joinMeshes(template);
    }
    let weighted = 0;
    const registered = organs.map((mesh, k) => {
      const fit = correspondByRegistration([template[k] as TriangleMesh, mesh], { reference: 0, ...REGISTRATION });
      const vertices = fit.vertexCount;
      weighted += (fit.registrations[1] as { residual_mm: number }).residual_mm * vertices;
      return { positions: fit.shapes[1] as Float64Array, indices: fit.indices };
    });
    residuals.push(weighted / registered.reduce((n, m) => n + m.positions.length / 3, 0));
    context.progress(0.05 + (0.55 * (j + 1)) / read.length, `Registering the shapes (${j + 1} of ${read.length})`);
    return joinMeshes(registered);
  });
  const reference0 = joinMeshes(template);
  const names = commonLandmarkNames(read.map(({ landmarks }) => landmarks));
  const shapes: ShapesInCorrespondence = {
    corresponding: {
      vertexCount: reference0.positions.length / 3,
      indices: reference0.indices,
      shapes: joined.map(({ positions }) => positions),
    },
    // Delivered landmarks are points: directions are left out for every shape so that all have the same vectors.
    landmarks: read.map(({ landmarks }) =>
      names.map((name) => {
        const { position } = landmarks.find((l) => l.name === name) as ShapeLandmark;
        return { name, position: [position[0], position[1], position[2]] as [number, number, number] };
      }),
    ),
    parts: partsOf(input.organs, template),
    registration: residuals,
    card: {
      correspondence: `registration: coherent point drift of the reference shape's surfaces onto each shape's, organ by organ (${REGISTRATION.cpd.affine ? 'affine, then ' : ''}non-rigid)`,
      referenceShape: referenceId,
      meshModelVersion: input.shapes.some((s) => s.source === 'virtual')
        ? `${MESH_MODEL_VERSION} and delivered surfaces`
        : 'delivered surfaces',
      registration: {
        // The contract's card has no fields for these: they are named in the method's words.
        method: `coherent point drift (Myronenko & Song 2010), low-rank kernel; coarse-to-fine data (${REGISTRATION.cpd.coarse} well-spread target points while σ exceeds twice their covering radius)${REGISTRATION.cpd.continueVariance ? '; the non-rigid stage continues the affine stage’s σ²' : ''}; each stage also stops once no point moves more than ${REGISTRATION.cpd.motionTolerance} of the shape’s RMS radius in an iteration`,
        affineFirst: REGISTRATION.cpd.affine,
        beta: REGISTRATION.cpd.beta,
        lambda: REGISTRATION.cpd.lambda,
        outlierWeight: REGISTRATION.cpd.w,
        kernelRank: REGISTRATION.cpd.rank,
        maxIterations: REGISTRATION.cpd.maxIterations,
        tolerance: REGISTRATION.cpd.tolerance,
        maxTargetPoints: REGISTRATION.maxTargetPoints,
        reference: `the shape with the fewest vertices (${referenceId}), decimated to at most ${CPD_MAX_MOVING_POINTS} vertices per organ where finer`,
      },
    },
  };
  return modelOf(
    input,
    input.shapes.map((shape) => ({ patientId: shapeId(shape), cohortId: shape.cohortId })),
    shapes,
    scaled(context, 0.6),
  );
}

const shapeId = (shape: SsmShapeSource) => (shape.source === 'virtual' ? shape.patient.id : shape.patientId);

/** A shape's organ surfaces in the order asked, with its landmarks (an imaging patient's from its delivery). */
async function organsOf(shape: SsmShapeSource, organs: readonly SsmOrgan[], phase: SsmPhase) {
  if (shape.source === 'virtual') return virtualOrgans(shape.patient, organs, phase);
  const surfaces = await readDeliveredSurfaces({
    path: shape.models.path,
    bytes: shape.models.bytes,
    patient: shape.patientId,
    phase: shape.phase,
    organs,
  });
  return {
    organs: organs.map((organ) => {
      const found = surfaces.find((s) => s.organ === organ);
      // The server checked the delivery's record; a zip that disagrees with it is not the user's doing.
      if (!found) throw new Error(`Patient ${shape.patientId} has no delivered ${organ} surface at ${shape.phase}.`);
      return found.mesh;
    }),
    landmarks: shape.landmarks,
  };
}

/** The shape whose organs hold the fewest vertices together (the first of equals): the registration's reference. */
function fewestVertices(shapes: readonly (readonly TriangleMesh[])[]): number {
  let best = 0;
  let fewest = Infinity;
  shapes.forEach((organs, j) => {
    const n = organs.reduce((sum, mesh) => sum + mesh.positions.length / 3, 0);
    if (n < fewest) [best, fewest] = [j, n];
  });
  return best;
}

/**
 * The reference's surface of one organ as registration moves it: at most {@link CPD_MAX_MOVING_POINTS} vertices
 * (registration's E-step is M × N), a finer surface decimated to that many (quadric edge collapse, open rims kept:
 * docs/decisions/mesh-decimation.md); the decimated surface then stands for the reference shape in the model.
 */
function registrationReference(mesh: TriangleMesh): TriangleMesh {
  return mesh.positions.length / 3 > CPD_MAX_MOVING_POINTS ? decimateTo(mesh, CPD_MAX_MOVING_POINTS) : mesh;
}

/** The landmark names every shape has, in the first shape's order. */
function commonLandmarkNames(perShape: readonly ShapeLandmark[][]): string[] {
  const [first = [], ...rest] = perShape;
  return first.map((l) => l.name).filter((name) => rest.every((ls) => ls.some((l) => l.name === name)));
}

/** Each organ's vertex and triangle range in a shape's joint mesh. */
function partsOf(organs: readonly SsmOrgan[], meshes: readonly TriangleMesh[]): SsmModelCard['parts'] {
  let firstVertex = 0;
  let firstTriangle = 0;
  return meshes.map((mesh, k) => {
    const vertices = mesh.positions.length / 3;
    const triangles = mesh.indices.length / 3;
    const part = { organ: organs[k] as SsmOrgan, firstVertex, vertices, firstTriangle, triangles };
    firstVertex += vertices;
    firstTriangle += triangles;
    return part;
  });
}

/** The context with progress mapped from [0, 1] onto [start, 1]. */
function scaled(context: CpuTaskContext, start: number): CpuTaskContext {
  return {
    transfer: (...buffers) => context.transfer(...buffers),
    progress: (fraction, message) => context.progress(start + (1 - start) * fraction, message),
  };
}

/**
 * The model of shapes in correspondence: rigid generalised Procrustes, PCA, compactness, leave-one-out
 * generalisation and specificity curves, per-shape residuals with outliers flagged (on the leave-one-out error, and
 * on the registration residual where there is one), the landmarks of the mean, the rebuilt version's instances.
 */
function modelOf(
  input: Omit<SsmBuildInput, 'patients'>,
  ids: readonly { patientId: string; cohortId: string }[],
  shapes: ShapesInCorrespondence,
  context: CpuTaskContext,
): SsmBuildOutput {
  const { corresponding } = shapes;
  context.progress(0, 'Aligning the shapes');
  const alignment = generalisedProcrustes(corresponding.shapes);
  context.progress(0.05, 'Computing the modes');
  const model = buildShapeModel(alignment.aligned);
  const stride = Math.max(1, Math.ceil(corresponding.vertexCount / QUALITY_VERTICES));
  const curveModes = Math.max(1, Math.min(input.curveModes, model.modeCount));
  context.progress(0.1, 'Measuring generalisation');
  const general = generalisation(alignment.aligned, corresponding.indices, {
    maxModes: Math.min(curveModes, ids.length - 2),
    stride,
  });
  context.progress(0.35, 'Measuring specificity');
  const specific = specificity(model, alignment.aligned, corresponding.indices, {
    maxModes: curveModes,
    samples: input.samples,
    seed: input.seed,
    stride,
  });
  context.progress(0.99, 'Storing the model');
  const bytes = encodeShapeModel(model, corresponding.indices);
  context.transfer(...wholeBuffer(bytes));
  const outliers = flagOutliers(general.perShape);
  const registrationOutliers = shapes.registration ? flagOutliers(shapes.registration) : [];
  const coefficients = alignment.aligned.map((shape) => projectShape(model, shape));
  const landmarks = meanLandmarks(shapes.landmarks, alignment.transforms, model.mean, (vectors) =>
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
    shapes: ids.map(({ patientId, cohortId }, j) => ({
      patientId,
      cohortId,
      residual: general.perShape[j] as number,
      ...(shapes.registration ? { registration_mm: shapes.registration[j] } : {}),
      outlier: (outliers[j] as boolean) || registrationOutliers[j] === true,
    })),
    card: {
      shapes: ids.length,
      organs: input.organs,
      phase: input.phase,
      ...shapes.card,
      alignment: `rigid generalised Procrustes (no scaling), ${alignment.iterations} iterations`,
      seed: input.seed,
      codeVersion: SSM_CODE_VERSION,
      vertices: corresponding.vertexCount,
      triangles: corresponding.indices.length / 3,
      parts: shapes.parts,
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
  perPatient: readonly ShapeLandmark[][],
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
      const own = landmarks[l] as ShapeLandmark;
      const p = applyTransform(Float64Array.from(own.position), t);
      const rotate = (v: readonly number[]) =>
        applyTransform(Float64Array.from(v), { ...t, scale: 1, from: [0, 0, 0], to: [0, 0, 0] });
      for (let a = 0; a < 3; a++) position[a] = (position[a] as number) + (p[a] as number) / perPatient.length;
      const n =
        'normal' in landmark && landmark.normal && 'normal' in own && own.normal ? Array.from(rotate(own.normal)) : [];
      const x = 'axis' in landmark && landmark.axis && 'axis' in own && own.axis ? Array.from(rotate(own.axis)) : [];
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
    const n = 'normal' in landmark && landmark.normal ? unit(normal) : undefined;
    const x = 'axis' in landmark && landmark.axis ? unit(axis) : undefined;
    if (n) out.normal = n;
    if (x) out.axis = x;
    return out;
  });
}

/** Organ meshes as one mesh: positions one after the other, each organ's triangles shifted to its vertices. */
function joinMeshes(meshes: readonly TriangleMesh[]) {
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
export const ssmRegisteredBuildTask = cpuTask(import.meta.url, 'buildRegisteredSsm', buildRegisteredSsm);
