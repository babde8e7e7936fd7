import type { Sex } from '../criteria/enumerations';
import type { PathologyFlags } from './pathology';

/**
 * The cardiac parameter model. Each primary parameter p is
 *
 *     value_p = clamp( c_p(x) + s_p(x) · z_p , bounds_p(x) )      (× BSA for the indexed ones)
 *
 * where x are the covariates (sex, age, BSA, pathology), c_p the conditional mean, s_p the residual SD and
 * z ~ N(0, R) with R the residual correlation matrix below (a Gaussian copula with normal margins, drawn as
 * z = L·e with L the Cholesky factor of R and e independent standard normals). Derived quantities (annulus
 * ellipse, volumes from indices, ESV from EDV and EF, mitral area) are computed from the primaries so they are
 * geometrically consistent. Every number is listed with its source in docs/validation.md.
 */

/** Covariates the cardiac parameters are conditioned on. */
export interface CardiacCovariates {
  readonly sex: Sex;
  readonly age_years: number;
  /** Body-surface area (Du Bois), m². */
  readonly bsa_m2: number;
  readonly pathology: PathologyFlags;
  /** Latent: this aortic-stenosis patient has a hypertrophied LV (drawn with AS_HYPERTROPHY_PROBABILITY). */
  readonly asHypertrophy: boolean;
}

/** Probability that a severe aortic-stenosis patient develops LV hypertrophy (latent; ~70 %). */
export const AS_HYPERTROPHY_PROBABILITY = 0.7;

/** BSA (m²) at which the sex-specific reference means of the linear parameters apply. */
export const REFERENCE_BSA_M2: Readonly<Record<Sex, number>> = { female: 1.8, male: 2.0 };

/** LV mass index above which the LV is hypertrophied (ASE/EACVI 2015, linear method), g/m². */
export const LV_HYPERTROPHY_THRESHOLD_G_M2: Readonly<Record<Sex, number>> = { female: 95, male: 115 };

/** Primary (sampled) parameters, in the order of the residual vector z. */
export const PRIMARY_PARAMETERS = [
  'aorticAnnulusDiameter_mm',
  'lvotDiameter_mm',
  'sinusOfValsalvaDiameter_mm',
  'sinotubularJunctionDiameter_mm',
  'ascendingAortaDiameter_mm',
  'leftCoronaryHeight_mm',
  'rightCoronaryHeight_mm',
  'aorticAnnulusRatio',
  'lvEdvIndex_mL_m2',
  'lvEf_percent',
  'lvMassIndex_g_m2',
  'laVolumeIndex_mL_m2',
  'mitralAnnulusApDiameter_mm',
  'mitralAnnulusIcDiameter_mm',
  'rvEdvIndex_mL_m2',
  'rvEf_percent',
  'tricuspidAnnulusDiameter_mm',
  'mainPulmonaryArteryDiameter_mm',
  'raVolumeIndex_mL_m2',
  'aorticValveArea_cm2',
  'sinotubularJunctionGap_mm',
] as const;
/** A primary parameter of the cardiac model. */
export type PrimaryParameter = (typeof PRIMARY_PARAMETERS)[number];
/** Number of primary parameters (length of z). */
export const PRIMARY_COUNT = PRIMARY_PARAMETERS.length;

/** Definition of one primary parameter. */
export interface PrimaryParameterModel {
  readonly key: PrimaryParameter;
  /** True when c and s are per m² of BSA and the value is multiplied by the patient's BSA (Du Bois). */
  readonly indexedByBsa: boolean;
  /** Conditional mean c_p(x), in the parameter's unit (per m² when indexed). */
  readonly center: (x: CardiacCovariates) => number;
  /** Residual SD s_p(x), same unit as `center`. */
  readonly sd: (x: CardiacCovariates) => number;
  /** Plausibility bounds [lo, hi] applied to c + s·z (same unit as `center`). */
  readonly bounds: (x: CardiacCovariates) => readonly [number, number];
}

export const bySex = (x: CardiacCovariates, female: number, male: number): number =>
  x.sex === 'female' ? female : male;
