/**
 * Output names, labels and units per spec §9 ("Output labels", "Units by output kind", "Unit rules
 * by name"). Pure functions: no engine state. Output names are snake_case (e.g. `shear_stress`).
 */

/** Unit system for display: 'si' or 'medical' (pressure mmHg, dynamic viscosity cP, kinematic viscosity sP). */
export type UnitSystem = 'si' | 'medical';

/** Display unit of each output kind (spec §9), SI reading and medical reading. */
export const UNITS_BY_KIND: Readonly<Record<string, { si: string; medical?: string }>> = {
  velocity: { si: 'm/s' },
  density: { si: 'kg/m²' },
  displacement: { si: 'mm' },
  curvature: { si: '1/mm' },
  angle: { si: '°' },
  force: { si: 'N' },
  'active stress': { si: 'Pa' },
  voltage: { si: 'mV' },
  mass: { si: 'kg' },
  acceleration: { si: 'mm/s²' },
  vorticity: { si: '1/s' },
  divergence: { si: '1/s' },
  pressure: { si: 'Pa', medical: 'mmHg' },
  temperature: { si: '°C' },
  'dynamic viscosity': { si: 'Pa*s', medical: 'cP' },
  'kinematic viscosity': { si: 'm²/s', medical: 'sP' },
  'flow rate': { si: 'L/min' },
  'shear rate': { si: '1/s' },
  'shear stress': { si: 'Pa' },
  percentage: { si: '%' },
  'particle size': { si: 'mm' },
  // Issue 7 (solid outputs): von Mises stress in MPa.
  'von mises stress': { si: 'MPa' },
  // Issue 15 (derived outputs): §9 has no time kind; residence time in s (docs/decisions/sph-derived-outputs.md).
  'residence time': { si: 's' },
  // Issue 16 (solid kind): the contact's line load, force per length of the contact line, in N/mm
  // (docs/decisions/solid-contact-pressure.md).
  'line load': { si: 'N/mm' },
};

const SPECIAL_LABELS: Readonly<Record<string, string>> = {
  von_mises_stress: 'von Mises stress',
  von_mises_strain: 'von Mises strain',
};

/** Words of an output name: split on underscores, empty parts dropped. */
function words(name: string): string[] {
  return name.split('_').filter((w) => w.length > 0);
}

/**
 * Display label of an output name: underscores become spaces and every word is capitalised
 * (`shear_stress` → `Shear Stress`); `von_mises_stress` and `von_mises_strain` are the special cases
 * `von Mises stress` and `von Mises strain`.
 */
export function outputLabel(name: string): string {
  const special = SPECIAL_LABELS[name.toLowerCase()];
  if (special !== undefined) return special;
  return words(name)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/**
 * Display unit of an output name. Rules by name come first: names containing `strain` use mm/mm;
 * names containing `radius`, `diameter`, `distance` or `length` use mm. Otherwise the longest output kind
 * contained in the name decides (`wall_shear_stress` → shear stress → Pa); a name with no kind that
 * contains `stress` uses MPa (`principal_stress`). Unknown names give ''.
 */
export function outputUnit(name: string, system: UnitSystem = 'si'): string {
  const phrase = words(name.toLowerCase()).join(' ');
  if (phrase.includes('strain')) return 'mm/mm';
  // A diameter is a length too (issue 15: the device diameter; §9 names radius, distance and length).
  if (/radius|diameter|distance|length/.test(phrase)) return 'mm';
  let best = '';
  for (const kind of Object.keys(UNITS_BY_KIND)) {
    const padded = ` ${phrase} `;
    if (padded.includes(` ${kind} `) && kind.length > best.length) best = kind;
  }
  // §9 "Stress uses MPa": a stress that is no kind of its own (principal, contact, hoop …); shear and active
  // stress are kinds in Pa and win above.
  if (best === '') return /stress/.test(phrase) ? 'MPa' : '';
  const unit = UNITS_BY_KIND[best]!;
  return system === 'medical' && unit.medical !== undefined ? unit.medical : unit.si;
}

/**
 * Factor that converts a value stored in SI base units (m, s, kg, Pa, m/s …) into `unit`
 * (for example 1000 for m → mm, 1/133.322… for Pa → mmHg). Returns undefined for a unit whose SI
 * conversion is not defined here (°C, %, mV, sP).
 */
export function siToUnitFactor(unit: string): number | undefined {
  switch (unit) {
    case 'm/s':
    case 'kg':
    case 'N':
    case 'Pa':
    case '1/s':
    case 'Pa*s':
    case 'm²/s':
    case 'kg/m²':
    case '°':
    case 'mm/mm':
    case 's':
      return 1;
    case 'mm':
    case 'mm/s²':
      return 1e3;
    case '1/mm':
    case 'N/mm':
      return 1e-3;
    case 'MPa':
      return 1e-6;
    case 'mmHg':
      return 1 / 133.322387415;
    case 'cP':
      return 1e3;
    case 'L/min':
      return 6e4;
    default:
      return undefined;
  }
}

/** Label with unit for an axis or legend: `Shear Stress (Pa)`, or the bare label when unitless. */
export function outputLabelWithUnit(name: string, system: UnitSystem = 'si'): string {
  const unit = outputUnit(name, system);
  return unit === '' ? outputLabel(name) : `${outputLabel(name)} (${unit})`;
}
