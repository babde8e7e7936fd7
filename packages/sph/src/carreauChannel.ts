import { periodicChannel } from './channel';
import { WeaklyCompressibleFluid } from './fluid';
import { apparentViscosity, maxViscosity, type ViscosityModel } from './viscosity';

/**
 * Steady plane Poiseuille flow of a generalised Newtonian fluid (issue 15 item 2: the shear-thinning blood verified in
 * a flow). Between no-slip plates y = 0 and y = H driven by the body force g (per unit mass), the shear stress is linear,
 * τ(y) = ρ g (H/2 − y), whatever the viscosity law; the shear rate follows from μ(γ̇) γ̇ = |τ| (monotone in γ̇ for the
 * Carreau–Yasuda law with n > 0, solved by bisection), and u(y) = ∫₀^y γ̇(τ(s)) sign(τ(s)) ds (composite Simpson rule).
 * This is the reference profile of `carreauChannel`.
 */
export function shearRateAtStress(model: ViscosityModel, tau: number): number {
  const t = Math.abs(tau);
  if (t === 0) return 0;
  // μ∞ ≤ μ ≤ μ₀: the root lies between |τ|/μ₀ and |τ|/μ∞ (or a wide bracket when μ∞ = 0).
  let lo = t / maxViscosity(model);
  let hi = model.muInf > 0 ? t / model.muInf : Math.max(1, lo) * 1e12;
  for (let k = 0; k < 200 && hi - lo > 1e-12 * hi; k++) {
    const mid = 0.5 * (lo + hi);
    if (apparentViscosity(model, mid) * mid < t) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

/** The steady velocity u(y) (m/s) of the body-force-driven channel (height H m, density ρ kg/m³, body force g m/s²). */
export function carreauChannelVelocity(
  model: ViscosityModel,
  y: number,
  o: { height: number; rho0: number; g: number },
  intervals = 100,
): number {
  const half = o.height / 2;
  // Symmetric about the centre line: integrate from the nearer wall.
  const s = Math.min(y, o.height - y);
  if (s <= 0) return 0;
  const rate = (yy: number): number => shearRateAtStress(model, o.rho0 * o.g * (half - yy));
  const m = intervals % 2 === 0 ? intervals : intervals + 1;
  const step = s / m;
  let sum = rate(0) + rate(s);
  for (let k = 1; k < m; k++) sum += (k % 2 === 1 ? 4 : 2) * rate(k * step);
  return (sum * step) / 3;
}

/** Settings of the SPH Carreau channel (SI units). */
export interface CarreauChannelOptions {
  model: ViscosityModel;
  /** Channel height H, m. */
  height: number;
  /** Particle spacing, m. */
  dp: number;
  /** Density, kg/m³. */
  rho0: number;
  /** Body force, m/s². */
  g: number;
  /** Periodic length, m (default H). */
  length?: number;
  /** Start at rest (default) or with the reference profile. */
  initial?: 'rest' | 'reference';
}

/**
 * The 2D channel of `carreauChannelVelocity` in SPH: periodic in x, 4 wall layers, starting at rest (or on the reference
 * profile, `initial: 'reference'`, which a wrong viscous operator leaves within a few viscous times), c₀ = 10 × the
 * reference centre-line speed, transport-velocity correction, the model evaluated per particle (`FluidOptions.viscosity`).
 * Returns the simulation and the reference centre-line speed.
 */
export function carreauChannel(o: CarreauChannelOptions): { sim: WeaklyCompressibleFluid; centre: number } {
  const { height, dp, rho0, model } = o;
  const length = o.length ?? height;
  const centre = carreauChannelVelocity(model, height / 2, o);
  const { fluid, wall, domain } = periodicChannel({ height, length, dp, rho0 });
  if (o.initial === 'reference')
    for (let i = 0; i < fluid.count; i++) fluid.vx[i] = carreauChannelVelocity(model, fluid.y[i]!, o);
  const sim = new WeaklyCompressibleFluid(fluid, wall, {
    dim: 2,
    dp,
    rho0,
    c0: 10 * centre,
    mu: maxViscosity(model),
    viscosity: model,
    gravity: [o.g, 0, 0],
    uRef: centre,
    freeSurface: false,
    transportCorrection: 0.2,
    domain,
  });
  return { sim, centre };
}

/** Relative L2 of the particles' x-velocity against the reference profile, and the centre band's speed / reference. */
export function carreauChannelError(
  sim: WeaklyCompressibleFluid,
  o: CarreauChannelOptions,
): { relativeL2: number; centreRatio: number } {
  const f = sim.fluid;
  const H = o.height;
  // The reference on a fine table in y (the integral per particle would cost a bisection per Simpson node).
  const nodes = 200;
  const table = Array.from({ length: nodes + 1 }, (_, k) => carreauChannelVelocity(o.model, (k / nodes) * H, o));
  const at = (y: number): number => {
    const q = Math.min(nodes, Math.max(0, (y / H) * nodes));
    const k = Math.min(nodes - 1, Math.floor(q));
    return table[k]! + (q - k) * (table[k + 1]! - table[k]!);
  };
  let err = 0;
  let norm = 0;
  let [sc, nc] = [0, 0];
  for (let i = 0; i < f.count; i++) {
    const u = at(f.y[i]!);
    err += (f.vx[i]! - u) ** 2;
    norm += u * u;
    if (Math.abs(f.y[i]! - H / 2) <= o.dp) {
      sc += f.vx[i]! / u;
      nc++;
    }
  }
  return { relativeL2: Math.sqrt(err / norm), centreRatio: sc / nc };
}