export const dBsa = (x: CardiacCovariates): number => x.bsa_m2 - REFERENCE_BSA_M2[x.sex];
const flag = (value: boolean): number => (value ? 1 : 0);
export const fixed = (lo: number, hi: number): ((x: CardiacCovariates) => readonly [number, number]) => {
  const bounds = [lo, hi] as const;
  return () => bounds;
};

/** The primary parameter models of anatomy-population-1, in PRIMARY_PARAMETERS order. */
export const PRIMARY_MODELS_V1: readonly PrimaryParameterModel[] = [
  {
    // Hamdan/Shaviv JCCT 2017 (TAVI CT, n = 506) sex means at reference BSA; BSA slope and residual SD: ours.
    key: 'aorticAnnulusDiameter_mm',
    indexedByBsa: false,
    center: (x) => bySex(x, 22.9, 25.7) + 3.0 * dBsa(x),
    sd: (x) => bySex(x, 2.0, 2.5),
    bounds: fixed(16, 34),
  },
  {
    // Assumption: LVOT mean diameter ≈ annulus − 0.6/−0.7 mm (CT TAVI series), same BSA slope.
    key: 'lvotDiameter_mm',
    indexedByBsa: false,
    center: (x) => bySex(x, 22.3, 25.0) + 3.0 * dBsa(x),
    sd: (x) => bySex(x, 2.1, 2.6),
    bounds: fixed(15, 34),
  },
  {
    // Devereux et al., Am J Cardiol 2012: SoV(cm) = 2.423 + 0.009·age + 0.461·BSA − 0.267·sex(1 man, 2 woman), SEE 0.261.
    key: 'sinusOfValsalvaDiameter_mm',
    indexedByBsa: false,
    center: (x) => 24.23 + 0.09 * x.age_years + 4.61 * x.bsa_m2 - 2.67 * bySex(x, 2, 1),
    sd: () => 2.61,
    bounds: fixed(22, 55),
  },
  {
    // Hamdan/Shaviv 2017 sex means (at TAVI age ≈ 80 y); age and BSA slopes and residual SD: ours.
    key: 'sinotubularJunctionDiameter_mm',
    indexedByBsa: false,
    center: (x) => bySex(x, 26.3, 29.8) + 3.5 * dBsa(x) + 0.07 * (x.age_years - 80),
    sd: (x) => bySex(x, 2.6, 3.0),
    bounds: fixed(16, 50),
  },
  {
    // Approximate CT population means (Wolak et al., JACC CV Imaging 2008) at 60 y, ~1.2 mm/decade; AS +1.5 mm: ours.
    key: 'ascendingAortaDiameter_mm',
    indexedByBsa: false,
    center: (x) =>
      bySex(x, 32.0, 34.0) + 4.0 * dBsa(x) + 0.12 * (x.age_years - 60) + 1.5 * flag(x.pathology.aorticStenosis),
    sd: (x) => bySex(x, 3.4, 3.6),
    bounds: fixed(20, 55),
  },
  {
    // Tops et al., JACC CV Imaging 2008 (CT, 14.4 ± 2.9 mm overall); sex split and BSA slope: ours.
    key: 'leftCoronaryHeight_mm',
    indexedByBsa: false,
    center: (x) => bySex(x, 13.4, 14.9) + 2.0 * dBsa(x),
    sd: (x) => bySex(x, 2.5, 2.8),
    bounds: fixed(5, 25),
  },
  {
    // Tops et al. 2008 (17.2 ± 3.3 mm overall); sex split and BSA slope: ours.
    key: 'rightCoronaryHeight_mm',
    indexedByBsa: false,
    center: (x) => bySex(x, 16.4, 18.1) + 2.0 * dBsa(x),
    sd: (x) => bySex(x, 2.9, 3.1),
    bounds: fixed(7, 30),
  },
  {
    // Minor/major diameter ratio of the annulus ellipse ≈ 0.80 ± 0.06 (CT; assumption rounded from TAVI CT series).
    key: 'aorticAnnulusRatio',
    indexedByBsa: false,
    center: () => 0.8,
    sd: () => 0.06,
    bounds: fixed(0.6, 1),
  },
  {
    // ASE/EACVI 2015 (Lang): LVEDV/BSA 45 ± 8 (women), 54 ± 10 (men) mL/m²; age slope and pathology shifts: ours.
    key: 'lvEdvIndex_mL_m2',
    indexedByBsa: true,
    center: (x) =>
      bySex(x, 45, 54) -
      0.1 * (x.age_years - 50) +
      35 * flag(x.pathology.heartFailure) +
      12 * flag(x.pathology.mitralRegurgitation),
    sd: (x) => bySex(x, 8, 10) * (x.pathology.heartFailure ? 1.5 : 1),
    bounds: fixed(20, 200),
  },
  {
    // ASE/EACVI 2015: LVEF 64 ± 5 (women, 54–74), 62 ± 5 (men, 52–72) %; HFrEF 30 ± 5 capped at 40 %: ours.
    key: 'lvEf_percent',
    indexedByBsa: false,
    center: (x) => (x.pathology.heartFailure ? 30 : bySex(x, 64, 62) + 0.05 * (x.age_years - 50)),
    sd: () => 5,
    bounds: (x) => (x.pathology.heartFailure ? [10, 40] : [41, 80]),
  },
  {
    // ASE/EACVI 2015 linear-method normal ranges 43–95 (women), 49–115 (men) g/m² → 69 ± 13, 82 ± 16.
    // AS with hypertrophy: +46/+53 g/m² (most above the limit); AS without: +8; HFrEF +20; MR +8: ours.
    key: 'lvMassIndex_g_m2',
    indexedByBsa: true,
    center: (x) =>
      bySex(x, 69, 82) +
      0.1 * (x.age_years - 50) +
      (x.pathology.aorticStenosis ? (x.asHypertrophy ? bySex(x, 46, 53) : 8) : 0) +
      20 * flag(x.pathology.heartFailure) +
      8 * flag(x.pathology.mitralRegurgitation),
    sd: (x) => bySex(x, 13, 16),
    bounds: fixed(35, 260),
  },
  {
    // ASE/EACVI 2015: LA volume/BSA 16–34 mL/m² → 25 ± 4.6; age slope and pathology shifts: ours.
    key: 'laVolumeIndex_mL_m2',
    indexedByBsa: true,
    center: (x) =>
      25 +
      0.08 * (x.age_years - 50) +
      12 * flag(x.pathology.mitralRegurgitation) +
      10 * flag(x.pathology.heartFailure) +
      5 * flag(x.pathology.aorticStenosis),
    sd: () => 4.6,
    bounds: fixed(10, 120),
  },
  {
    // Chosen so that the normal mitral annulus area index ≈ 4.7 cm²/m² (issue 4 starting point); MR ×≈1.18: ours.
    key: 'mitralAnnulusApDiameter_mm',
    indexedByBsa: false,
    center: (x) =>
      bySex(x, 29.0, 31.0) +
      6.0 * dBsa(x) +
      bySex(x, 5.0, 5.5) * flag(x.pathology.mitralRegurgitation) +
      2.0 * flag(x.pathology.heartFailure),
    sd: (x) => bySex(x, 2.8, 3.0),
    bounds: fixed(18, 55),
  },
  {
    key: 'mitralAnnulusIcDiameter_mm',
    indexedByBsa: false,
    center: (x) =>
      bySex(x, 37.0, 39.5) +
      7.0 * dBsa(x) +
      bySex(x, 6.5, 7.0) * flag(x.pathology.mitralRegurgitation) +
      2.5 * flag(x.pathology.heartFailure),
    sd: (x) => bySex(x, 3.2, 3.4),
    bounds: fixed(24, 65),
  },
  {
    // CMR reference (Kawel-Boehm et al., JCMR 2015, rounded): RVEDV/BSA 76 ± 11 (women), 86 ± 13 (men) mL/m².
    // Pulmonary regurgitation +45, TR +15, HFrEF +10 mL/m²: ours.
    key: 'rvEdvIndex_mL_m2',
    indexedByBsa: true,
    center: (x) =>
      bySex(x, 76, 86) -
      0.15 * (x.age_years - 50) +
      45 * flag(x.pathology.pulmonaryRegurgitation) +
      15 * flag(x.pathology.tricuspidRegurgitation) +
      10 * flag(x.pathology.heartFailure),
    sd: (x) => bySex(x, 11, 13),
    bounds: fixed(35, 260),
  },
  {
    // CMR reference (Kawel-Boehm 2015, rounded): RVEF 60 ± 6 (women), 57 ± 6 (men) %; HFrEF −10, PR −5: ours.
    key: 'rvEf_percent',
    indexedByBsa: false,
    center: (x) =>
      bySex(x, 60, 57) +
      0.05 * (x.age_years - 50) -
      10 * flag(x.pathology.heartFailure) -
      5 * flag(x.pathology.pulmonaryRegurgitation),
    sd: () => 6,
    bounds: fixed(20, 80),
  },
  {
    // MRI, Am J Cardiol 2019 (issue 4): 30 (23–37) women, 36 (27–44) men → residual SD after BSA 3.2/4.0.
    // TR +14 mm and floored at min(40 mm, 21 mm/m² · BSA + 0.1) so the TR criterion always holds: ours.
    key: 'tricuspidAnnulusDiameter_mm',
    indexedByBsa: false,
    center: (x) =>
      bySex(x, 30, 36) +
      8.0 * dBsa(x) +
      14 * flag(x.pathology.tricuspidRegurgitation) +
      3 * flag(x.pathology.pulmonaryRegurgitation) +
      2 * flag(x.pathology.heartFailure),
    sd: (x) => bySex(x, 3.2, 4.0),
    bounds: (x) => (x.pathology.tricuspidRegurgitation ? [Math.min(40, 21 * x.bsa_m2 + 0.1), 70] : [18, 70]),
  },
  {
    // Burman et al., JCMR 2016 (MRI): 21.2 ± 2.1 (women), 22.9 ± 2.4 (men) mm; slopes and shifts: ours.
    key: 'mainPulmonaryArteryDiameter_mm',
    indexedByBsa: false,
    center: (x) =>
      bySex(x, 21.2, 22.9) +
      3.0 * dBsa(x) +
      0.03 * (x.age_years - 50) +
      3 * flag(x.pathology.pulmonaryRegurgitation) +
      1.5 * flag(x.pathology.heartFailure),
    sd: (x) => bySex(x, 2.0, 2.2),
    bounds: fixed(14, 45),
  },
  {
    // ASE/EACVI 2015: RA volume/BSA 21 ± 6 (women), 25 ± 7 (men) mL/m² (2D); TR +15, HFrEF +6: ours.
    key: 'raVolumeIndex_mL_m2',
    indexedByBsa: true,
    center: (x) =>
      bySex(x, 21, 25) + 15 * flag(x.pathology.tricuspidRegurgitation) + 6 * flag(x.pathology.heartFailure),
    sd: (x) => bySex(x, 6, 7),
    bounds: fixed(8, 150),
  },
  {
    // Normal AVA 3–4 cm² (Baumgartner et al., EAE/ASE 2009/2017); severe AS < 1.0 cm²: 0.75 ± 0.12 in [0.4, 0.99]: ours.
    key: 'aorticValveArea_cm2',
    indexedByBsa: false,
    center: (x) => (x.pathology.aorticStenosis ? 0.75 : 3.4 + 1.2 * dBsa(x)),
    sd: (x) => (x.pathology.aorticStenosis ? 0.12 : 0.4),
    bounds: (x) => (x.pathology.aorticStenosis ? [0.4, 0.99] : [2.0, 5.5]),
  },
  {
    // Height of the sinotubular junction above the higher coronary ostium: 4.0 ± 1.5 mm in [1.5, 10] (ours), so
    // that STJ height = max(coronary heights) + gap ≈ 20–23 mm and the ostia always lie inside the sinuses.
    key: 'sinotubularJunctionGap_mm',
    indexedByBsa: false,
    center: () => 4.0,
    sd: () => 1.5,
    bounds: fixed(1.5, 10),
  },
];

