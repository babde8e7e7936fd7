import type { Pathology } from '../criteria/enumerations';

/**
 * Database prevalence of the five pathologies by age band (< 65, ≥ 65 years), with the functional links
 * HFrEF → MR and HFrEF/MR → TR. These are the prevalences of a device-testing CT database (enriched on
 * purpose), not of the general population; population figures for comparison are in docs/validation.md.
 * A patient may have none or several.
 */
export const PATHOLOGY_PREVALENCE = {
  heart_failure: { under65: 0.03, from65: 0.08 },
  aortic_valve_insufficiency_stenosis: { under65: 0.03, from65: 0.15 },
  mitral_valve_insufficiency: { under65: 0.04, from65: 0.1, addedIfHeartFailure: 0.3 },
  tricuspid_valve_insufficiency: { under65: 0.02, from65: 0.06, addedIfHeartFailure: 0.1, addedIfMitral: 0.1 },
  pulmonary_valve_insufficiency: { under65: 0.02, from65: 0.01 },
} as const;

/** Pathology flags of one patient (the covariates of the cardiac model). */
export interface PathologyFlags {
  /** Severe aortic stenosis (spec key aortic_valve_insufficiency_stenosis). */
  readonly aorticStenosis: boolean;
  /** Significant mitral regurgitation (mitral_valve_insufficiency). */
  readonly mitralRegurgitation: boolean;
  /** Heart failure with reduced ejection fraction, LVEF ≤ 40 % (heart_failure). */
  readonly heartFailure: boolean;
  /** Significant tricuspid regurgitation (tricuspid_valve_insufficiency). */
  readonly tricuspidRegurgitation: boolean;
  /** Significant pulmonary regurgitation (pulmonary_valve_insufficiency). */
  readonly pulmonaryRegurgitation: boolean;
}

/** Flags of a healthy patient. */
export const NO_PATHOLOGY: PathologyFlags = {
  aorticStenosis: false,
  mitralRegurgitation: false,
  heartFailure: false,
  tricuspidRegurgitation: false,
  pulmonaryRegurgitation: false,
};

/**
 * Draws the pathology flags for an age (years) from five uniforms in [0, 1) (always five, so the stream
 * position does not depend on the outcome).
 */
export function samplePathologies(age_years: number, uniforms: Float64Array): PathologyFlags {
  const old = age_years >= 65;
  const p = PATHOLOGY_PREVALENCE;
  const heartFailure = (uniforms[0] ?? 1) < (old ? p.heart_failure.from65 : p.heart_failure.under65);
  const aorticStenosis =
    (uniforms[1] ?? 1) <
    (old ? p.aortic_valve_insufficiency_stenosis.from65 : p.aortic_valve_insufficiency_stenosis.under65);
  const mitralRegurgitation =
    (uniforms[2] ?? 1) <
    (old ? p.mitral_valve_insufficiency.from65 : p.mitral_valve_insufficiency.under65) +
      (heartFailure ? p.mitral_valve_insufficiency.addedIfHeartFailure : 0);
  const tricuspidRegurgitation =
    (uniforms[3] ?? 1) <
    (old ? p.tricuspid_valve_insufficiency.from65 : p.tricuspid_valve_insufficiency.under65) +
      (heartFailure ? p.tricuspid_valve_insufficiency.addedIfHeartFailure : 0) +
      (mitralRegurgitation ? p.tricuspid_valve_insufficiency.addedIfMitral : 0);
  const pulmonaryRegurgitation =
    (uniforms[4] ?? 1) < (old ? p.pulmonary_valve_insufficiency.from65 : p.pulmonary_valve_insufficiency.under65);
  return { aorticStenosis, mitralRegurgitation, heartFailure, tricuspidRegurgitation, pulmonaryRegurgitation };
}

/** The spec keys of the flags that are set, in the order of PATHOLOGY_OPTIONS. */
export function pathologyKeys(flags: PathologyFlags): Pathology[] {
  const keys: Pathology[] = [];
  if (flags.mitralRegurgitation) keys.push('mitral_valve_insufficiency');
  if (flags.heartFailure) keys.push('heart_failure');
  if (flags.pulmonaryRegurgitation) keys.push('pulmonary_valve_insufficiency');
  if (flags.tricuspidRegurgitation) keys.push('tricuspid_valve_insufficiency');
  if (flags.aorticStenosis) keys.push('aortic_valve_insufficiency_stenosis');
  return keys;
}

/** True when no flag is set. */
export function isHealthy(flags: PathologyFlags): boolean {
  return !(
    flags.aorticStenosis ||
    flags.mitralRegurgitation ||
    flags.heartFailure ||
    flags.tricuspidRegurgitation ||
    flags.pulmonaryRegurgitation
  );
}
