import { CellLinkedList } from './cellList';
import { bandMeans } from './channel';
import type { WeaklyCompressibleFluid } from './fluid';
import type { Shape } from './geometry';
import { WendlandC2, smoothingLength } from './kernel';
import { NeighbourList, buildNeighbours } from './neighbours';
import type { ParticleArrays } from './particles';

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
  const { y, u } = bandMeans(sim.fluid, height, bins);
  const exact = new Float64Array(bins);
  let err = 0;
  let norm = 0;
  for (let b = 0; b < bins; b++) {
    const yb = y[b]!;
    exact[b] = (g / (2 * nu)) * yb * (height - yb);
    err += (u[b]! - exact[b]!) ** 2;
    norm += exact[b]! ** 2;
  }
  return { y, u, exact, relativeL2: Math.sqrt(err / norm) };
}

/**
 * Start-up of plane Poiseuille flow from rest between no-slip plates y = 0 and y = H under the body force g
 * (Morris, Fox & Zhu, J. Comput. Phys. 136, 1997, eq. 21): u(y, t) = (g/2ν) y (H − y)
 * − Σ_{n odd} 4gH²/(νπ³n³) sin(nπy/H) exp(−n²π²νt/H²), m/s.
 */
export function poiseuilleStartup(y: number, t: number, height: number, g: number, nu: number): number {
  let u = (g / (2 * nu)) * y * (height - y);
  for (let n = 1; n < 200; n += 2) {
    const decay = Math.exp((-n * n * Math.PI ** 2 * nu * t) / (height * height));
    if (decay < 1e-16) break;
    u -= ((4 * g * height * height) / (nu * Math.PI ** 3 * n ** 3)) * Math.sin((n * Math.PI * y) / height) * decay;
  }
  return u;
}

/**
 * Particle-wise check of the Poiseuille channel at the simulated time: relative L2 error of every fluid
 * particle's x-velocity against `poiseuilleStartup`, √(Σ(u_i − u(y_i, t))² / Σ u(y_i, t)²), and the largest
 * transverse speed |v_y| relative to the analytic centre-line speed.
 */
export function poiseuilleParticleError(
  sim: WeaklyCompressibleFluid,
  height: number,
  g: number,
  nu: number,
): { relativeL2: number; transverse: number } {
  const f = sim.fluid;
  const t = sim.counters.time;
  let err = 0;
  let norm = 0;
  let vy = 0;
  for (let i = 0; i < f.count; i++) {
    const u = poiseuilleStartup(f.y[i]!, t, height, g, nu);
    err += (f.vx[i]! - u) ** 2;
    norm += u * u;
    vy = Math.max(vy, Math.abs(f.vy[i]!));
  }
  return { relativeL2: Math.sqrt(err / norm), transverse: vy / poiseuilleStartup(height / 2, t, height, g, nu) };
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

/**
 * Number-density error of a body's particles against its shape (relaxation check): for each particle within the kernel
 * cut-off of the surface (by `shape.distance`), the kernel sum completed by the part of the support outside the shape,
 *   e_i = Σ_j W_ij V_j / (σ₀ V_i) + ∫_outside W dV − 1,
 * which is 0 for a regular lattice in full support; σ₀ is the lattice number density. The outside integral is a
 * midpoint sum over sub-cells of dp/`subdivisions` classified by `shape.contains` (independent of the level set
 * that relaxation uses). Returns the errors of the near-surface particles and of the others (deeper inside).
 */
export function numberDensityErrors(
  particles: ParticleArrays,
  shape: Shape,
  dp: number,
  subdivisions = 8,
): { surface: number[]; interior: number[] } {
  const dim = particles.dim;
  const distance = shape.distance;
  if (!distance) throw new Error('the shape has no signed distance');
  const kernel = new WendlandC2(smoothingLength(dp), dim);
  const rc = kernel.cutoff;
  const sigma0 = kernel.latticeNumberDensity(dp);
  const margin = rc + dp;
  const lower = [0, 1, 2].map((a) => (a < dim ? shape.lower[a]! - margin : 0)) as [number, number, number];
  const upper = [0, 1, 2].map((a) => (a < dim ? shape.upper[a]! + margin : 0)) as [number, number, number];
  const n = particles.count;
  const cells = new CellLinkedList({ lower, upper, periodic: [false, false, false] }, rc, n, dim);
  cells.rebuild(particles);
  const list = new NeighbourList(n, n * (dim === 2 ? 32 : 96));
  buildNeighbours(particles, particles, cells, kernel, true, list);
  const q = dp / subdivisions;
  const m = Math.ceil(rc / q);
  const mz = dim === 3 ? m : 0;
  const cellVolume = dim === 3 ? q * q * q : q * q;
  const surface: number[] = [];
  const interior: number[] = [];
  const { x, y, z, vol } = particles;
  for (let i = 0; i < n; i++) {
    let sum = kernel.w(0) * vol[i]!;
    for (let k = list.start[i]!; k < list.end[i]!; k++) sum += list.w[k]! * vol[list.j[k]!]!;
    sum /= sigma0 * vol[i]!;
    if (distance(x[i]!, y[i]!, z[i]!, rc) <= -rc) {
      interior.push(sum - 1);
      continue;
    }
    for (let c = -mz; c <= mz; c++) {
      for (let b = -m; b <= m; b++) {
        for (let a = -m; a <= m; a++) {
          const r = q * Math.sqrt(a * a + b * b + c * c);
          if (r >= rc) continue;
          if (!shape.contains(x[i]! + a * q, y[i]! + b * q, dim === 3 ? z[i]! + c * q : 0))
            sum += kernel.w(r) * cellVolume;
        }
      }
    }
    surface.push(sum - 1);
  }
  return { surface, interior };
}

/**
 * Front of the continuous water layer: the largest x (m) of a fluid particle whose kernel sum over fluid and wall
 * particles, Σ_j W_ij V_j / (σ₀ V_i), is at least `threshold` (default ½, the value at a flat free surface). Spray
 * and isolated particles ahead of the layer fall below it. Brute force over candidates from the right.
 */
export function connectedFront(sim: WeaklyCompressibleFluid, threshold = 0.5): number {
  const f = sim.fluid;
  const w = sim.wall;
  const kernel = sim.kernel;
  const sigma0 = kernel.latticeNumberDensity(sim.h / smoothingLength(1));
  const order = Array.from({ length: f.count }, (_, i) => i).sort((a, b) => f.x[b]! - f.x[a]!);
  const rc = kernel.cutoff;
  const sum = (p: ParticleArrays, xi: number, yi: number, zi: number): number => {
    let s = 0;
    for (let j = 0; j < p.count; j++) {
      const dx = p.x[j]! - xi;
      if (dx > rc || dx < -rc) continue;
      const r = Math.hypot(dx, p.y[j]! - yi, p.z[j]! - zi);
      if (r < rc) s += kernel.w(r) * p.vol[j]!;
    }
    return s;
  };
  for (const i of order) {
    const [x, y, z] = [f.x[i]!, f.y[i]!, f.z[i]!];
    if ((sum(f, x, y, z) + sum(w, x, y, z)) / (sigma0 * f.vol[i]!) >= threshold) return x;
  }
  return -Infinity;
}