/** One edge of the residual correlation tree: the residual of `child` correlates ρ with that of `parent`. */
export interface CorrelationEdge {
  readonly parent: PrimaryParameter;
  readonly child: PrimaryParameter;
  readonly rho: number;
}

/**
 * Residual correlations of anatomy-population-1 as a tree (parent → child: ρ). The full matrix R is implied: the
 * correlation of two parameters is the product of ρ along the path between them (a Gaussian tree model, positive
 * definite by construction). Parents precede children in PRIMARY_PARAMETERS. Values: docs/validation.md.
 */
export const CORRELATION_TREE_V1: readonly CorrelationEdge[] = [
  { parent: 'aorticAnnulusDiameter_mm', child: 'lvotDiameter_mm', rho: 0.95 },
  { parent: 'aorticAnnulusDiameter_mm', child: 'sinusOfValsalvaDiameter_mm', rho: 0.8 },
  { parent: 'sinusOfValsalvaDiameter_mm', child: 'sinotubularJunctionDiameter_mm', rho: 0.88 },
  { parent: 'sinotubularJunctionDiameter_mm', child: 'ascendingAortaDiameter_mm', rho: 0.75 },
  { parent: 'sinusOfValsalvaDiameter_mm', child: 'leftCoronaryHeight_mm', rho: 0.35 },
  { parent: 'sinusOfValsalvaDiameter_mm', child: 'rightCoronaryHeight_mm', rho: 0.35 },
  { parent: 'aorticAnnulusDiameter_mm', child: 'lvEdvIndex_mL_m2', rho: 0.35 },
  { parent: 'lvEdvIndex_mL_m2', child: 'lvEf_percent', rho: -0.25 },
  { parent: 'lvEdvIndex_mL_m2', child: 'lvMassIndex_g_m2', rho: 0.55 },
  { parent: 'lvEdvIndex_mL_m2', child: 'laVolumeIndex_mL_m2', rho: 0.35 },
  { parent: 'aorticAnnulusDiameter_mm', child: 'mitralAnnulusApDiameter_mm', rho: 0.45 },
  { parent: 'mitralAnnulusApDiameter_mm', child: 'mitralAnnulusIcDiameter_mm', rho: 0.7 },
  { parent: 'lvEdvIndex_mL_m2', child: 'rvEdvIndex_mL_m2', rho: 0.7 },
  { parent: 'rvEdvIndex_mL_m2', child: 'rvEf_percent', rho: -0.2 },
  { parent: 'rvEdvIndex_mL_m2', child: 'tricuspidAnnulusDiameter_mm', rho: 0.45 },
  { parent: 'rvEdvIndex_mL_m2', child: 'mainPulmonaryArteryDiameter_mm', rho: 0.3 },
  { parent: 'laVolumeIndex_mL_m2', child: 'raVolumeIndex_mL_m2', rho: 0.5 },
];

