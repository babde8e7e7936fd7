import type { Domain } from './cellList';
import { WeaklyCompressibleFluid, type FluidOptions } from './fluid';
import { box, channelWalls, particlesFromShape } from './geometry';
import { OpenBoundaryFluid, type Waveform } from './openBoundary';
import { ParticleArrays } from './particles';
import type { ViscosityModel } from './viscosity';
import type { FluidBackend } from './wasmKernels';

/** Settings of the pipe / channel flow cases with a velocity inlet and a pressure outlet (SI units). */
export interface OpenPipeOptions {
  /** Tube radius (3D) or channel half-height (2D) R, m. */
  radius: number;
  /** Length between the inlet and outlet planes, m. */
  length: number;
  /** Particle spacing, m. */
  dp: number;
  /** Density, kg/m³. */
  rho0: number;
  /** Dynamic viscosity, Pa·s (the zero-shear one with a shear-thinning `viscosity` model). */
  mu: number;
  /** Mean velocity over the section, m/s (the flow rate is this × the section area). */
  meanVelocity: number;
  /** Inlet flow-rate waveform, m³/s (m²/s in 2D); default constant, from `meanVelocity`. */
  flowRate?: Waveform;
  /** Outlet pressure, Pa (default 0). */
  outletPressure?: Waveform;
  /** Sound speed, m/s (default 10 × max(u_max, √(Δp/ρ)), Δp the Poiseuille pressure drop). */
  c0?: number;
  /** Wall layers (default 4). */
  wallLayers?: number;
  /** Inlet profile (default parabolic, the developed one). */
  profile?: 'plug' | 'parabolic';
  /** Shear-thinning viscosity (default Newtonian `mu`). */
  viscosity?: ViscosityModel;
  /** Kernel backend (default `SPH_BACKEND` or TypeScript). */
  backend?: FluidBackend;
  /** Tensile-instability control (default on: an internal flow; `FluidOptions.tensileControl`). */
  tensileControl?: boolean;
}

/** A pipe or channel with open ends and its analytic Poiseuille solution. */
export interface OpenPipe {
  open: OpenBoundaryFluid;
  /** Volume flow rate, m³/s (m²/s in 2D). */
  flowRate: number;
  /** Analytic pressure gradient magnitude −dp/dx, Pa/m. */
  pressureGradient: number;
  /** Analytic axial velocity at distance `r` (m) from the axis. */
  velocity(r: number): number;
}

const WALL_LAYERS = 4;

/** Buffer length of the cases: 4 dp, ≥ the kernel cutoff (2.6 dp). */
function bufferLength(dp: number): number {
  return 4 * dp;
}

function fluidOptions(o: OpenPipeOptions, dim: 2 | 3, uMax: number, dpdx: number, domain: Domain): FluidOptions {
  const c0 = o.c0 ?? 10 * Math.max(uMax, Math.sqrt((dpdx * o.length) / o.rho0));
  return {
    dim,
    dp: o.dp,
    rho0: o.rho0,
    c0,
    mu: o.mu,
    gravity: [0, 0, 0],
    uRef: uMax,
    freeSurface: false,
    transportCorrection: 0.2,
    domain,
    ...(o.viscosity ? { viscosity: o.viscosity } : {}),
    ...(o.backend ? { backend: o.backend } : {}),
    ...(o.tensileControl !== undefined ? { tensileControl: o.tensileControl } : {}),
  };
}

/**
 * 3D Hagen–Poiseuille flow: a straight tube of radius R along x, inlet plane x = 0 (parabolic velocity profile, buffer
 * x ∈ [−4dp, 0)), outlet plane x = length (pressure, buffer to length + 4dp), starting at rest. Particles sit on rings
 * r = (k + ½)dp (about 2πr/dp per ring, each of exactly its ring's share of the annulus area), so the fluid ends at
 * r = R and the wall (rings from R + dp/2) has no staircase. u(r) = 2ū(1 − r²/R²), −dp/dx = 8μū/R².
 */
