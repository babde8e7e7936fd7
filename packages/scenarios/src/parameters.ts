import { MATERIAL_IDS, materialOf, type MaterialId } from './materials';
import { strokeVolumeOf, type ScenarioPatient } from './patient';

/** The simulation kinds of issue 16: device fit, blood flow with the device in place, particles carried by the flow. */
export const SIMULATION_KINDS = ['solid', 'fluid', 'particle'] as const;
export type SimulationKind = (typeof SIMULATION_KINDS)[number];

/** Resolutions offered to people, and 'test': a case that finishes in seconds (CI, journeys). */
export const RESOLUTIONS = ['test', 'coarse', 'standard', 'fine'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

/** A numeric parameter: its label and unit (for messages and the set-up form) and the range the server accepts. */
export interface NumericParameter {
  readonly key: NumericKey;
  readonly label: string;
  readonly unit: string;
  readonly min: number;
  readonly max: number;
  readonly integer?: boolean;
  /** The kinds that use it. */
  readonly kinds: readonly SimulationKind[];
}

const FLOW: readonly SimulationKind[] = ['fluid', 'particle'];

/**
 * Every numeric parameter with the range a person may enter. The ranges bound physiology (heart rate, stroke volume,
 * blood properties) and what the engine can run sensibly (a simulated time of minutes would never finish).
 */
export const NUMERIC_PARAMETERS = [
  { key: 'heartRate_bpm', label: 'Heart rate', unit: 'bpm', min: 30, max: 200, kinds: FLOW },
  { key: 'strokeVolume_mL', label: 'Stroke volume', unit: 'mL', min: 10, max: 200, kinds: FLOW },
  { key: 'cycles', label: 'Heart cycles', unit: '', min: 0.01, max: 5, kinds: FLOW },
  { key: 'bloodDensity_kg_m3', label: 'Blood density', unit: 'kg/m³', min: 1000, max: 1200, kinds: FLOW },
  { key: 'bloodViscosity_mPa_s', label: 'Blood viscosity', unit: 'mPa·s', min: 1, max: 10, kinds: FLOW },
  { key: 'outletPressure_mmHg', label: 'Outlet pressure', unit: 'mmHg', min: -50, max: 250, kinds: FLOW },
  { key: 'particleDiameter_um', label: 'Particle diameter', unit: 'µm', min: 1, max: 5000, kinds: ['particle'] },
  { key: 'particleDensity_kg_m3', label: 'Particle density', unit: 'kg/m³', min: 500, max: 5000, kinds: ['particle'] },
  {
    key: 'particleCount',
    label: 'Particle count',
    unit: '',
    min: 1,
    max: 5000,
    integer: true,
    kinds: ['particle'],
  },
  { key: 'youngsModulus_GPa', label: "Young's modulus", unit: 'GPa', min: 0.001, max: 500, kinds: ['solid'] },
  { key: 'poissonRatio', label: "Poisson's ratio", unit: '', min: 0, max: 0.49, kinds: ['solid'] },
  { key: 'materialDensity_kg_m3', label: 'Material density', unit: 'kg/m³', min: 500, max: 25000, kinds: ['solid'] },
  { key: 'crimpRatio', label: 'Crimped diameter ratio', unit: '', min: 0.6, max: 1, kinds: ['solid'] },
  { key: 'frictionCoefficient', label: 'Friction coefficient', unit: '', min: 0, max: 1, kinds: ['solid'] },
  { key: 'loadPressure_mmHg', label: 'Pressure load', unit: 'mmHg', min: 0, max: 300, kinds: ['solid'] },
  { key: 'simulatedTime_ms', label: 'Simulated time', unit: 'ms', min: 0.01, max: 50, kinds: ['solid'] },
  // The anatomy as a thin elastic layer (docs/decisions/solid-contact-pressure.md): its Young's modulus and thickness.
  {
    key: 'wallModulus_MPa',
    label: "Anatomy wall Young's modulus",
    unit: 'MPa',
    min: 0.1,
    max: 100,
    kinds: ['solid'],
  },
  { key: 'wallThickness_mm', label: 'Anatomy wall thickness', unit: 'mm', min: 0.5, max: 5, kinds: ['solid'] },
] as const satisfies readonly (Omit<NumericParameter, 'key'> & { key: string })[];

export type NumericKey = (typeof NUMERIC_PARAMETERS)[number]['key'];

/** The parameters of one simulation (SI-friendly units named in each key); only those of its kind are used. */
export type SimulationParameters = Partial<Record<NumericKey, number>> & {
  /** Solid: a library material, or 'custom' with the three values given. */
  material?: MaterialId | 'custom';
  /** Flow: Cho & Kensey's shear-thinning blood instead of the constant viscosity. */
  shearThinning?: boolean;
  /**
   * Solid: the anatomy as a rigid wall instead of the elastic wall (`wallModulus_MPa`, `wallThickness_mm`): the
   * model before issue 16's elastic anatomy, whose contact pressures read in GPa (docs/decisions/
   * solid-contact-pressure.md).
   */
  rigidAnatomy?: boolean;
};

/** Resting heart rate when the patient model has none (the synthetic population has no heart rate). */
export const DEFAULT_HEART_RATE_BPM = 70;

/** Defaults of `kind` for `patient`: stroke volume from its LV volumes; everything else from the cited constants. */
export function defaultParameters(kind: SimulationKind, patient: ScenarioPatient): SimulationParameters {
  if (kind === 'solid') {
    const m = materialOf('nitinol');
    return {
      material: m.id,
      youngsModulus_GPa: m.youngsModulus / 1e9,
      poissonRatio: m.poissonRatio,
      materialDensity_kg_m3: m.density,
      // The device starts at 80 % of its nominal diameter and expands into the anatomy
      // (docs/decisions/scenario-solid-expansion.md).
      crimpRatio: 0.8,
      // Device–tissue Coulomb friction: 0.1, inside the measured 0.08–0.16 of stent-graft A in Vad et al. 2010
      // (J Biomech Eng 132(12) 121007, abstract; the three devices span 0.012–0.46); docs/decisions/contact-friction-default.md.
      frictionCoefficient: 0.1,
      // A systolic transvalvular gradient of a well-functioning valve prosthesis is about 10 mmHg (VARC-3); it pushes
      // the released device downstream.
      loadPressure_mmHg: 10,
      simulatedTime_ms: 2,
      // The aortic wall at the annulus as an elastic layer, 2 mm thick (ascending aortic wall by MRI: 1.5–1.6 mm median,
      // Mensel et al., Eur Radiol 2014; 2.8 mm mean, MESA, Turkbey et al., JMRI 2014) with E = 2 MPa: the stiff end of
      // the published spread (ascending aorta at 69 years ≈ 1.1 MPa from its CT pressure–strain modulus, Martin, Sun
      // et al., Ann Biomed Eng 2013), conservative for contact pressure. docs/decisions/solid-contact-pressure.md,
      // "The elastic anatomy".
      wallModulus_MPa: 2,
      wallThickness_mm: 2,
      rigidAnatomy: false,
    };
  }
  const flow: SimulationParameters = {
    heartRate_bpm: DEFAULT_HEART_RATE_BPM,
    strokeVolume_mL: round(strokeVolumeOf(patient), 1),
    cycles: 1,
    bloodDensity_kg_m3: 1060,
    bloodViscosity_mPa_s: 3.5,
    outletPressure_mmHg: 0,
    shearThinning: false,
  };
  if (kind === 'fluid') return flow;
  // Debris caught by embolic protection filters is mostly 0.15–1 mm (Van Mieghem et al., Circulation 2013).
  return { ...flow, particleDiameter_um: 200, particleDensity_kg_m3: 1080, particleCount: 200 };
}

/** A parameter a person must correct, with a message that says how. */
export interface ParameterIssue {
  readonly key: string;
  readonly message: string;
}

/**
 * The parameters of `kind` after applying the defaults and checking every value; issues name the parameter and its
 * range in words. Unknown keys and keys of other kinds are refused too (a typo must not be ignored silently).
 */
export function resolveParameters(
  kind: SimulationKind,
  patient: ScenarioPatient,
  given: Record<string, unknown>,
): { parameters: SimulationParameters; issues: ParameterIssue[] } {
  const issues: ParameterIssue[] = [];
  const parameters: SimulationParameters = { ...defaultParameters(kind, patient) };
  const known = new Set<string>(['material', 'shearThinning', ...(kind === 'solid' ? ['rigidAnatomy'] : [])]);
  for (const p of NUMERIC_PARAMETERS) if ((p.kinds as readonly string[]).includes(kind)) known.add(p.key);
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    if (!known.has(key)) {
      issues.push({ key, message: `'${key}' is not a parameter of a ${kind} simulation.` });
      continue;
    }
    if (key === 'material') {
      if (kind !== 'solid' || (value !== 'custom' && !(MATERIAL_IDS as readonly unknown[]).includes(value))) {
        issues.push({ key, message: `Choose a material of the library (${MATERIAL_IDS.join(', ')}) or custom.` });
      } else parameters.material = value as MaterialId | 'custom';
      continue;
    }
    if (key === 'rigidAnatomy') {
      if (typeof value !== 'boolean') issues.push({ key, message: 'A rigid anatomy is either on or off.' });
      else parameters.rigidAnatomy = value;
      continue;
    }
    if (key === 'shearThinning') {
      if (typeof value !== 'boolean') issues.push({ key, message: 'Shear-thinning blood is either on or off.' });
      else parameters.shearThinning = value;
      continue;
    }
    const def = NUMERIC_PARAMETERS.find((p) => p.key === key)!;
    const range = `between ${def.min} and ${def.max}${def.unit ? ` ${def.unit}` : ''}`;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      issues.push({ key, message: `${def.label} must be a number ${range}.` });
    } else if (value < def.min || value > def.max) {
      issues.push({ key, message: `${def.label} must lie ${range}.` });
    } else if ('integer' in def && def.integer && !Number.isInteger(value)) {
      issues.push({ key, message: `${def.label} must be a whole number.` });
    } else parameters[key as NumericKey] = value;
  }
  // A default taken from the patient (the stroke volume from its LV volumes) passes the same range: volumes measured
  // the wrong way round would give a negative inflow, which a velocity inlet cannot carry.
  for (const def of NUMERIC_PARAMETERS) {
    const value = parameters[def.key];
    if (given[def.key] !== undefined || value === undefined || !(def.kinds as readonly string[]).includes(kind))
      continue;
    if (!(value >= def.min && value <= def.max)) {
      const unit = def.unit ? ` ${def.unit}` : '';
      issues.push({
        key: def.key,
        message: `${def.label} from the patient's model (${value}${unit}) must lie between ${def.min} and ${def.max}${unit}: enter a value in that range.`,
      });
    }
  }
  // A library material fixes its constants (values sent with it are replaced: the result says what was simulated).
  if (kind === 'solid' && parameters.material && parameters.material !== 'custom') {
    const m = materialOf(parameters.material);
    parameters.youngsModulus_GPa = m.youngsModulus / 1e9;
    parameters.poissonRatio = m.poissonRatio;
    parameters.materialDensity_kg_m3 = m.density;
  }
  return { parameters, issues };
}

function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}
