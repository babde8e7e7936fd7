import type { Sex } from '../criteria/enumerations';

/**
 * Body-size reference groups. Location and ethnicity map to one of them (see demographics.ts):
 * white in the Americas → NCHS 2018 (US adults), white elsewhere → European, asian → East/South-East Asian.
 */
export const BODY_SIZE_GROUPS = ['white_americas', 'white_europe', 'asian'] as const;
/** A body-size reference group. */
export type BodySizeGroup = (typeof BODY_SIZE_GROUPS)[number];

/** Height normal (mean, SD in cm) and BMI log-normal (arithmetic mean kg/m², coefficient of variation). */
export interface AnthropometryReference {
  readonly heightMean_cm: number;
  readonly heightSd_cm: number;
  readonly bmiMean_kg_m2: number;
  readonly bmiCv: number;
}

/**
 * Anthropometric references by group and sex. Sources and which numbers are our assumptions: docs/validation.md.
 * white_americas: NCHS 2018 (Fryar et al., NHSR 122, adults ≥ 20 y, 2015–2016) means; SDs from NHANES percentiles.
 * white_europe and asian: rounded from NCD-RisC (eLife 2016 height; Lancet 2016/2017 BMI) — approximate.
 */
export const ANTHROPOMETRY: Readonly<Record<BodySizeGroup, Readonly<Record<Sex, AnthropometryReference>>>> = {
  white_americas: {
    female: { heightMean_cm: 161.7, heightSd_cm: 7.0, bmiMean_kg_m2: 29.6, bmiCv: 0.25 },
    male: { heightMean_cm: 175.4, heightSd_cm: 7.5, bmiMean_kg_m2: 29.1, bmiCv: 0.21 },
  },
  white_europe: {
    female: { heightMean_cm: 165.0, heightSd_cm: 6.8, bmiMean_kg_m2: 25.5, bmiCv: 0.2 },
    male: { heightMean_cm: 178.5, heightSd_cm: 7.2, bmiMean_kg_m2: 27.0, bmiCv: 0.16 },
  },
  asian: {
    female: { heightMean_cm: 157.5, heightSd_cm: 6.0, bmiMean_kg_m2: 23.5, bmiCv: 0.16 },
    male: { heightMean_cm: 169.5, heightSd_cm: 6.5, bmiMean_kg_m2: 24.2, bmiCv: 0.15 },
  },
};

/** Plausibility bounds applied after sampling (clamps; active for < 0.5 % of patients). */
export const BODY_SIZE_BOUNDS = {
  height_cm: { min: 135, max: 210 },
  bmi_kg_m2: { min: 16, max: 55 },
} as const;

/** Parameters (μ, σ) of ln(BMI) for a log-normal with the given arithmetic mean and coefficient of variation. */
export function logNormalParameters(mean: number, cv: number): { mu: number; sigma: number } {
  const sigma2 = Math.log(1 + cv * cv);
  return { mu: Math.log(mean) - sigma2 / 2, sigma: Math.sqrt(sigma2) };
}

/** Body-surface area by Du Bois & Du Bois (1916), m², from weight (kg) and height (cm). */
export function bsaDuBois_m2(weight_kg: number, height_cm: number): number {
  return 0.007184 * Math.pow(weight_kg, 0.425) * Math.pow(height_cm, 0.725);
}

/** Body-surface area by Mosteller (1987), m², from weight (kg) and height (cm). */
export function bsaMosteller_m2(weight_kg: number, height_cm: number): number {
  return Math.sqrt((height_cm * weight_kg) / 3600);
}

/** Body-mass index, kg/m², from weight (kg) and height (cm). */
export function bmi_kg_m2(weight_kg: number, height_cm: number): number {
  const h_m = height_cm / 100;
  return weight_kg / (h_m * h_m);
}