export function hagenPoiseuilleTube(o: OpenPipeOptions): OpenPipe {
  const { radius: R, length: L, dp, rho0, mu, meanVelocity: U } = o;
  const N = Math.round(R / dp);
  if (Math.abs(N * dp - R) > 1e-9 * R) throw new RangeError('the radius must be a whole number of dp');
  const layers = o.wallLayers ?? WALL_LAYERS;
  const lb = bufferLength(dp);
  const rings = (k0: number, k1: number, x0: number, x1: number, out: ParticleArrays | null, wall: boolean): number => {
    let n = 0;
    const nx = Math.round((x1 - x0) / dp);
    for (let m = 0; m < nx; m++) {
      const x = x0 + (m + 0.5) * dp;
      for (let k = k0; k < k1; k++) {
        const r = (k + 0.5) * dp;
        const count = Math.max(1, Math.round((2 * Math.PI * r) / dp));
        const vol = (Math.PI * (2 * k + 1) * dp * dp * dp) / count;
        // Successive layers and rings are turned by half a spacing, so that particles do not line up radially.
        const turn = (((m + k) % 2) * Math.PI) / count;
        for (let q = 0; q < count; q++) {
          n++;
          if (!out) continue;
          const a = turn + (2 * Math.PI * q) / count;
          const i = out.add(x, r * Math.cos(a), r * Math.sin(a), vol, rho0);
          if (wall) {
            out.ny[i] = -Math.cos(a);
            out.nz[i] = -Math.sin(a);
          }
        }
      }
    }
    return n;
  };
  const fx0 = -lb;
  const fx1 = L + lb;
  const wx0 = fx0 - layers * dp;
  const wx1 = fx1 + layers * dp;
  const nf = rings(0, N, fx0, fx1, null, false);
  // Room for the particles the inlet creates before the outlet removes as many (a buffer's worth and then some).
  const fluid = new ParticleArrays(3, Math.ceil(nf * 1.25) + 64);
  rings(0, N, fx0, fx1, fluid, false);
  const wall = new ParticleArrays(3, rings(N, N + layers, wx0, wx1, null, true));
  rings(N, N + layers, wx0, wx1, wall, true);
  const outer = (N + layers) * dp + dp;
  const domain: Domain = {
    lower: [wx0 - dp, -outer, -outer],
    upper: [wx1 + dp, outer, outer],
    periodic: [false, false, false],
  };
  const dpdx = (8 * mu * U) / (R * R);
  const sim = new WeaklyCompressibleFluid(fluid, wall, fluidOptions(o, 3, 2 * U, dpdx, domain));
  const flowRate = U * Math.PI * R * R;
  const open = new OpenBoundaryFluid(
    sim,
    [
      {
        centre: [0, 0, 0],
        direction: [1, 0, 0],
        radius: R,
        length: lb,
        profile: o.profile ?? 'parabolic',
        flowRate: o.flowRate ?? flowRate,
      },
    ],
    [{ centre: [L, 0, 0], direction: [1, 0, 0], length: lb, pressure: o.outletPressure ?? 0 }],
  );
  return { open, flowRate, pressureGradient: dpdx, velocity: (r) => 2 * U * (1 - (r * r) / (R * R)) };
}

/**
 * 2D plane Poiseuille flow with open ends: plates y = 0 and y = 2R, inlet plane x = 0 (buffer [−4dp, 0)), outlet plane
 * x = length, starting at rest. u(y) = 1.5ū(1 − ((y − R)/R)²), −dp/dx = 3μū/R² (= 12μū/H²).
 */
export function openPoiseuilleChannel(o: OpenPipeOptions): OpenPipe {
  const { radius: R, length: L, dp, rho0, mu, meanVelocity: U } = o;
  const H = 2 * R;
  const layers = o.wallLayers ?? WALL_LAYERS;
  const lb = bufferLength(dp);
  const shape = box([-lb, 0, 0], [L + lb, H, 0]);
  const base = particlesFromShape(shape, dp, 2, rho0);
  const fluid = particlesFromShape(shape, dp, 2, rho0, Math.ceil(base.count * 0.25) + 64);
  const wall = channelWalls(-lb - layers * dp, L + lb + layers * dp, 0, H, layers, dp, 2, rho0);
  const t = (layers + 1) * dp;
  const domain: Domain = {
    lower: [-lb - t, -t, 0],
    upper: [L + lb + t, H + t, 0],
    periodic: [false, false, false],
  };
  const dpdx = (3 * mu * U) / (R * R);
  const sim = new WeaklyCompressibleFluid(fluid, wall, fluidOptions(o, 2, 1.5 * U, dpdx, domain));
  const flowRate = U * H;
  const open = new OpenBoundaryFluid(
    sim,
    [
      {
        centre: [0, R, 0],
        direction: [1, 0, 0],
        radius: R,
        length: lb,
        profile: o.profile ?? 'parabolic',
        flowRate: o.flowRate ?? flowRate,
      },
    ],
    [{ centre: [L, R, 0], direction: [1, 0, 0], length: lb, pressure: o.outletPressure ?? 0 }],
  );
  return { open, flowRate, pressureGradient: dpdx, velocity: (r) => 1.5 * U * (1 - (r * r) / (R * R)) };
}

