// WGSL compute shaders of the GPU backend (`gpuFluid.ts`): the scheme of `passes.ts` (the TypeScript reference) in
// float32. Three storage buffers: F (fluid fields, structure of arrays, then the time-step state and the
// per-workgroup partial maxima), W (wall fields, read only) and I (cell list: counts, starts, particles sorted by
// cell, each particle's cell and rank). Array offsets are baked in as constants (one shader per simulation).
//
// Neighbours are found from the cell list at every pass (no stored pair lists); the pair geometry (r, e, W, dW/dr)
// comes from the positions at the last rebuild (X0), as the CPU backends' cached pair data do. Particles of a cell
// are sorted by index and the cells visited in the CPU's order (z, y, x from −1 to +1), so each row's sum runs in
// the CPU's order: the results differ from float64 by float32 rounding only, and they are the same from run to run
// (the only reductions are maxima).

/** Workgroup size of the particle and cell passes. */
export const WORKGROUP = 64;
/** Workgroup size of the single-workgroup passes (scan, reductions); 128 is the compatibility-level limit. */
export const REDUCE_WORKGROUP = 128;
/** Largest dispatch along x (WebGPU's minimum `maxComputeWorkgroupsPerDimension`); more goes to y. */
export const MAX_GROUPS_X = 65535;

/** Fluid arrays in F, in order (each `stride` long). */
export const FLUID_ARRAYS = [
  'x',
  'y',
  'z',
  'x0',
  'y0',
  'z0',
  'vx',
  'vy',
  'vz',
  'nvx',
  'nvy',
  'nvz',
  'apx',
  'apy',
  'apz',
  'rho',
  'drho',
  'p',
  'mass',
  'vol',
  'rhoHalf',
  'drhoHalf',
] as const;

/** Wall arrays in W, in order. */
export const WALL_ARRAYS = ['x', 'y', 'z', 'vol', 'vx', 'vy', 'vz', 'ax', 'ay', 'az', 'nx', 'ny', 'nz'] as const;

/** Slots of the time-step state (f32, at `State` in F). */
export const State = {
  /** Advection step Dt (capped by the viscous limit and the time left), s. */
  Big: 0,
  /** Cap of the acoustic steps (viscous limit, time left), s. */
  Cap: 1,
  /** Time covered by the acoustic steps so far, s. */
  Elapsed: 2,
  /** Current acoustic step, s. */
  Dt: 3,
  /** 1 while the advection step needs more acoustic steps, else 0. */
  Active: 4,
  /** Maximum speed² of the last pass that reduced it, m²/s². */
  Vmax2: 5,
  /** Acoustic steps taken in this advection step. */
  Steps: 6,
  /** Simulated time left to the end time (written by the host), s. */
  Remaining: 7,
} as const;

/** The layout of the three buffers for `n` fluid and `nw` wall particles on a `cells`-cell grid. */
export interface GpuLayout {
  /** Stride of the fluid arrays (≥ n). */
  stride: number;
  /** Stride of the wall arrays (≥ 1). */
  wallStride: number;
  cells: number;
  /** Offset of the state in F (16 slots). */
  state: number;
  /** Offset of the partial maxima in F (one per workgroup of a particle pass). */
  partials: number;
  /** Floats in F. */
  fluidFloats: number;
  /** Offsets in I. */
  count: number;
  start: number;
  sorted: number;
  cell: number;
  rank: number;
  wallStart: number;
  wallSorted: number;
  /** u32 in I. */
  ints: number;
}

/** The buffer layout (see `GpuLayout`). */
export function gpuLayout(n: number, nw: number, cells: number): GpuLayout {
  const stride = Math.max(1, n);
  const wallStride = Math.max(1, nw);
  const state = FLUID_ARRAYS.length * stride;
  const partials = state + 16;
  const fluidFloats = partials + Math.ceil(stride / WORKGROUP);
  const count = 0;
  const start = count + cells;
  const sorted = start + cells + 1;
  const cell = sorted + stride;
  const rank = cell + stride;
  const wallStart = rank + stride;
  const wallSorted = wallStart + cells + 1;
  return {
    stride,
    wallStride,
    cells,
    state,
    partials,
    fluidFloats,
    count,
    start,
    sorted,
    cell,
    rank,
    wallStart,
    wallSorted,
    ints: wallSorted + wallStride,
  };
}

