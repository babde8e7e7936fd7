/**
 * Published figures the aortic root of anatomy-population-2 is calibrated and tested against (issue 23). Which
 * population each describes, and how, is in docs/decisions/anatomy-population-model.md ("Model 2: the root's
 * tails"); these are the numbers as published, never values of our generator.
 */

/** Mean ± SD of one measurement in one group. */
export interface PublishedMoments {
  readonly mean: number;
  readonly sd: number;
}

/**
 * Hamdan A, Barbash I, Schwammenthal E, et al. Sex differences in aortic root and vascular anatomy in patients
 * undergoing transcatheter aortic valve implantation: a computed-tomographic study. J Cardiovasc Comput Tomogr
 * 2017;11:87–96. 506 patients with severe aortic stenosis referred for TAVI (263 women, 243 men; Israel, Sheba
 * Medical Center; ≈ 80 ± 8.5 y), ECG-gated contrast CT. Mean diameters, mm.
 */
export const HAMDAN_2017_TAVI_CT = {
  female: {
    aorticAnnulusDiameter_mm: { mean: 22.9, sd: 2.2 },
    sinusOfValsalvaDiameter_mm: { mean: 31.8, sd: 4.2 },
    sinotubularJunctionDiameter_mm: { mean: 26.3, sd: 3.4 },
  },
  male: {
    aorticAnnulusDiameter_mm: { mean: 25.7, sd: 2.7 },
    sinusOfValsalvaDiameter_mm: { mean: 36.3, sd: 3.8 },
    sinotubularJunctionDiameter_mm: { mean: 29.8, sd: 4.2 },
  },
} as const satisfies Record<'female' | 'male', Record<string, PublishedMoments>>;

/** The youngest age of the generated group compared with the TAVI CT series (most of its patients are ≥ 75 y). */
export const TAVI_AGE_MIN_YEARS = 75;

/**
 * Devereux RB, de Simone G, Arnett DK, et al. Am J Cardiol 2012;110:1189–1194: healthy adults (USA), 2D echo.
 * Sinus of Valsalva (cm) = 2.423 + 0.009·age + 0.461·BSA − 0.267·sex (1 man, 2 woman); standard error of the
 * estimate 0.261 cm, i.e. the spread around the regression in healthy adults.
 */
export const DEVEREUX_2012_SINUS_SEE_MM = 2.61;

/** Ages over which the generated sinus is compared with Devereux's SEE (adults before the TAVI-age ramp). */
export const DEVEREUX_AGE_RANGE_YEARS = { min: 18, max: 50 } as const;

/** Marginal correlations of the root at TAVI ages given by issue 4 (TAVI CT series), per sex. */
export const ROOT_CORRELATIONS_AT_TAVI_AGES = [
  { a: 'aorticAnnulusDiameter_mm', b: 'lvotDiameter_mm', r: 0.95 },
  { a: 'aorticAnnulusDiameter_mm', b: 'sinusOfValsalvaDiameter_mm', r: 0.8 },
  { a: 'sinusOfValsalvaDiameter_mm', b: 'sinotubularJunctionDiameter_mm', r: 0.9 },
] as const;
