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
 * fluid run of the engine (synthetic patient 7: 5,919 acoustic steps over 0.857 s at dp 2.028 mm, u_ref 0.641 m/s,
 * i.e. c₀ + v̄ = 10.9 m/s, v̄ = 7.0 u_ref; docs/benchmarks.md, "Run-time estimate"). Far above u_ref: in systole the
 * saved frames' v_max is 0.5–1.4 u_ref, but once the inflow stops (diastole) particles reach 10–17 u_ref and the
 * moving count falls by a fifth, so most steps are taken at v_max ≈ 10 u_ref (an accuracy issue of the template to
 * fix; docs/decisions/simulation-run-estimate.md). Patient 22 (another spacing and u_ref) is the check.
 */
export const SPEED_OVER_REFERENCE = 7;

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

/** Session 11's quiet run 3 through the product: particles and acoustic steps as its (earlier) estimate counted them. */
const RUN_3 = { particles: 11_056, estimatedSteps: 4_832, seconds: 121.5 };

/**
 * Seconds of one engine thread per particle (moving and wall, as the estimate counts them) and acoustic step of a flow
 * template, by backend, on the product's 2-core machine with nothing else running, for the whole run through the
 * product (the case filled, 25 segments with their frames, summaries and checkpoints stored).
 * - ts: session 11's quiet run 3 through the server (121.5 s). Its estimate counted steps with v_max = u_ref
 *   (c₀ + v_max = 11 u_ref); the engine's steps are (10 + SPEED_OVER_REFERENCE) / 11 of that: 1.47 µs. Run 4 (another
 *   patient, 2.3× the work, 316.9 s) is the check the unit test makes (within ±30 %).
 * - wasm: the ts figure × 0.748, the CPU time of the WebAssembly backend over the TypeScript one on the same whole
 *   coarse run of the engine, both in one run (62.1 s against 83.0 s, patient 7; `npm run bench --
 *   simulation-estimate`). Less than the 1.9× of the 3D dam break: here an advection step (neighbour build, open
 *   boundaries, monitors; partly TypeScript) comes with every 1.3 acoustic steps, not every 4–5.
 */
const TS_SECONDS = RUN_3.seconds / (RUN_3.particles * ((RUN_3.estimatedSteps * (10 + SPEED_OVER_REFERENCE)) / 11));
export const FLOW_SECONDS_PER_PARTICLE_STEP: Readonly<Record<EngineBackend, number>> = {
  ts: TS_SECONDS,
  wasm: TS_SECONDS * (62.1 / 83.0),
};

/**
 * Speed-up of `threads` engine threads over one: each thread after the first adds 0.6 of one (issue 22: the 3D
 * fluid's two threads gave 1.6× where SPHinXsys gets 2.0×). The server's jobs run one engine thread.
 */
export function threadSpeedUp(threads: number): number {
  return 1 + 0.6 * (Math.max(1, Math.floor(threads)) - 1);
}

/** Estimated seconds of a flow run of `particles` (moving and wall) over `steps` acoustic steps. */
export function flowRunSeconds(particles: number, steps: number, backend: EngineBackend, threads: number): number {
  return (particles * steps * FLOW_SECONDS_PER_PARTICLE_STEP[backend]) / threadSpeedUp(threads);
}
