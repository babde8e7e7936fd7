import { bandMeans, periodicChannel } from './channel';
import { WeaklyCompressibleFluid } from './fluid';

/**
 * Womersley flow in a 2D channel (issue 15 item 7): pulsatile flow between no-slip plates y = 0 and y = H, periodic in
 * x, driven by the oscillating pressure gradient −(1/ρ)∂p/∂x = A cos ωt, applied as a uniform body force (the same
 * thing in a periodic channel, where the mean pressure cannot carry a gradient). With a = H/2 and η = y − a, the
 * periodic solution of ∂u/∂t = A cos ωt + ν ∂²u/∂y² with u(±a) = 0 is (Womersley, J. Physiol. 127, 1955, in its
 * plane-channel form; e.g. Loudon & Tordesillas, J. Theor. Biol. 191, 1998, eq. 9)
 *   u(y, t) = Re{ (A / iω) [1 − cosh(kη) / cosh(ka)] e^{iωt} },  k = √(iω/ν) = (1 + i) √(ω/2ν),
 * with the Womersley number α = a √(ω/ν). Its profile is plug-like in the core with thin Stokes layers near the walls
 * (overshoot) for α ≫ 1, and the quasi-steady parabola lagging the force by 90° less for α ≲ 1.
 */

/** Parameters of the analytic solution (SI units). */
export interface WomersleyParameters {
  /** Channel height H, m. */
  height: number;
  /** Kinematic viscosity ν, m²/s. */
  nu: number;
  /** Angular frequency ω, 1/s. */
  omega: number;
  /** Amplitude A of the driving acceleration A cos ωt, m/s². */
  amplitude: number;
}

/** Complex amplitude (re, im) of u at height `y` (m): u(y, t) = re·cos ωt − im·sin ωt. */
export function womersleyAmplitude(y: number, w: WomersleyParameters): [number, number] {
  const a = w.height / 2;
  const kappa = Math.sqrt(w.omega / (2 * w.nu)); // k = (1 + i) κ
  // cosh((1 + i) κ z) = cosh κz cos κz + i sinh κz sin κz.
  const coshC = (z: number): [number, number] => [
    Math.cosh(kappa * z) * Math.cos(kappa * z),
    Math.sinh(kappa * z) * Math.sin(kappa * z),
  ];
  const [nr, ni] = coshC(y - a);
  const [dr, di] = coshC(a);
  const d2 = dr * dr + di * di;
  // 1 − n/d.
  const qr = 1 - (nr * dr + ni * di) / d2;
  const qi = -(ni * dr - nr * di) / d2;
  // (A / iω)·q = (A/ω)·(−i)·q = (A/ω)·(qi − i qr).
  const s = w.amplitude / w.omega;
  return [s * qi, -s * qr];
}

/** The analytic Womersley velocity u(y, t), m/s. */
export function womersleyVelocity(y: number, t: number, w: WomersleyParameters): number {
  const [re, im] = womersleyAmplitude(y, w);
  return re * Math.cos(w.omega * t) - im * Math.sin(w.omega * t);
}

/** Womersley number α = (H/2)·√(ω/ν). */
export function womersleyNumber(w: WomersleyParameters): number {
  return (w.height / 2) * Math.sqrt(w.omega / w.nu);
}

/** Settings of the SPH Womersley channel. */
export interface WomersleyChannelOptions {
  /** Womersley number α (default 4, the issue asks for 3–5). */
  alpha?: number;
  /** Channel height H, m (default 1). */
  height?: number;
  /** Period of the driving force, s (default 1). */
  period?: number;
  /** Particle spacing, m. */
  dp: number;
  /** Density, kg/m³ (default 1). */
  rho0?: number;
  /** Periodic channel length, m (default H). */
  length?: number;
  /** Start at rest instead of on the analytic state at t = 0 (the start-up transient then decays as e^(−π²νt/H²)). */
  fromRest?: boolean;
}

/** A Womersley channel ready to run: the fluid, the analytic parameters, and the driving acceleration at time t. */
export interface WomersleyChannel {
  sim: WeaklyCompressibleFluid;
  parameters: WomersleyParameters;
  /** Amplitude of the centre-line velocity, m/s. */
  centreAmplitude: number;
}

