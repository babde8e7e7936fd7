import type {
  CreateSimulation,
  Simulation,
  SimulationEstimate,
  SimulationKindName,
  SimulationResolution,
  SimulationSetup,
  SimulationStatus,
} from '@insilico/contracts';

/** The kinds with the one-line descriptions of issue 16. */
export const kindOptions: readonly { kind: SimulationKindName; label: string; description: string }[] = [
  { kind: 'solid', label: 'Solid', description: 'Device fit: the device expands into the anatomy.' },
  { kind: 'fluid', label: 'Fluid', description: 'Blood flow through the anatomy with the device in place.' },
  { kind: 'particle', label: 'Particle', description: 'Particles carried by the flow, captured or not.' },
];

export const resolutionLabels: Record<SimulationResolution, string> = {
  test: 'Test',
  coarse: 'Coarse',
  standard: 'Standard',
  fine: 'Fine',
};

export const statusLabels: Record<SimulationStatus, string> = {
  queued: 'Queued',
  running: 'Running',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** The material fields a library material fixes (they show its values and are edited only for a custom one). */
export const materialKeys = ['youngsModulus_GPa', 'poissonRatio', 'materialDensity_kg_m3'] as const;

/** What the set-up form holds. */
export interface SetupForm {
  kind: SimulationKindName;
  /** The numeric parameters of the kind, by key. */
  values: Record<string, number>;
  /** Solid: a library material's id or 'custom'. */
  material: string;
  /** Fluid and particle: Cho & Kensey's shear-thinning blood. */
  shearThinning: boolean;
  resolution: SimulationResolution;
  /** Empty: the server names it `<Kind> <n>`. */
  name: string;
}

/** The form for a set-up answer: the patient's defaults; the resolution chosen before when this one offers it. */
export function initialForm(setup: SimulationSetup, previous?: Pick<SetupForm, 'resolution' | 'name'>): SetupForm {
  const values: Record<string, number> = {};
  for (const field of setup.fields) {
    const value = setup.parameters[field.key];
    values[field.key] = typeof value === 'number' ? value : field.min;
  }
  const material = setup.parameters.material;
  const offered = resolutionOptions(setup);
  const wanted = previous?.resolution;
  const resolution =
    offered.find((option) => option.resolution === wanted && option.available)?.resolution ??
    offered.find((option) => option.resolution === 'coarse' && option.available)?.resolution ??
    offered.find((option) => option.available)?.resolution ??
    'coarse';
  return {
    kind: setup.kind,
    values,
    material: typeof material === 'string' ? material : 'custom',
    shearThinning: setup.parameters.shearThinning === true,
    resolution,
    name: previous?.name ?? '',
  };
}

/** Picks a material: a library one shows its constants; custom keeps the values shown, now editable. */
export function withMaterial(form: SetupForm, setup: SimulationSetup, material: string): SetupForm {
  const entry = setup.materials.find((m) => m.id === material);
  if (!entry) return { ...form, material: 'custom' };
  return {
    ...form,
    material,
    values: {
      ...form.values,
      youngsModulus_GPa: entry.youngsModulus_GPa,
      poissonRatio: entry.poissonRatio,
      materialDensity_kg_m3: entry.density_kg_m3,
    },
  };
}

/** Whether a field is fixed by the chosen library material. */
export function fixedByMaterial(form: SetupForm, key: string): boolean {
  return form.kind === 'solid' && form.material !== 'custom' && (materialKeys as readonly string[]).includes(key);
}

export interface ResolutionOption {
  resolution: SimulationResolution;
  label: string;
  /** The set-up's estimate with the patient's defaults (null: over the particle cap, or the room cannot run it). */
  estimate: SimulationEstimate | null;
  available: boolean;
}

/**
 * Whether the form can lead to a run: the room runs this kind with the patient's defaults, or it is refused only for
 * values the form changes (the estimate of each changed set-up then decides).
 */
export function setupRunnable(setup: SimulationSetup): boolean {
  return setup.canRun && (setup.estimates !== null || setup.problemsAdjustable);
}

/**
 * Coarse, standard and fine, each with the set-up's estimate (one over the particle cap is offered disabled), and
 * the test resolution only where an operator turned it on for the workspace. Where the defaults were refused for a
 * value of the form, every resolution is offered without a count (none was built).
 */
export function resolutionOptions(setup: SimulationSetup): ResolutionOption[] {
  const open = setup.estimates === null && setup.problemsAdjustable;
  const estimates = setup.estimates ?? [];
  const options: ResolutionOption[] = (['coarse', 'standard', 'fine'] as const).map((resolution) => {
    const estimate = estimates.find((e) => e.resolution === resolution) ?? null;
    return { resolution, label: resolutionLabels[resolution], estimate, available: open || estimate !== null };
  });
  if (setup.testResolution && (setup.estimates || open))
    options.unshift({ resolution: 'test', label: 'Test (seconds)', estimate: null, available: true });
  return options;
}

/** The request of the form: the kind's parameters only; a library material sends its id, a custom one its values. */
export function requestOf(form: SetupForm, setup: SimulationSetup): CreateSimulation {
  const parameters: Record<string, number | boolean | string> = {};
  for (const field of setup.fields) {
    if (fixedByMaterial(form, field.key)) continue;
    const value = form.values[field.key];
    if (value !== undefined) parameters[field.key] = value;
  }
  if (form.kind === 'solid') parameters.material = form.material;
  else parameters.shearThinning = form.shearThinning;
  const name = form.name.trim();
  return { kind: form.kind, resolution: form.resolution, parameters, ...(name ? { name } : {}) };
}

/** A run time in words: "about 40 s", "about 4 min", "about 2.5 h". */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '';
  if (seconds < 60) return `about ${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 3600) return `about ${Math.round(seconds / 60)} min`;
  const hours = seconds / 3600;
  return `about ${hours < 10 ? hours.toFixed(1) : Math.round(hours)} h`;
}

const counts = new Intl.NumberFormat('en-US');

/** "35,437 particles · about 4 min". */
export function estimateText(estimate: SimulationEstimate): string {
  return `${counts.format(estimate.particles)} particles · ${formatDuration(estimate.seconds)}`;
}

/** Simulated time in ms with sensible digits. */
function ms(seconds: number): string {
  const value = seconds * 1000;
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

/** The progress of a run as the list shows it: simulated time of the end, percent, and the ETA while running. */
export function progressText(simulation: Simulation): string {
  const percent = Math.floor(simulation.progress * 100);
  const time = `${ms(simulation.simulatedTime)} of ${ms(simulation.endTime)} ms (${percent} %)`;
  if (simulation.status === 'running' && simulation.etaSeconds !== null)
    return `${time} · ${formatDuration(simulation.etaSeconds)} left`;
  return time;
}
