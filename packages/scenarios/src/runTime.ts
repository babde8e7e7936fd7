/**
 * The run-time model of the flow templates (fluid and particle kinds): how many acoustic steps the engine takes for a
 * set-up (its own time-step rules), and how long a run takes on the product's machine from the engine's measured
 * throughput. Shown before a run starts (issue 16: "an estimated run time before starting") and used to bound the
 * coarse resolution's work (docs/decisions/simulation-run-estimate.md).
 */

/** The engine's code for the fluid's hot passes (`@insilico/sph` `FluidBackend`). */
export type EngineBackend = 'ts' | 'wasm';

/** The engine's dual-criteria time stepping (`WeaklyCompressibleFluid`): acoustic and advection CFL numbers. */
const ACOUSTIC_CFL = 0.6;
const ADVECTION_CFL = 0.25;
/** Smoothing length over spacing (`smoothingLength` of `@insilico/sph`). */
const H_OVER_DP = 1.3;

/**
 * The largest particle speed of the flow (the engine's v_max), time-averaged over the run as the acoustic step sees
 * it, over the reference velocity u_ref (1.5 × the peak LVOT velocity of the inflow). The acoustic step is
 * 0.6 h / (c₀ + v_max) with c₀ = 10 u_ref, so v_max sets the step count with the spacing. Measured on a whole coarse
 * fluid run of the engine with the tensile-instability control and the outlet refill (synthetic patient 7: 3,710
 * acoustic steps over 0.857 s at dp 2.028 mm, u_ref 0.641 m/s, i.e. c₀ + v̄ = 6.85 m/s, v̄ = 0.68 u_ref;
 * docs/benchmarks.md, "The diastolic break-up fixed"); patient 22 (another spacing and u_ref: v̄ ≈ 0.6 u_ref) is the
 * check. Before that fix the diastole's runaway particles made it 7 u_ref
 * (docs/decisions/sph-diastole-tensile-control.md).
 */
export const SPEED_OVER_REFERENCE = 0.68;

export interface FlowStepInput {
  /** Simulated time, s. */
  readonly endTime_s: number;
  /** Particle spacing, m. */
  readonly dp_m: number;
  /** Reference (largest expected) flow speed, m/s. */
  readonly referenceVelocity_m_s: number;
  /** Artificial sound speed, m/s. */
  readonly soundSpeed_m_s: number;
  /** Largest kinematic viscosity, m²/s (the zero-shear one of a shear-thinning model). */
  readonly kinematicViscosity_m2_s: number;
}

/**
 * Acoustic and advection steps of a flow case by the engine's rules (`WeaklyCompressibleFluid`): the acoustic step
 * 0.6 h / (c₀ + v_max), never above the viscous limit 0.25 h² / ν_max; the advection step 0.25 h / max(v_max, u_ref)
 * (or the viscous limit), at least one acoustic step long. v_max = SPEED_OVER_REFERENCE × u_ref.
 */
export function flowSteps(s: FlowStepInput): { acoustic: number; advection: number } {
  const h = H_OVER_DP * s.dp_m;
  const speed = SPEED_OVER_REFERENCE * s.referenceVelocity_m_s;
  const viscousDt = s.kinematicViscosity_m2_s > 0 ? (ADVECTION_CFL * h * h) / s.kinematicViscosity_m2_s : Infinity;
  const acousticDt = Math.min((ACOUSTIC_CFL * h) / (s.soundSpeed_m_s + speed), viscousDt);
  const advectionDt = Math.max(
    acousticDt,
    Math.min((ADVECTION_CFL * h) / Math.max(speed, s.referenceVelocity_m_s), viscousDt),
  );
  return {
    acoustic: Math.ceil(s.endTime_s / acousticDt - 1e-9),
    advection: Math.ceil(s.endTime_s / advectionDt - 1e-9),
  };
}

/**
 * Seconds of one engine thread per particle (as the estimate counts them) and acoustic step of a whole coarse fluid
 * run of the engine alone on the WebAssembly backend: patient 7 after the diastole fix, 16.8 s of CPU over 10,899
 * particles (moving mean + wall) × 3,710 acoustic steps (`npm run bench -- simulation-estimate`, 28.11.2026, the
 * process's CPU time under load standing for a quiet machine's wall time).
 */
const WASM_ENGINE_SECONDS = 16.8 / (10_899 * 3_710);
/**
 * A run through the product (the case filled, 25 segments with their frames, summaries and checkpoints stored) over
 * the engine alone per particle-step: 1.18, session 11's quiet product run 3 against the engine alone on TypeScript
 * (docs/benchmarks.md). Measured when a step cost about twice what it costs now: the stored frames' share is likely
 * larger now (to re-measure on a quiet machine with `RUN_KIND=fluid npm run bench -- simulation-run`).
 */