/**
 * The 2D Womersley channel: H × L periodic in x between 4-layer walls, ν from α, ω = 2π/period and A = ω (centre-line
 * amplitude ≈ 1 m/s for α ≳ 3). The particles start with the analytic velocity at t = 0, so no start-up transient
 * has to decay (it would take several H²/(π²ν)); c₀ = 10 × the largest velocity amplitude; transport-velocity
 * correction as in the Poiseuille channel. Drive it with `runWomersley`.
 */
export function womersleyChannel(o: WomersleyChannelOptions): WomersleyChannel {
  const height = o.height ?? 1;
  const alpha = o.alpha ?? 4;
  const omega = (2 * Math.PI) / (o.period ?? 1);
  const rho0 = o.rho0 ?? 1;
  const length = o.length ?? height;
  const a = height / 2;
  const nu = (omega * a * a) / (alpha * alpha);
  const parameters: WomersleyParameters = { height, nu, omega, amplitude: omega };
  let uMax = 0;
  for (let k = 0; k <= 100; k++) {
    const [re, im] = womersleyAmplitude((k / 100) * height, parameters);
    uMax = Math.max(uMax, Math.hypot(re, im));
  }
  const { dp } = o;
  const { fluid, wall, domain } = periodicChannel({ height, length, dp, rho0 });
  if (!o.fromRest) for (let i = 0; i < fluid.count; i++) fluid.vx[i] = womersleyVelocity(fluid.y[i]!, 0, parameters);
  const sim = new WeaklyCompressibleFluid(fluid, wall, {
    dim: 2,
    dp,
    rho0,
    c0: 10 * uMax,
    mu: nu * rho0,
    gravity: [0, 0, 0],
    uRef: uMax,
    freeSurface: false,
    transportCorrection: 0.2,
    domain,
  });
  const [cr, ci] = womersleyAmplitude(a, parameters);
  return { sim, parameters, centreAmplitude: Math.hypot(cr, ci) };
}

/**
 * Runs the channel to `endTime` (s) under the driving acceleration A cos ωt, added to every fluid particle's
 * advection-step acceleration once the viscous forces are in (the `forcesReady` hook). The force is held over an
 * advection step like gravity, so it is evaluated at the step's midpoint (second order in the step). `onStep` is called
 * after every advection step.
 */
export function runWomersley(channel: WomersleyChannel, endTime: number, onStep?: (time: number) => void): void {
  const { sim, parameters: w } = channel;
  const f = sim.fluid;
  const forcesReady = (): void => {
    const t = sim.counters.time;
    const dt = Math.min(sim.advectionTimeStep(), sim.viscousTimeStep(), endTime - t);
    const g = w.amplitude * Math.cos(w.omega * (t + dt / 2));
    for (let i = 0; i < f.count; i++) f.apx[i] = f.apx[i]! + g;
  };
  while (sim.counters.time < endTime * (1 - 1e-12)) {
    sim.advectionStep(endTime, { forcesReady });
    onStep?.(sim.counters.time);
  }
}

/** Band means of the x-velocity across the channel and the analytic velocity at each band's mean height. */
export function womersleyProfile(
  channel: WomersleyChannel,
  bins: number,
): { y: Float64Array; u: Float64Array; exact: Float64Array; maxError: number } {
  const { sim, parameters: w } = channel;
  const { y, u } = bandMeans(sim.fluid, w.height, bins);
  const exact = new Float64Array(bins);
  let maxError = 0;
  for (let b = 0; b < bins; b++) {
    exact[b] = womersleyVelocity(y[b]!, sim.counters.time, w);
    maxError = Math.max(maxError, Math.abs(u[b]! - exact[b]!));
  }
  return { y, u, exact, maxError: maxError / channel.centreAmplitude };
}

/**
 * Harmonic fit u ≈ c + re·cos ωt − im·sin ωt by least squares over samples (t_k, u_k): returns the amplitude √(re² + im²)
 * and the phase atan2(im, re) (rad), comparable with `womersleyAmplitude`.
 */
export function harmonicFit(
  times: readonly number[],
  values: readonly number[],
  omega: number,
): { amplitude: number; phase: number; mean: number } {
  // Normal equations of the basis (1, cos ωt, −sin ωt).
  const m = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  const r = [0, 0, 0];
  for (let k = 0; k < times.length; k++) {
    const b = [1, Math.cos(omega * times[k]!), -Math.sin(omega * times[k]!)];
    for (let i = 0; i < 3; i++) {
      r[i] = r[i]! + b[i]! * values[k]!;
      for (let j = 0; j < 3; j++) m[3 * i + j] = m[3 * i + j]! + b[i]! * b[j]!;
    }
  }
  const [c, re, im] = solve3(m, r);
  return { amplitude: Math.hypot(re, im), phase: Math.atan2(im, re), mean: c };
}

