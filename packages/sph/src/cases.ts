import type { Domain } from './cellList';
import { WeaklyCompressibleFluid, type FluidOptions } from './fluid';
import { box, boxContainerWall, channelWalls, particlesFromShape, subtract, union } from './geometry';
import { ElasticMaterial, type ElasticModel } from './material';
import { ElasticSolid } from './solid';
import type { GradientOrder } from './solidGradient';

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
  /** Water column height H, m (tank 5.366H square). */
  height?: number;
  /**
   * Water column width, m (default 2H, the SPHinXsys case; H/2 gives Martin & Moyce's n² = 2 column, twice as high
   * as wide). The tank stays 5.366H square.
   */
  width?: number;
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
  const fluid = particlesFromShape(box([0, 0, 0], [o.width ?? 2 * H, H, 0]), dp, 2, rho0);
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

/** Oscillating cantilever plate settings (SPHinXsys set-up; SI units). */
export interface OscillatingBeamOptions {
  /** Particle spacing, m (default thickness / 10). */
  dp?: number;
  /** Initial tip speed as a fraction of the sound speed c₀ (SPHinXsys: 0.05). */
  vf?: number;
  /** Constitutive model (default linear elastic, the SPHinXsys St Venant–Kirchhoff solid). */
  model?: ElasticModel;
  /**
   * Gradient order of the solid (default 2 for this bending case: order 1, SPHinXsys's and the engine's default,
   * makes the plate 3.6 points too soft at H/10; docs/decisions/sph-solid.md).
   */
  gradientOrder?: GradientOrder;
  /**
   * 'rigid' (default): the insert is held as well, so the plate is built in exactly at x = 0, the clamp of the
   * beam theory it is compared with; 'sphinxsys': the insert is free inside the fixed clamp particles, as SPHinXsys
   * sets it up (a compliant clamp whose root rotation adds 4–5 % to the period).
   */
  clamp?: 'sphinxsys' | 'rigid';
}

/** The oscillating cantilever plate with what its validation needs. */
export interface OscillatingBeam {
  solid: ElasticSolid;
  /** Particles of the free end (the last lattice column), whose mean y-displacement is the tip deflection. */
  tip: number[];
  /** First-mode period of the Euler–Bernoulli plate, s (see `cantileverPeriod`). */
  analyticPeriod: number;
}

/**
 * A 0.4³ water column collapsing in a 1 × 0.4 × 1 tank (gravity along −z), dp 0.1: the small 3D case of the
 * threads, backend, float32 and GPU tests. `options` override the fluid's settings (e.g. `backend`, `pairPrecision`).
 */
export function collapsingColumn3d(options: Partial<FluidOptions> = {}): WeaklyCompressibleFluid {
  const dp = 0.1;
  const column = particlesFromShape(box([0, 0, 0], [0.4, 0.4, 0.4]), dp, 3, 1);
  const wall = boxContainerWall([0, 0, 0], [1, 0.4, 1], 3 * dp, dp, 3, 1);
  return new WeaklyCompressibleFluid(column, wall, {
    dim: 3,
    dp,
    rho0: 1,
    c0: 10 * 2 * Math.sqrt(0.4),
    mu: 0.001,
    gravity: [0, 0, -1],
    uRef: 2 * Math.sqrt(0.4),
    freeSurface: true,
    domain: { lower: [-0.3, -0.3, -0.3], upper: [1.3, 0.7, 1.3], periodic: [false, false, false] },
    ...options,
  });
}

/**
 * First-mode period (s) of a clamped–free plate in plane strain (Euler–Bernoulli beam theory):
 * ω = (kL)² · √(E·H² / (12·ρ·(1 − ν²)·L⁴)), T = 2π/ω, with kL = 1.875 for the first mode.
 */
export function cantileverPeriod(o: { length: number; thickness: number; rho: number; E: number; nu: number }): number {
  const kl = 1.875;
  const omega = kl * kl * Math.sqrt((o.E * o.thickness ** 2) / (12 * o.rho * (1 - o.nu ** 2) * o.length ** 4));
  return (2 * Math.PI) / omega;
}

/**
 * 2D oscillating cantilever plate as SPHinXsys sets it up: a plate L = 0.2 long and H = 0.02 thick whose
 * extension 0.06 long (x < 0) is inserted into a clamp 4·dp thick around it; the clamp particles are held fixed.
 * ρ = 1000, E = 2 MPa, ν = 0.3975. Initial velocity: the first bending mode,
 * v_y(x) = vf·c₀·[M(cos kx − cosh kx) − N(sin kx − sinh kx)] / Q for x > 0 (x in units of L), with kL = 1.875,
 * M = sin kL + sinh kL, N = cos kL + cosh kL, Q = 2(cos kL sinh kL − sin kL cosh kL); it is vf·c₀ at the tip.
 */
export function oscillatingBeam(o: OscillatingBeamOptions = {}): OscillatingBeam {
  const PL = 0.2;
  const PH = 0.02;
  const SL = 0.06;
  const dp = o.dp ?? PH / 10;
  const BW = 4 * dp;
  const rho0 = 1000;
  const E = 2e6;
  const nu = 0.3975;
  const material = new ElasticMaterial({
    model: o.model ?? 'linear_elastic',
    rho0,
    youngsModulus: E,
    poissonRatio: nu,
  });
  const base = box([-SL - BW, -PH / 2 - BW, 0], [0, PH / 2 + BW, 0]);
  const column = box([-SL, -PH / 2, 0], [PL, PH / 2, 0]);
  const particles = particlesFromShape(union(base, column), dp, 2, rho0);
  // The base covers the insert: all of it fixed is the rigid clamp.
  const clamp = o.clamp === 'sphinxsys' ? subtract(base, column) : base;
  const kl = 1.875;
  const M = Math.sin(kl) + Math.sinh(kl);
  const N = Math.cos(kl) + Math.cosh(kl);
  const Q = 2 * (Math.cos(kl) * Math.sinh(kl) - Math.sin(kl) * Math.cosh(kl));
  const vTip = (o.vf ?? 0.05) * material.soundSpeed;
  const tip: number[] = [];
  for (let i = 0; i < particles.count; i++) {
    const x = particles.x[i]! / PL;
    if (x > 0) {
      const k = kl * x;
      particles.vy[i] = (vTip * (M * (Math.cos(k) - Math.cosh(k)) - N * (Math.sin(k) - Math.sinh(k)))) / Q;
    }
    if (particles.x[i]! > PL - dp) tip.push(i);
  }
  const solid = new ElasticSolid(particles, {
    dim: 2,
    dp,
    material,
    fixed: (x, y, z) => clamp.contains(x, y, z),
    gradientOrder: o.gradientOrder ?? 2,
  });
  return { solid, tip, analyticPeriod: cantileverPeriod({ length: PL, thickness: PH, rho: rho0, E, nu }) };
}