const PRODUCT_OVER_ENGINE = 1.18;

/**
 * Seconds of one engine thread per particle and acoustic step of a flow template run through the product, by backend:
 * - wasm: the engine's figure above × PRODUCT_OVER_ENGINE (0.49 µs).
 * - ts: wasm ÷ 0.748, the CPU time of the WebAssembly backend over the TypeScript one on one whole coarse run before
 *   the diastole fix (62.1 s against 83.0 s, patient 7, both in one run): the product's templates run on wasm; the
 *   TypeScript figure serves the engine's reference backend only.
 */
export const FLOW_SECONDS_PER_PARTICLE_STEP: Readonly<Record<EngineBackend, number>> = {
  wasm: WASM_ENGINE_SECONDS * PRODUCT_OVER_ENGINE,
  ts: (WASM_ENGINE_SECONDS * PRODUCT_OVER_ENGINE) / (62.1 / 83.0),
};

/**
 * Speed-up of `threads` engine threads over one: each thread after the first adds 0.6 of one (issue 22: the 3D
 * fluid's two threads gave 1.6× where SPHinXsys gets 2.0×). The server's jobs run one engine thread.
 */
export function threadSpeedUp(threads: number): number {
  return 1 + 0.6 * (Math.max(1, Math.floor(threads)) - 1);
}

/**
 * How much more a particle-step costs in a case of `particles` than in one of `reference` (never less): the working
 * set outgrows the caches. Measured with `npm run bench -- simulation-templates` at the three resolutions in one
 * session (29.11.2026, CPU time, docs/benchmarks.md "Standard and fine"): the fluid template's CPU per particle and
 * acoustic step at standard (29,269 particles) 1.18× and at fine (76,563) 1.32× the coarse one (11,152), i.e.
 * (n / n_coarse)^0.15 within 2 %; the solid's at standard (27,630) 1.26× the coarse one (10,655), ^0.24.
 */
export function cacheGrowth(particles: number, reference: number, exponent: number): number {
  return Math.max(1, particles / reference) ** exponent;
}

/** Particles of the calibration run of FLOW_SECONDS_PER_PARTICLE_STEP, and the exponent of `cacheGrowth` for a flow. */
const FLOW_REFERENCE_PARTICLES = 10_899;
const FLOW_CACHE_EXPONENT = 0.15;

/**
 * The work of a flow run of `particles` (moving and wall) over `steps` acoustic steps, in particle-steps of the
 * calibration run's size: particles × steps × `cacheGrowth`. The coarse resolution's bound is on this work.
 */
export function flowWork(particles: number, steps: number): number {
  return particles * steps * cacheGrowth(particles, FLOW_REFERENCE_PARTICLES, FLOW_CACHE_EXPONENT);
}

/** Estimated seconds of a flow run of `particles` (moving and wall) over `steps` acoustic steps. */
export function flowRunSeconds(particles: number, steps: number, backend: EngineBackend, threads: number): number {
  return (flowWork(particles, steps) * FLOW_SECONDS_PER_PARTICLE_STEP[backend]) / threadSpeedUp(threads);
}

/**
 * Seconds of one engine thread per particle and step of the solid template, in the estimate's own counts (the device
 * and the shell it touches, the steps of the material's P-wave speed), at the coarse resolution's 9,260 particles:
 * measured 1.77 µs (`npm run bench -- simulation-templates`, patient 20261125:7, 29.11.2026: 7.6 s of CPU over the
 * crimp's first 0.046 ms; the engine then had 10,655 particles, 15 % more than counted, and took 0.81 of the counted
 * steps). Was 1 µs, measured on the device alone (1,509 particles) before the solid template had its elastic wall.
 */
const SOLID_SECONDS_PER_PARTICLE_STEP = 1.8e-6;
const SOLID_REFERENCE_PARTICLES = 9_260;
const SOLID_CACHE_EXPONENT = 0.24;

/** Estimated seconds of a solid run of `particles` (the estimate's count) over `steps` steps, one engine thread. */
export function solidRunSeconds(particles: number, steps: number): number {
  return (
    particles *
    steps *
    SOLID_SECONDS_PER_PARTICLE_STEP *
    cacheGrowth(particles, SOLID_REFERENCE_PARTICLES, SOLID_CACHE_EXPONENT)
  );
}
