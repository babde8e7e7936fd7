import {
  CORRELATION_TREE_V1,
  PRIMARY_MODELS_V1,
  bySex,
  type CardiacCovariates,
  type CorrelationEdge,
  type PrimaryParameter,
  type PrimaryParameterModel,
} from './cardiac';

/**
 * anatomy-population-2: the aortic root's tails recalibrated (issue 23; docs/decisions/anatomy-population-model.md,
 * "Model 2: the root's tails"). Everything else is anatomy-population-1 unchanged, and the draws are the same, so
 * only the sinus of Valsalva, the STJ and the residuals downstream of the sinus in the correlation tree (ascending
 * aorta, coronary heights) move.
 *
 * Sources: Hamdan et al., J Cardiovasc Comput Tomogr 2017 (n = 506, severe aortic stenosis referred for TAVI,
 * Israel, ≈ 80 ± 8.5 y, ECG-gated CT) at TAVI ages (≥ 75 y); Devereux et al., Am J Cardiol 2012 (healthy adults,
 * 2D echo) for the age and BSA slopes of the sinus and its residual SD in younger adults.
 */

/**
 * Ages over which the root moves from the younger-adult reference (Devereux's healthy adults) to the TAVI-age one
 * (Hamdan's CT): weight 0 up to `from`, 1 from `to`, linear between (the interpolation is ours).
 */
export const TAVI_AGE_RAMP_YEARS = { from: 50, to: 75 } as const;

/** Weight of the TAVI-age calibration at `age_years` (0 to 1, see TAVI_AGE_RAMP_YEARS). */
export function taviAgeWeight(age_years: number): number {
  const { from, to } = TAVI_AGE_RAMP_YEARS;
  return Math.min(1, Math.max(0, (age_years - from) / (to - from)));
}

const ramped = (x: CardiacCovariates, young: number, old: number): number =>
  young + (old - young) * taviAgeWeight(x.age_years);

function v1Model(key: PrimaryParameter): PrimaryParameterModel {
  const model = PRIMARY_MODELS_V1.find((candidate) => candidate.key === key);
  if (model === undefined) throw new Error(`no v1 model of ${key}`);
  return model;
}
const SINUS_V1 = v1Model('sinusOfValsalvaDiameter_mm');
const STJ_V1 = v1Model('sinotubularJunctionDiameter_mm');

/**
 * Sinus of Valsalva, v2: Devereux's regression (v1) in younger adults, lowered towards the CT level of TAVI
 * patients with age (women −2.45, men −1.75 mm from 75 y); residual SD from Devereux's SEE (2.61 mm) growing to the
 * spread of the TAVI CT series.
 */
const SINUS_V2: PrimaryParameterModel = {
  ...SINUS_V1,
  center: (x) => SINUS_V1.center(x) - bySex(x, 2.45, 1.75) * taviAgeWeight(x.age_years),
  sd: (x) => ramped(x, 2.61, bySex(x, 4.06, 3.64)),
};

/** Sinotubular junction, v2: v1's regression (women +0.15 mm), SD growing to the spread of the TAVI CT series. */
const STJ_V2: PrimaryParameterModel = {
  ...STJ_V1,
  center: (x) => STJ_V1.center(x) + bySex(x, 0.15, 0),
  sd: (x) => ramped(x, bySex(x, 2.6, 3.0), bySex(x, 3.31, 4.12)),
};

const REPLACED_MODELS: readonly PrimaryParameterModel[] = [SINUS_V2, STJ_V2];

/** Residual correlations of v2 that differ from v1 (see the decision record for how ρ follows from r). */
const REPLACED_EDGES: readonly CorrelationEdge[] = [
  { parent: 'aorticAnnulusDiameter_mm', child: 'sinusOfValsalvaDiameter_mm', rho: 0.79 },
  { parent: 'sinusOfValsalvaDiameter_mm', child: 'sinotubularJunctionDiameter_mm', rho: 0.9 },
];

const replaced = <T extends { key: PrimaryParameter } | { child: PrimaryParameter }>(
  base: readonly T[],
  changes: readonly T[],
  keyOf: (item: T) => PrimaryParameter,
): readonly T[] => base.map((item) => changes.find((change) => keyOf(change) === keyOf(item)) ?? item);

/** The primary parameter models of anatomy-population-2, in PRIMARY_PARAMETERS order. */
export const PRIMARY_MODELS_V2: readonly PrimaryParameterModel[] = replaced(
  PRIMARY_MODELS_V1,
  REPLACED_MODELS,
  (model) => model.key,
);

/** The residual correlation tree of anatomy-population-2. */
export const CORRELATION_TREE_V2: readonly CorrelationEdge[] = replaced(
  CORRELATION_TREE_V1,
  REPLACED_EDGES,
  (edge) => edge.child,
);
