import { choleskyInPlace } from '@insilico/stats';
import { CORRELATION_TREE_V2, PRIMARY_MODELS_V2 } from './aorticRootV2';
import {
  CORRELATION_TREE_V1,
  PRIMARY_COUNT,
  PRIMARY_MODELS_V1,
  PRIMARY_PARAMETERS,
  buildResidualCorrelation,
  type CorrelationEdge,
  type PrimaryParameter,
  type PrimaryParameterModel,
} from './cardiac';

/**
 * The versions of the population model this code produces. Every version stays producible: a cohort ordered
 * before patient records were stored is regenerated from the version it names (docs/decisions/cohort-storage.md).
 */
export const MODEL_VERSIONS = ['anatomy-population-1', 'anatomy-population-2'] as const;
/** A population model version this code produces. */
export type ModelVersion = (typeof MODEL_VERSIONS)[number];
/** The version new orders and the built-in database use. */
export const MODEL_VERSION: ModelVersion = 'anatomy-population-2';

/** One version of the cardiac model: margins, residual correlation tree, R and its Cholesky factor. */
export interface CardiacModel {
  readonly version: ModelVersion;
  readonly primaryModels: readonly PrimaryParameterModel[];
  readonly correlationTree: readonly CorrelationEdge[];
  /** R, row-major PRIMARY_COUNT × PRIMARY_COUNT. */
  readonly correlation: Float64Array;
  /** Lower Cholesky factor of R (upper triangle zero). */
  readonly cholesky: Float64Array;
}

function cardiacModelOf(
  version: ModelVersion,
  primaryModels: readonly PrimaryParameterModel[],
  correlationTree: readonly CorrelationEdge[],
  cholesky: (correlation: Float64Array) => Float64Array,
): CardiacModel {
  if (primaryModels.some((model, p) => model.key !== PRIMARY_PARAMETERS[p]))
    throw new Error(`${version}: primary models out of PRIMARY_PARAMETERS order`);
  const correlation = buildResidualCorrelation(correlationTree);
  return { version, primaryModels, correlationTree, correlation, cholesky: cholesky(correlation) };
}

/**
 * The Cholesky factor of `tree` derived from the factor of `base`: the rows of parameters whose edge changed, and
 * of their descendants, from the tree's closed form (z_child = ρ·z_parent + √(1 − ρ²)·e_child, so
 * L_child = ρ·L_parent + √(1 − ρ²)·u_child); every other row copied bit for bit. The generic factorisation would
 * change unrelated parameters in their last bits; this keeps them byte-identical between versions.
 */
function refactoredTree(base: CardiacModel, tree: readonly CorrelationEdge[]): Float64Array {
  const n = PRIMARY_COUNT;
  const factor = Float64Array.from(base.cholesky);
  const index = (key: PrimaryParameter): number => PRIMARY_PARAMETERS.indexOf(key);
  const baseRho = new Map(base.correlationTree.map((edge) => [index(edge.child), edge.rho]));
  const recomputed = new Set<number>();
  const edges = [...tree].sort((a, b) => index(a.child) - index(b.child));
  for (const edge of edges) {
    const child = index(edge.child);
    const parent = index(edge.parent);
    if (baseRho.get(child) === edge.rho && !recomputed.has(parent)) continue;
    recomputed.add(child);
    for (let k = 0; k < n; k += 1) factor[child * n + k] = edge.rho * (factor[parent * n + k] ?? 0);
    factor[child * n + child] = Math.sqrt(1 - edge.rho * edge.rho);
  }
  return factor;
}

const MODEL_1 = cardiacModelOf('anatomy-population-1', PRIMARY_MODELS_V1, CORRELATION_TREE_V1, (correlation) =>
  choleskyInPlace(Float64Array.from(correlation), PRIMARY_COUNT),
);
const MODEL_2 = cardiacModelOf('anatomy-population-2', PRIMARY_MODELS_V2, CORRELATION_TREE_V2, () =>
  refactoredTree(MODEL_1, CORRELATION_TREE_V2),
);

const CARDIAC_MODELS: Readonly<Record<ModelVersion, CardiacModel>> = {
  'anatomy-population-1': MODEL_1,
  'anatomy-population-2': MODEL_2,
};

/** Whether `version` names a population model this code produces. */
export function isModelVersion(version: string): version is ModelVersion {
  return (MODEL_VERSIONS as readonly string[]).includes(version);
}

/** The cardiac model of `version` (RangeError for a version this code does not produce). */
export function cardiacModel(version: string = MODEL_VERSION): CardiacModel {
  if (!isModelVersion(version)) throw new RangeError(`unknown population model version: ${version}`);
  return CARDIAC_MODELS[version];
}

/** Residual correlation of two primary parameters (entry of R) in `model`. */
export function residualCorrelation(model: CardiacModel, a: PrimaryParameter, b: PrimaryParameter): number {
  return model.correlation[PRIMARY_PARAMETERS.indexOf(a) * PRIMARY_COUNT + PRIMARY_PARAMETERS.indexOf(b)] ?? 0;
}