/** Builds the residual correlation matrix R (row-major PRIMARY_COUNT²) implied by a correlation tree. */
export function buildResidualCorrelation(tree: readonly CorrelationEdge[]): Float64Array {
  const n = PRIMARY_COUNT;
  const r = new Float64Array(n * n);
  const index = (key: PrimaryParameter): number => PRIMARY_PARAMETERS.indexOf(key);
  const parentOf = new Map<number, { parent: number; rho: number }>();
  for (const edge of tree) {
    const child = index(edge.child);
    const parent = index(edge.parent);
    if (parent >= child) throw new Error(`correlation tree: ${edge.parent} must precede ${edge.child}`);
    if (parentOf.has(child)) throw new Error(`correlation tree: ${edge.child} has two parents`);
    parentOf.set(child, { parent, rho: edge.rho });
  }
  for (let i = 0; i < n; i += 1) {
    r[i * n + i] = 1;
    const link = parentOf.get(i);
    for (let k = 0; k < i; k += 1) {
      const value = link ? link.rho * (r[link.parent * n + k] ?? 0) : 0;
      r[i * n + k] = value;
      r[k * n + i] = value;
    }
  }
  return r;
}

/**
 * Conditional mean and residual SD of a primary parameter on the patient's value scale (indexed parameters
 * multiplied by BSA), before clamping: value = mean + scale·z. Used by the generator and by the tests' targets.
 */
export function primaryMoments(model: PrimaryParameterModel, x: CardiacCovariates): { mean: number; scale: number } {
  const factor = model.indexedByBsa ? x.bsa_m2 : 1;
  return { mean: factor * model.center(x), scale: factor * model.sd(x) };
}
