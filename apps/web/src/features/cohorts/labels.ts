import {
  ORIGIN_ETHNICITY_OPTIONS,
  ORIGIN_LOCATION_OPTIONS,
  PATHOLOGY_OPTIONS,
  PHASE_OPTIONS,
  SEX_OPTIONS,
  type Organ,
} from '@insilico/anatomy';

/** Display labels of the keys the cohort pages show. */

const byKey = (options: readonly { key: string; label: string }[]) =>
  new Map(options.map((option) => [option.key, option.label]));

const labels = {
  sex: byKey(SEX_OPTIONS),
  location: byKey(ORIGIN_LOCATION_OPTIONS),
  ethnicity: byKey(ORIGIN_ETHNICITY_OPTIONS),
  pathology: byKey(PATHOLOGY_OPTIONS),
  phase: byKey(PHASE_OPTIONS),
};

/** The label of a key of one kind; unknown keys (e.g. requested pathologies) show as they are. */
export function labelOf(kind: keyof typeof labels, key: string): string {
  return labels[kind].get(key) ?? key;
}

export const ORGAN_LABELS: Readonly<Record<Organ, string>> = {
  lv_blood_pool: 'LV blood pool',
  lv_myocardium: 'LV myocardium',
  rv_blood_pool: 'RV blood pool',
  la_blood_pool: 'LA blood pool',
  ra_blood_pool: 'RA blood pool',
  aortic_root: 'Aortic root',
  aortic_annulus: 'Aortic annulus',
  mitral_annulus: 'Mitral annulus',
  tricuspid_annulus: 'Tricuspid annulus',
  pulmonary_annulus: 'Pulmonary annulus',
  rib_cage: 'Rib cage',
  left_lung: 'Left lung',
  right_lung: 'Right lung',
};

/** A mesh phase label for people: "End-diastole", "Cine frame 3 of 12". */
export function phaseTitle(phase: string): string {
  if (phase === 'end-diastole') return 'End-diastole';
  // A room on an SSM shows a shape of the model instead of a phase (`mean`, or SDs per mode: `2,0,-1`).
  if (phase === 'mean') return 'Mean shape';
  if (/^-?\d+(\.\d+)?(,-?\d+(\.\d+)?)*$/.test(phase)) {
    const moved = phase
      .split(',')
      .map((value, k) => ({ sd: Number(value), mode: k + 1 }))
      .filter(({ sd }) => sd !== 0)
      .map(({ sd, mode }) => `mode ${mode} ${sd > 0 ? '+' : '−'}${Math.abs(sd)} SD`);
    return moved.length === 0 ? 'Mean shape' : `Shape: ${moved.join(', ')}`;
  }
  if (phase === 'end-systole') return 'End-systole';
  const cine = /^cine-(\d+)of(\d+)$/.exec(phase);
  return cine ? `Cine frame ${Number(cine[1])} of ${Number(cine[2])}` : phase;
}