/** Grid and scheme constants baked into the shaders. */
export interface GpuConstants {
  dim: 2 | 3;
  n: number;
  nw: number;
  nx: number;
  ny: number;
  nz: number;
  lower: readonly [number, number, number];
  invCell: readonly [number, number, number];
  cut2: number;
  invH: number;
  alpha: number;
  /** −5 α / h × the lattice gradient scale (the cached dW/dr factor). */
  dwFactor: number;
  w0: number;
  rho0: number;
  c0: number;
  /** ρ₀ / σ₀. */
  sigmaScale: number;
  freeSurface: boolean;
  mu: number;
  /** 0.01 h (viscous-force regulariser), m. */
  eps: number;
  gravity: readonly [number, number, number];
  /** Acoustic CFL × h, m. */
  acousticH: number;
  /** Advection CFL × h, m. */
  advectionH: number;
  uRef: number;
  /** Viscous limit of the advection step, s (a huge number without viscosity). */
  viscousDt: number;
}

/** A WGSL f32 literal. */
function f(v: number): string {
  if (!Number.isFinite(v)) throw new RangeError(`not a finite shader constant: ${v}`);
  const s = Math.fround(v).toExponential(9);
  return `${s}f`;
}

/**
 * The WGSL of every entry point for one simulation. `atomicCells`: the module of the counting passes (`clearCells`,
 * `countCells`), which views I as atomics; the other module views it as plain u32.
 */
