import type { WeaklyCompressibleFluid } from './fluid';

/**
 * Hydrostatic check: bins fluid particles into `bins` horizontal bands over [0, depth] (m) and returns,
 * per band, the mean pressure (Pa), the mean of ρ₀·g·(depth − y) (Pa) and the mean depth (m).
 */
export function hydrostaticProfile(
  sim: WeaklyCompressibleFluid,
  depth: number,
  rho0: number,
  g: number,
  bins: number,
): { pressure: Float64Array; expected: Float64Array; depth: Float64Array } {
  const f = sim.fluid;
  const pressure = new Float64Array(bins);
  const expected = new Float64Array(bins);
  const meanDepth = new Float64Array(bins);
  const count = new Float64Array(bins);
  for (let i = 0; i < f.count; i++) {
    const b = Math.min(bins - 1, Math.max(0, Math.floor((f.y[i]! / depth) * bins)));
    pressure[b] = pressure[b]! + f.p[i]!;
    expected[b] = expected[b]! + rho0 * g * (depth - f.y[i]!);
    meanDepth[b] = meanDepth[b]! + depth - f.y[i]!;
    count[b] = count[b]! + 1;
  }
  for (let b = 0; b < bins; b++) {
    const n = Math.max(1, count[b]!);
    pressure[b] = pressure[b]! / n;
    expected[b] = expected[b]! / n;
    meanDepth[b] = meanDepth[b]! / n;
  }
  return { pressure, expected, depth: meanDepth };
}

/**
 * Poiseuille check: mean x-velocity (m/s) of fluid particles in `bins` bands across the channel
 * [0, height] (m), and the relative L2 error against u(y) = (g/2ν)·y·(H − y) evaluated at each band's
 * mean particle height.
 */
export function poiseuilleProfile(
  sim: WeaklyCompressibleFluid,
  height: number,
  g: number,
  nu: number,
  bins: number,
): { y: Float64Array; u: Float64Array; exact: Float64Array; relativeL2: number } {
  const f = sim.fluid;
  const y = new Float64Array(bins);
  const u = new Float64Array(bins);
  const exact = new Float64Array(bins);
  const count = new Float64Array(bins);
  for (let i = 0; i < f.count; i++) {
    const b = Math.min(bins - 1, Math.max(0, Math.floor((f.y[i]! / height) * bins)));
    y[b] = y[b]! + f.y[i]!;
    u[b] = u[b]! + f.vx[i]!;
    count[b] = count[b]! + 1;
  }
  let err = 0;
  let norm = 0;
  for (let b = 0; b < bins; b++) {
    const n = Math.max(1, count[b]!);
    y[b] = y[b]! / n;
    u[b] = u[b]! / n;
    const yb = y[b]!;
    exact[b] = (g / (2 * nu)) * yb * (height - yb);
    err += (u[b]! - exact[b]!) ** 2;
    norm += exact[b]! ** 2;
  }
  return { y, u, exact, relativeL2: Math.sqrt(err / norm) };
}

/** Total kinetic energy ½ Σ m v² of the fluid, J (J/m in 2D). */
export function kineticEnergy(sim: WeaklyCompressibleFluid): number {
  const { vx, vy, vz, mass, count } = sim.fluid;
  let e = 0;
  for (let i = 0; i < count; i++) e += 0.5 * mass[i]! * (vx[i]! ** 2 + vy[i]! ** 2 + vz[i]! ** 2);
  return e;
}

/** Front position: the largest x (m) of any fluid particle. */
export function surgeFront(sim: WeaklyCompressibleFluid): number {
  const { x, count } = sim.fluid;
  let m = -Infinity;
  for (let i = 0; i < count; i++) if (x[i]! > m) m = x[i]!;
  return m;
}

/**
 * Pressure probe: kernel-weighted (Shepard) average of fluid pressure at (x, y, z) m,
 * Σ p_j W V_j / Σ W V_j over fluid particles within the cut-off; 0 Pa when none is in range. Brute
 * force over the fluid (fine for a few probes per output step).
 */
export function probePressure(sim: WeaklyCompressibleFluid, x: number, y: number, z = 0): number {
  const f = sim.fluid;
  const cut2 = sim.kernel.cutoff * sim.kernel.cutoff;
  let num = 0;
  let den = 0;
  for (let i = 0; i < f.count; i++) {
    const dx = f.x[i]! - x;
    const dy = f.y[i]! - y;
    const dz = f.z[i]! - z;
    const r2 = dx * dx + dy * dy + dz * dz;
    if (r2 >= cut2) continue;
    const wv = sim.kernel.w(Math.sqrt(r2)) * f.vol[i]!;
    num += f.p[i]! * wv;
    den += wv;
  }
  return den > 0 ? num / den : 0;
}