/** Solves the 3×3 system m x = r (row-major m) by Cramer's rule. */
function solve3(m: number[], r: number[]): [number, number, number] {
  const det = (a: number[]): number =>
    a[0]! * (a[4]! * a[8]! - a[5]! * a[7]!) -
    a[1]! * (a[3]! * a[8]! - a[5]! * a[6]!) +
    a[2]! * (a[3]! * a[7]! - a[4]! * a[6]!);
  const d = det(m);
  const out: number[] = [];
  for (let c = 0; c < 3; c++) {
    const a = m.slice();
    for (let i = 0; i < 3; i++) a[3 * i + c] = r[i]!;
    out.push(det(a) / d);
  }
  return out as [number, number, number];
}

/** Result of `womersleyRun`. */
export interface WomersleyRunResult {
  /** Largest band error / centre amplitude at each checked time. */
  profileErrors: { time: number; maxError: number }[];
  /** Fitted / analytic amplitude of each band over the fitted window, and the band heights. */
  bandAmplitudeRatio: number[];
  bandY: number[];
  /** Largest |fitted − analytic| band amplitude / centre amplitude. */
  amplitudeError: number;
  /** Centre-band amplitude / analytic − 1. */
  centreAmplitudeError: number;
  /** Centre-band phase − analytic phase, rad. */
  centrePhaseError: number;
  /** Particle count. */
  particles: number;
}

/**
 * Runs a Womersley channel for `periods` periods and measures: the band profile against the analytic one at
 * `checks` evenly spaced phases of the last period, and the harmonic fit of each band over the last period (amplitude
 * and phase against `womersleyAmplitude`). `bins` bands across the channel (default H/(2 dp)).
 */
export function womersleyRun(o: WomersleyChannelOptions, periods = 2, checks = 4, bins?: number): WomersleyRunResult {
  const channel = womersleyChannel(o);
  const w = channel.parameters;
  const period = (2 * Math.PI) / w.omega;
  const nb = bins ?? Math.max(4, Math.round(w.height / (2 * o.dp)));
  const start = (periods - 1) * period;
  const samples: { t: number; u: Float64Array; y: Float64Array }[] = [];
  const profileErrors: { time: number; maxError: number }[] = [];
  const checkTimes = Array.from({ length: checks }, (_, k) => start + ((k + 1) * period) / checks);
  for (const end of checkTimes) {
    runWomersley(channel, end, (t) => {
      if (t < start - 1e-12) return;
      const prof = womersleyProfile(channel, nb);
      samples.push({ t, u: prof.u, y: prof.y });
    });
    profileErrors.push({ time: end, maxError: womersleyProfile(channel, nb).maxError });
  }
  const bandAmplitudeRatio: number[] = [];
  const bandY: number[] = [];
  let amplitudeError = 0;
  let centreAmplitudeError = 0;
  let centrePhaseError = 0;
  const times = samples.map((s) => s.t);
  for (let b = 0; b < nb; b++) {
    const fit = harmonicFit(
      times,
      samples.map((s) => s.u[b]!),
      w.omega,
    );
    const yb = samples.reduce((acc, s) => acc + s.y[b]!, 0) / samples.length;
    const [re, im] = womersleyAmplitude(yb, w);
    const amp = Math.hypot(re, im);
    bandY.push(yb);
    bandAmplitudeRatio.push(fit.amplitude / amp);
    amplitudeError = Math.max(amplitudeError, Math.abs(fit.amplitude - amp) / channel.centreAmplitude);
    if (b === Math.floor(nb / 2)) {
      centreAmplitudeError = fit.amplitude / amp - 1;
      let d = fit.phase - Math.atan2(im, re);
      d = Math.atan2(Math.sin(d), Math.cos(d));
      centrePhaseError = d;
    }
  }
  return {
    profileErrors,
    bandAmplitudeRatio,
    bandY,
    amplitudeError,
    centreAmplitudeError,
    centrePhaseError,
    particles: channel.sim.fluid.count,
  };
}