export function gpuShader(c: GpuConstants, layout: GpuLayout, atomicCells: boolean): string {
  const L = layout;
  const fa = (name: (typeof FLUID_ARRAYS)[number]): number => FLUID_ARRAYS.indexOf(name) * L.stride;
  const wa = (name: (typeof WALL_ARRAYS)[number]): number => WALL_ARRAYS.indexOf(name) * L.wallStride;
  const consts = [
    ...FLUID_ARRAYS.map((a) => `const F_${a.toUpperCase()}: u32 = ${fa(a)}u;`),
    ...WALL_ARRAYS.map((a) => `const W_${a.toUpperCase()}: u32 = ${wa(a)}u;`),
    ...Object.entries(State).map(([k, v]) => `const S_${k.toUpperCase()}: u32 = ${L.state + v}u;`),
    `const PARTIALS: u32 = ${L.partials}u;`,
    `const I_COUNT: u32 = ${L.count}u;`,
    `const I_START: u32 = ${L.start}u;`,
    `const I_SORTED: u32 = ${L.sorted}u;`,
    `const I_CELL: u32 = ${L.cell}u;`,
    `const I_RANK: u32 = ${L.rank}u;`,
    `const I_WSTART: u32 = ${L.wallStart}u;`,
    `const I_WSORTED: u32 = ${L.wallSorted}u;`,
    `const N: u32 = ${c.n}u;`,
    `const NW: u32 = ${c.nw}u;`,
    `const CELLS: u32 = ${L.cells}u;`,
    `const NX: i32 = ${c.nx};`,
    `const NY: i32 = ${c.ny};`,
    `const NZ: i32 = ${c.nz};`,
    `const DZ: i32 = ${c.dim === 3 ? 1 : 0};`,
    `const LOWER = vec3<f32>(${c.lower.map(f).join(', ')});`,
    `const INV_CELL = vec3<f32>(${c.invCell.map(f).join(', ')});`,
    `const CUT2: f32 = ${f(c.cut2)};`,
    `const INV_H: f32 = ${f(c.invH)};`,
    `const ALPHA: f32 = ${f(c.alpha)};`,
    `const DW_FACTOR: f32 = ${f(c.dwFactor)};`,
    `const W0: f32 = ${f(c.w0)};`,
    `const RHO0: f32 = ${f(c.rho0)};`,
    `const C0: f32 = ${f(c.c0)};`,
    `const C2: f32 = ${f(c.c0 * c.c0)};`,
    `const SIGMA_SCALE: f32 = ${f(c.sigmaScale)};`,
    `const FREE_SURFACE: bool = ${c.freeSurface};`,
    `const TWO_MU: f32 = ${f(2 * c.mu)};`,
    `const EPS: f32 = ${f(c.eps)};`,
    `const GRAVITY = vec3<f32>(${c.gravity.map(f).join(', ')});`,
    `const RHO_C: f32 = ${f(c.rho0 * c.c0)};`,
    `const INV_RHO_C: f32 = ${f(1 / (c.rho0 * c.c0))};`,
    `const LIMITER: f32 = ${f(3 / c.c0)};`,
    `const ACOUSTIC_H: f32 = ${f(c.acousticH)};`,
    `const ADVECTION_H: f32 = ${f(c.advectionH)};`,
    `const U_REF: f32 = ${f(c.uRef)};`,
    `const VISCOUS_DT: f32 = ${f(c.viscousDt)};`,
    `const WG: u32 = ${WORKGROUP}u;`,
    `const RWG: u32 = ${REDUCE_WORKGROUP}u;`,
    `const X_STRIDE: u32 = ${MAX_GROUPS_X * WORKGROUP}u;`,
  ].join('\n');
  const header = `${consts}
@group(0) @binding(0) var<storage, read_write> F: array<f32>;
@group(0) @binding(1) var<storage, read> W: array<f32>;
@group(0) @binding(2) var<storage, read_write> I: array<${atomicCells ? 'atomic<u32>' : 'u32'}>;

fn cellCoord(v: f32, lower: f32, inv: f32, n: i32) -> i32 {
  return clamp(i32(floor((v - lower) * inv)), 0, n - 1);
}

fn cellOf(p: vec3<f32>) -> u32 {
  let cx = cellCoord(p.x, LOWER.x, INV_CELL.x, NX);
  let cy = cellCoord(p.y, LOWER.y, INV_CELL.y, NY);
  var cz = 0;
  if (DZ == 1) { cz = cellCoord(p.z, LOWER.z, INV_CELL.z, NZ); }
  return u32(cx + NX * (cy + NY * cz));
}
`;
  if (atomicCells) {
    return `${header}
@compute @workgroup_size(${WORKGROUP})
fn clearCells(@builtin(global_invocation_id) id: vec3<u32>) {
  let c = id.x + id.y * X_STRIDE;
  if (c < CELLS) { atomicStore(&I[I_COUNT + c], 0u); }
}

@compute @workgroup_size(${WORKGROUP})
fn countCells(@builtin(global_invocation_id) id: vec3<u32>) {
  let i = id.x + id.y * X_STRIDE;
  if (i >= N) { return; }
  let p = vec3<f32>(F[F_X + i], F[F_Y + i], F[F_Z + i]);
  F[F_X0 + i] = p.x;
  F[F_Y0 + i] = p.y;
  F[F_Z0 + i] = p.z;
  let c = cellOf(p);
  atomicStore(&I[I_CELL + i], c);
  atomicStore(&I[I_RANK + i], atomicAdd(&I[I_COUNT + c], 1u));
}
`;
  }
  // Loops over the fluid neighbours j ≠ i (then the wall neighbours) of particle i within the cut-off, with the
  // pair geometry from X0: r, e (from j to i), W and dW/dr in scope of BODY.
  const neighbours = (wall: boolean, body: string): string => `{
    let c = I[I_CELL + i];
    let cz = i32(c) / (NX * NY);
    let cy = (i32(c) / NX) % NY;
    let cx = i32(c) % NX;
    for (var dz = -DZ; dz <= DZ; dz++) {
      let kz = cz + dz;
      if (kz < 0 || kz >= NZ) { continue; }
      for (var dy = -1; dy <= 1; dy++) {
        let ky = cy + dy;
        if (ky < 0 || ky >= NY) { continue; }
        // The cells x − 1 … x + 1 of a row are adjacent in the sorted order: one range, in the CPU's order.
        let row = NX * (ky + NY * kz);
        let m1 = I[${wall ? 'I_WSTART' : 'I_START'} + u32(row + min(cx + 1, NX - 1)) + 1u];
        for (var m = I[${wall ? 'I_WSTART' : 'I_START'} + u32(row + max(cx - 1, 0))]; m < m1; m++) {
            let j = I[${wall ? 'I_WSORTED' : 'I_SORTED'} + m];
            ${wall ? '' : 'if (j == i) { continue; }'}
            let rv = xi0 - vec3<f32>(${wall ? 'W[W_X + j], W[W_Y + j], W[W_Z + j]' : 'F[F_X0 + j], F[F_Y0 + j], F[F_Z0 + j]'});
            let r2 = dot(rv, rv);
            if (r2 >= CUT2 || r2 <= 0.0) { continue; }
            let r = sqrt(r2);
            let e = rv / r;
            let q = r * INV_H;
            let a = 1.0 - 0.5 * q;
            let a3 = a * a * a;
            let dW = DW_FACTOR * q * a3;
            ${body}
        }
      }
    }
  }`;
  const particle = `let k = id.x + id.y * X_STRIDE;
  let on = k < N && F[S_ACTIVE] > 0.5;
  var i = 0u;
  if (k < N) { i = I[I_SORTED + k]; }
  let xi0 = vec3<f32>(F[F_X0 + i], F[F_Y0 + i], F[F_Z0 + i]);`;
  const reducePartial = `part[lid] = s2;
  workgroupBarrier();
  for (var h = WG / 2u; h > 0u; h = h / 2u) {
    if (lid < h) { part[lid] = max(part[lid], part[lid + h]); }
    workgroupBarrier();
  }
  if (lid == 0u) { F[PARTIALS + wid.x + wid.y * ${MAX_GROUPS_X}u] = part[0]; }`;
  return `${header}
var<workgroup> part: array<f32, ${WORKGROUP}>;
var<workgroup> red: array<f32, ${REDUCE_WORKGROUP}>;
var<workgroup> scan: array<u32, ${REDUCE_WORKGROUP}>;

/** Exclusive prefix sum of the cell counts into the starts (one workgroup; each thread a block of cells). */
@compute @workgroup_size(${REDUCE_WORKGROUP})
fn scanCells(@builtin(local_invocation_index) t: u32) {
  let block = (CELLS + RWG - 1u) / RWG;
  let c0 = min(t * block, CELLS);
  let c1 = min(c0 + block, CELLS);
  var sum = 0u;
  for (var c = c0; c < c1; c++) { sum += I[I_COUNT + c]; }
  scan[t] = sum;
  workgroupBarrier();
  for (var h = 1u; h < RWG; h = h * 2u) {
    var v = 0u;
    if (t >= h) { v = scan[t - h]; }
    workgroupBarrier();
    scan[t] += v;
    workgroupBarrier();
  }
  var run = scan[t] - sum;
  for (var c = c0; c < c1; c++) {
    I[I_START + c] = run;
    run += I[I_COUNT + c];
  }
  if (t == RWG - 1u) { I[I_START + CELLS] = scan[t]; }
}

@compute @workgroup_size(${WORKGROUP})
fn scatterCells(@builtin(global_invocation_id) id: vec3<u32>) {
  let i = id.x + id.y * X_STRIDE;
  if (i >= N) { return; }
  I[I_SORTED + I[I_START + I[I_CELL + i]] + I[I_RANK + i]] = i;
}

/** Sorts each cell's particles by index (the atomic ranks come in any order): the CPU's order, run to run. */
@compute @workgroup_size(${WORKGROUP})
fn sortCells(@builtin(global_invocation_id) id: vec3<u32>) {
  let c = id.x + id.y * X_STRIDE;
  if (c >= CELLS) { return; }
  let s = I_SORTED + I[I_START + c];
  let e = I_SORTED + I[I_START + c + 1u];
  for (var a = s + 1u; a < e; a++) {
    let v = I[a];
    var b = a;
    while (b > s && I[b - 1u] > v) {
      I[b] = I[b - 1u];
      b--;
    }
    I[b] = v;
  }
}

/** FluidPasses.densitySummation (free-surface variant if configured); partial max speed² per workgroup. */
@compute @workgroup_size(${WORKGROUP})
fn densitySummation(@builtin(global_invocation_id) id: vec3<u32>, @builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let k = id.x + id.y * X_STRIDE;
  var s2 = 0.0;
  if (k < N) {
    let i = I[I_SORTED + k];
    let xi0 = vec3<f32>(F[F_X0 + i], F[F_Y0 + i], F[F_Z0 + i]);
    let mi = F[F_MASS + i];
    var sigma = W0;
    ${neighbours(false, 'sigma += (ALPHA * a3 * a * (1.0 + 2.0 * q)) * F[F_MASS + j] / mi;')}
    var sw = 0.0;
    ${neighbours(true, 'sw += (ALPHA * a3 * a * (1.0 + 2.0 * q)) * W[W_VOL + j];')}
    sigma += sw * RHO0 / mi;
    let sum = sigma * SIGMA_SCALE;
    var rho = sum;
    if (FREE_SURFACE) { rho = sum + max(0.0, RHO0 - sum) * RHO0 / F[F_RHO + i]; }
    F[F_RHO + i] = rho;
    F[F_P + i] = C2 * (rho - RHO0);
    F[F_VOL + i] = mi / rho;
    let v = vec3<f32>(F[F_VX + i], F[F_VY + i], F[F_VZ + i]);
    s2 = dot(v, v);
  }
  ${reducePartial}
}

/** Maximum of the first \`groups\` partials into the state's Vmax2 (one workgroup). */
fn reduceVmax(t: u32, groups: u32) {
  var m = 0.0;
  for (var g = t; g < groups; g += RWG) { m = max(m, F[PARTIALS + g]); }
  red[t] = m;
  workgroupBarrier();
  for (var h = RWG / 2u; h > 0u; h = h / 2u) {
    if (t < h) { red[t] = max(red[t], red[t + h]); }
    workgroupBarrier();
  }
}

/** Starts an advection step: its Dt and cap from the summation's max speed and the time left. */
@compute @workgroup_size(${REDUCE_WORKGROUP})
fn beginAdvection(@builtin(local_invocation_index) t: u32) {
  reduceVmax(t, (N + WG - 1u) / WG);
  if (t == 0u) {
    let vmax2 = red[0];
    let speed = max(sqrt(vmax2), U_REF);
    let remaining = F[S_REMAINING];
    let big = min(min(ADVECTION_H / speed, VISCOUS_DT), remaining);
    F[S_BIG] = big;
    F[S_CAP] = min(VISCOUS_DT, remaining);
    F[S_ELAPSED] = 0.0;
    F[S_STEPS] = 0.0;
    F[S_VMAX2] = vmax2;
    F[S_ACTIVE] = select(0.0, 1.0, big > 0.0);
  }
}

/** FluidPasses.viscousAndBodyForce (Newtonian). */
@compute @workgroup_size(${WORKGROUP})
fn viscousForce(@builtin(global_invocation_id) id: vec3<u32>) {
  let k = id.x + id.y * X_STRIDE;
  if (k >= N) { return; }
  let i = I[I_SORTED + k];
  let xi0 = vec3<f32>(F[F_X0 + i], F[F_Y0 + i], F[F_Z0 + i]);
  var s = vec3<f32>(0.0);
  if (TWO_MU > 0.0) {
    let vi = vec3<f32>(F[F_VX + i], F[F_VY + i], F[F_VZ + i]);
    ${neighbours(false, 's += (dW * F[F_VOL + j] / (r + EPS)) * (vi - vec3<f32>(F[F_VX + j], F[F_VY + j], F[F_VZ + j]));')}
    ${neighbours(true, 's += (2.0 * dW * W[W_VOL + j] / (r + EPS)) * (vi - vec3<f32>(W[W_VX + j], W[W_VY + j], W[W_VZ + j]));')}
    s *= TWO_MU / F[F_RHO + i];
  }
  F[F_APX + i] = GRAVITY.x + s.x;
  F[F_APY + i] = GRAVITY.y + s.y;
  F[F_APZ + i] = GRAVITY.z + s.z;
}

/** The acoustic step: dt from the last max speed, capped. */
@compute @workgroup_size(1)
fn beginAcoustic() {
  if (F[S_ACTIVE] < 0.5) { return; }
  F[S_DT] = min(ACOUSTIC_H / (C0 + sqrt(F[S_VMAX2])), F[S_CAP] - F[S_ELAPSED]);
}

/** FluidPasses.pressureHalfStep. */
@compute @workgroup_size(${WORKGROUP})
fn pressureHalfStep(@builtin(global_invocation_id) id: vec3<u32>) {
  let i = id.x + id.y * X_STRIDE;
  if (i >= N || F[S_ACTIVE] < 0.5) { return; }
  let halfDt = 0.5 * F[S_DT];
  let r = F[F_RHO + i] + F[F_DRHO + i] * halfDt;
  F[F_RHOHALF + i] = r;
  F[F_P + i] = C2 * (r - RHO0);
  F[F_VOL + i] = F[F_MASS + i] / r;
  F[F_X + i] += F[F_VX + i] * halfDt;
  F[F_Y + i] += F[F_VY + i] * halfDt;
  F[F_Z + i] += F[F_VZ + i] * halfDt;
}

/** FluidPasses.pressureStep after the half step (not fused). */
@compute @workgroup_size(${WORKGROUP})
fn pressureForces(@builtin(global_invocation_id) id: vec3<u32>) {
  ${particle}
  if (!on) { return; }
  let dt = F[S_DT];
  let pi = F[F_P + i];
  let rhoI = F[F_RHOHALF + i];
  let g = vec3<f32>(F[F_APX + i], F[F_APY + i], F[F_APZ + i]);
  var s = vec3<f32>(0.0);
  var diss = 0.0;
  ${neighbours(
    false,
    `let pj = F[F_P + j];
            let dwv = dW * F[F_VOL + j];
            s += ((pi + pj) * dwv) * e;
            diss += (pi - pj) * dwv;`,
  )}
  ${neighbours(
    true,
    `let face = -dot(g - vec3<f32>(W[W_AX + j], W[W_AY + j], W[W_AZ + j]), e);
            let pw = pi + rhoI * r * max(face, 0.0);
            let dwv = dW * W[W_VOL + j];
            s += ((pi + pw) * dwv) * e;
            diss += (pi - pw) * dwv;`,
  )}
  F[F_DRHOHALF + i] = diss * INV_RHO_C * rhoI;
  let u = vec3<f32>(F[F_VX + i], F[F_VY + i], F[F_VZ + i]) + (g - s / rhoI) * dt;
  F[F_VX + i] = u.x;
  F[F_VY + i] = u.y;
  F[F_VZ + i] = u.z;
  let halfDt = 0.5 * dt;
  F[F_X + i] += u.x * halfDt;
  F[F_Y + i] += u.y * halfDt;
  F[F_Z + i] += u.z * halfDt;
}

/** FluidPasses.densityStep: new ρ, dρ/dt and velocity (into nv); partial max speed² per workgroup. */
@compute @workgroup_size(${WORKGROUP})
fn densityStep(@builtin(global_invocation_id) id: vec3<u32>, @builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  ${particle}
  var s2 = 0.0;
  if (on) {
    let dt = F[S_DT];
    let vi = vec3<f32>(F[F_VX + i], F[F_VY + i], F[F_VZ + i]);
    var div = 0.0;
    var s = vec3<f32>(0.0);
    ${neighbours(
      false,
      `let dwv = dW * F[F_VOL + j];
            let uj = dot(vi - vec3<f32>(F[F_VX + j], F[F_VY + j], F[F_VZ + j]), e);
            div += uj * dwv;
            let lim = clamp(-uj * LIMITER, 0.0, 1.0);
            s += (RHO_C * uj * lim * dwv) * e;`,
    )}
    ${neighbours(
      true,
      `let dwv = dW * W[W_VOL + j];
            let u = vi - vec3<f32>(W[W_VX + j], W[W_VY + j], W[W_VZ + j]);
            div += 2.0 * dot(u, e) * dwv;
            let nw = vec3<f32>(W[W_NX + j], W[W_NY + j], W[W_NZ + j]);
            let uj = 2.0 * dot(u, nw);
            if (uj < 0.0) { s += (RHO_C * uj * min(-uj * LIMITER, 1.0) * dwv) * nw; }`,
    )}
    let rhoI = F[F_RHOHALF + i];
    let rate = F[F_DRHOHALF + i] + div * rhoI;
    F[F_DRHO + i] = rate;
    F[F_RHO + i] = rhoI + rate * 0.5 * dt;
    let u = vi + s / rhoI * dt;
    F[F_NVX + i] = u.x;
    F[F_NVY + i] = u.y;
    F[F_NVZ + i] = u.z;
    s2 = dot(u, u);
  }
  ${reducePartial}
}

/** FluidPasses.commitVelocity. */
@compute @workgroup_size(${WORKGROUP})
fn commitVelocity(@builtin(global_invocation_id) id: vec3<u32>) {
  let i = id.x + id.y * X_STRIDE;
  if (i >= N || F[S_ACTIVE] < 0.5) { return; }
  F[F_VX + i] = F[F_NVX + i];
  F[F_VY + i] = F[F_NVY + i];
  F[F_VZ + i] = F[F_NVZ + i];
}

/** Ends an acoustic step: max speed², elapsed time, step count, and whether another step is needed. */
@compute @workgroup_size(${REDUCE_WORKGROUP})
fn endAcoustic(@builtin(local_invocation_index) t: u32) {
  // The reduction runs in every step (cheap); its result counts only while the advection step is active.
  reduceVmax(t, (N + WG - 1u) / WG);
  if (t == 0u && F[S_ACTIVE] > 0.5) {
    F[S_VMAX2] = red[0];
    let elapsed = F[S_ELAPSED] + F[S_DT];
    F[S_ELAPSED] = elapsed;
    F[S_STEPS] += 1.0;
    F[S_ACTIVE] = select(0.0, 1.0, elapsed < F[S_BIG]);
  }
}
`;
}