/**
 * The diastole reproduction (docs/decisions/sph-diastole-tensile-control.md, sph-outlet-buffer-fill.md): the open
 * channel (2D, dp = R/10) or tube (3D, dp = R/5) of radius R = 0.5 and 5R long (ρ₀ 1, μ 0.01), a plug inlet with a
 * half-sine ejection over 1.6 s (a mean speed of 1 m/s at its peak), then no flow until `period` s; the outlet at the
 * reference pressure.
 */
export function diastoleChannel(o: {
  dim: 2 | 3;
  backend: FluidBackend;
  tensileControl: boolean;
  period: number;
}): OpenPipe {
  const R = 0.5;
  const ejection = 1.6;
  // m²/s in 2D, m³/s in 3D.
  const peak = o.dim === 2 ? 2 * R : Math.PI * R * R;
  const table: [number, number][] = [];
  for (let k = 0; k <= 16; k++) table.push([(ejection * k) / 16, k === 16 ? 0 : peak * Math.sin((Math.PI * k) / 16)]);
  table.push([o.period * 0.999, 0]);
  return (o.dim === 2 ? openPoiseuilleChannel : hagenPoiseuilleTube)({
    radius: R,
    length: 5 * R,
    dp: o.dim === 2 ? R / 10 : R / 5,
    rho0: 1,
    mu: 0.01,
    meanVelocity: 1,
    profile: 'plug',
    flowRate: { table, period: o.period },
    backend: o.backend,
    tensileControl: o.tensileControl,
  });
}

/** What `pipeFlowStats` measures. */
export interface PipeFlowStats {
  /** −dp/dx by a least-squares line through the pressures of the particles in the window, Pa/m. */
  pressureGradient: number;
  /** Mean axial velocity of the particles within dp of the axis in the window, m/s. */
  centreVelocity: number;
  /** The analytic velocity averaged over the same particles, m/s. */
  centreExact: number;
  /** Particle-wise relative L2 error of the axial velocity in the window against `exact`. */
  relativeL2: number;
  /** Largest |transverse velocity| / the largest exact axial velocity in the window. */
  transverse: number;
}

/**
 * Measures a pipe (axis along x through `axis`, 3D) or channel (2D, axis y = `axis[1]`) flow over the interior particles
 * with x0 ≤ x ≤ x1, against the analytic axial velocity `exact(r)` (r: distance from the axis, m).
 */
export function pipeFlowStats(
  open: OpenBoundaryFluid,
  axis: readonly [number, number, number],
  x0: number,
  x1: number,
  dp: number,
  exact: (r: number) => number,
): PipeFlowStats {
  const f = open.sim.fluid;
  const is3d = f.dim === 3;
  let n = 0;
  let sx = 0;
  let sp = 0;
  let sxx = 0;
  let sxp = 0;
  let cu = 0;
  let ce = 0;
  let cn = 0;
  let err = 0;
  let norm = 0;
  let umax = 0;
  let vt = 0;
  for (let i = 0; i < f.count; i++) {
    const x = f.x[i]!;
    if (x < x0 || x > x1 || !open.isInterior(i)) continue;
    const r = Math.hypot(f.y[i]! - axis[1], is3d ? f.z[i]! - axis[2] : 0);
    const p = f.p[i]!;
    n++;
    sx += x;
    sp += p;
    sxx += x * x;
    sxp += x * p;
    const u = f.vx[i]!;
    const ue = exact(r);
    err += (u - ue) ** 2;
    norm += ue * ue;
    umax = Math.max(umax, ue);
    vt = Math.max(vt, Math.hypot(f.vy[i]!, f.vz[i]!));
    if (r < dp) {
      cu += u;
      ce += ue;
      cn++;
    }
  }
  const slope = (n * sxp - sx * sp) / (n * sxx - sx * sx);
  return {
    pressureGradient: -slope,
    centreVelocity: cu / Math.max(1, cn),
    centreExact: ce / Math.max(1, cn),
    relativeL2: Math.sqrt(err / norm),
    transverse: vt / umax,
  };
}
