import type { Domain } from './cellList';
import { WeaklyCompressibleFluid } from './fluid';
import { box, boxContainerWall, channelWalls, particlesFromShape } from './geometry';

/** Hydrostatic tank settings (SI units). */
export interface HydrostaticTankOptions {
  /** Tank width, m. */
  width: number;
  /** Water depth, m. */
  depth: number;
  /** Particle spacing, m. */
  dp: number;
  /** Gravity magnitude, m/s². */
  g: number;
  /** Density, kg/m³. */
  rho0: number;
  /** Dynamic viscosity, Pa·s: damps the start-up sloshing; the hydrostatic answer does not depend on it. */
  mu: number;
}

/**
 * 2D water at rest in a closed tank (4 wall layers). Densities start hydrostatic,
 * ρ = ρ₀ + ρ₀·g·(H − y)/c₀², with c₀ = 10·2√(gH).
 */
export function hydrostaticTank(o: HydrostaticTankOptions): WeaklyCompressibleFluid {
  const { width, depth, dp, g, rho0 } = o;
  const uRef = 2 * Math.sqrt(g * depth);
  const c0 = 10 * uRef;
  const fluid = particlesFromShape(box([0, 0, 0], [width, depth, 0]), dp, 2, rho0);
  for (let i = 0; i < fluid.count; i++) {
    const r = rho0 + (rho0 * g * (depth - fluid.y[i]!)) / (c0 * c0);
    fluid.rho[i] = r;
  }
  const t = 4 * dp;
  const top = 1.5 * depth;
  const wall = boxContainerWall([0, 0, 0], [width, top, 0], t, dp, 2, rho0);
  const domain: Domain = { lower: [-t, -t, 0], upper: [width + t, top + t, 0], periodic: [false, false, false] };
  return new WeaklyCompressibleFluid(fluid, wall, {
    dim: 2,
    dp,
    rho0,
    c0,
    mu: o.mu,
    gravity: [0, -g, 0],
    uRef,
    freeSurface: true,
    domain,
  });
}

/** Plane Poiseuille flow settings (SI units). */
export interface PoiseuilleOptions {
  /** Channel height H, m. */
  height: number;
  /** Periodic channel length L, m. */
  length: number;
  /** Particle spacing, m. */
  dp: number;
  /** Dynamic viscosity μ, Pa·s. */
  mu: number;
  /** Density ρ, kg/m³. */
  rho0: number;
  /** Mean velocity U, m/s (the driving force is g = 12μU/(ρH²)). */
  meanVelocity: number;
}

/**
 * 2D body-force-driven flow between no-slip plates y = 0 and y = H, periodic in x, starting at rest.
 * c₀ = 10·u_max with u_max = 1.5·U. The steady profile is u(y) = (g/2ν)·y·(H − y).
 */
export function poiseuilleChannel(o: PoiseuilleOptions): WeaklyCompressibleFluid {
  const { height, length, dp, mu, rho0, meanVelocity } = o;
  const g = (12 * mu * meanVelocity) / (rho0 * height * height);
  const uMax = 1.5 * meanVelocity;
  const fluid = particlesFromShape(box([0, 0, 0], [length, height, 0]), dp, 2, rho0);
  const layers = 4;
  const wall = channelWalls(0, length, 0, height, layers, dp, 2, rho0);
  const t = layers * dp;
  const domain: Domain = { lower: [0, -t, 0], upper: [length, height + t, 0], periodic: [true, false, false] };
  return new WeaklyCompressibleFluid(fluid, wall, {
    dim: 2,
    dp,
    rho0,
    c0: 10 * uMax,
    mu,
    gravity: [g, 0, 0],
    uRef: uMax,
    freeSurface: false,
    transportCorrection: 0.2,
    domain,
  });
}

/** Dam-break settings (SPHinXsys set-up; SI units). */
export interface DamBreakOptions {
  /** Particle spacing, m (SPHinXsys: 0.025). */
  dp: number;
  /** Water column height H, m (width 2H; tank 5.366H square). */
  height?: number;
  /** Gravity, m/s². */
  g?: number;
  /** Density, kg/m³. */
  rho0?: number;
}

/**
 * 2D dam break as SPHinXsys sets it up: water 2H × H at the left of a 5.366H × 5.366H tank with
 * 4-layer walls, ρ = g = 1, U_ref = 2√(gH), c₀ = 10·U_ref. At dp 0.025: 3,200 fluid and 3,504 wall
 * particles.
 */
export function damBreak(o: DamBreakOptions): WeaklyCompressibleFluid {
  const H = o.height ?? 1;
  const g = o.g ?? 1;
  const rho0 = o.rho0 ?? 1;
  const dp = o.dp;
  const DL = 5.366 * H;
  const DH = 5.366 * H;
  const uRef = 2 * Math.sqrt(g * H);
  const fluid = particlesFromShape(box([0, 0, 0], [2 * H, H, 0]), dp, 2, rho0);
  const t = 4 * dp;
  const wall = boxContainerWall([0, 0, 0], [DL, DH, 0], t, dp, 2, rho0);
  const domain: Domain = { lower: [-t, -t, 0], upper: [DL + t, DH + t, 0], periodic: [false, false, false] };
  return new WeaklyCompressibleFluid(fluid, wall, {
    dim: 2,
    dp,
    rho0,
    c0: 10 * uRef,
    mu: 0,
    gravity: [0, -g, 0],
    uRef,
    freeSurface: true,
    domain,
  });
}

/**
 * 3D dam break as SPHinXsys sets it up: water 2 × 1 × 0.5 (x, y up, z) at one end of a closed
 * 5.366 × 2 × 0.5 tank with 4-layer walls, ρ = g = 1, U_ref = 2√(gH), c₀ = 10·U_ref. At dp 0.05:
 * 8,000 fluid and 56,560 wall particles.
 */
export function damBreak3d(o: { dp: number }): WeaklyCompressibleFluid {
  const dp = o.dp;
  const g = 1;
  const rho0 = 1;
  const [DL, DH, DW] = [5.366, 2, 0.5];
  const uRef = 2 * Math.sqrt(g * 1);
  const fluid = particlesFromShape(box([0, 0, 0], [2, 1, 0.5]), dp, 3, rho0);
  const t = 4 * dp;
  const wall = boxContainerWall([0, 0, 0], [DL, DH, DW], t, dp, 3, rho0);
  const domain: Domain = { lower: [-t, -t, -t], upper: [DL + t, DH + t, DW + t], periodic: [false, false, false] };
  return new WeaklyCompressibleFluid(fluid, wall, {
    dim: 3,
    dp,
    rho0,
    c0: 10 * uRef,
    mu: 0,
    gravity: [0, -g, 0],
    uRef,
    freeSurface: true,
    domain,
  });
}
