// AssemblyScript source of the SPH fluid's WebAssembly kernels (built to packages/sph/build/kernels.wasm by
// `npm run build:wasm -w @insilico/sph`, which `npm ci` runs as the package's postinstall). Each kernel is the
// WebAssembly twin of a pass of `src/passes.ts` (the TypeScript reference backend), over the arrays of one shared
// memory (`src/arena.ts`) addressed by byte offset, for the particle range [i0, i1).
//
// Fixed-width SIMD128 only (no relaxed SIMD: its results may differ between processors). The pair loops handle
// two pairs of a row per f64x2 (lanes = even and odd pairs of the row, counted from the row's start), then a scalar
// tail, and add the two lane sums at the end of the row. The summation order therefore differs from the scalar
// TypeScript loop (last bits), but depends only on the row, never on the thread split: each backend is
// bit-identical for any thread count. No allocation, no runtime (stub), no data segment.

// @ts-nocheck: AssemblyScript types (usize, f64, v128) and builtins; checked by asc, not tsc.

function f(p: usize, i: i32): f64 {
  return load<f64>(p + ((<usize>i) << 3));
}

function st(p: usize, i: i32, v: f64): void {
  store<f64>(p + ((<usize>i) << 3), v);
}

function ix(p: usize, i: i32): i32 {
  return load<i32>(p + ((<usize>i) << 2));
}

/** Two neighbours' values of field `p` (pairs k and k + 1 of index array `nj`) in one vector. */
function gather(p: usize, j0: i32, j1: i32): v128 {
  return f64x2.replace_lane(f64x2.splat(f(p, j0)), 1, f(p, j1));
}

/**
 * Precision of the neighbour lists' cached pair arrays (W, dW/dr, r, e): false = f64, true = f32
 * (`setPairPrecision`, per instance). Every pair value is read as f64: the arithmetic is the same either way.
 */
let pair32: bool = false;

/** Sets the precision of the cached pair arrays (1: f32, 0: f64) for this instance. */
export function setPairPrecision(single: i32): void {
  pair32 = single != 0;
}

/** Pair value k of cached pair array `p` (either precision), as f64. */
function pf(p: usize, k: i32): f64 {
  return pair32 ? <f64>load<f32>(p + ((<usize>k) << 2)) : load<f64>(p + ((<usize>k) << 3));
}

/** Stores pair value k of cached pair array `p` in its precision. */
function pst(p: usize, k: i32, v: f64): void {
  if (pair32) store<f32>(p + ((<usize>k) << 2), <f32>v);
  else store<f64>(p + ((<usize>k) << 3), v);
}

/** Pair values k and k + 1 of cached pair array `p` (either precision) as f64x2. */
function vload(p: usize, k: i32): v128 {
  return pair32 ? f64x2.promote_low_f32x4(v128.load64_zero(p + ((<usize>k) << 2))) : v128.load(p + ((<usize>k) << 3));
}

function hsum(v: v128): f64 {
  return f64x2.extract_lane(v, 0) + f64x2.extract_lane(v, 1);
}

/**
 * `FluidPasses.densityStep2d`: density relaxation of particles [i0, i1) in 2D (pair divergence and Riemann
 * dissipation, ρ and dρ/dt, the new velocity into vxNext/vyNext). Returns the range's maximum speed².
 */
export function densityStep2d(
  vx: usize,
  vy: usize,
  rho: usize,
  drho: usize,
  vol: usize,
  rhoHalf: usize,
  drhoHalf: usize,
  vxNext: usize,
  vyNext: usize,
  start: usize,
  end: usize,
  nj: usize,
  dw: usize,
  ex: usize,
  ey: usize,
  cs: usize,
  ce: usize,
  cj: usize,
  cdw: usize,
  cex: usize,
  cey: usize,
  wallVol: usize,
  wvx: usize,
  wvy: usize,
  wnx: usize,
  wny: usize,
  rhoC: f64,
  limiterScale: f64,
  dt: f64,
  i0: i32,
  i1: i32,
): f64 {
  const halfDt = 0.5 * dt;
  const zero = f64x2.splat(0);
  const one = f64x2.splat(1);
  const vls = f64x2.splat(-limiterScale);
  const vrhoC = f64x2.splat(rhoC);
  let vmax2: f64 = 0;
  for (let i = i0; i < i1; i++) {
    const vxi = f(vx, i);
    const vyi = f(vy, i);
    const vvxi = f64x2.splat(vxi);
    const vvyi = f64x2.splat(vyi);
    let vdiv = zero;
    let vsx = zero;
    let vsy = zero;
    let k = ix(start, i);
    const e = ix(end, i);
    for (; k + 1 < e; k += 2) {
      const j0 = ix(nj, k);
      const j1 = ix(nj, k + 1);
      const exk = vload(ex, k);
      const eyk = vload(ey, k);
      const dwv = f64x2.mul(vload(dw, k), gather(vol, j0, j1));
      const uj = f64x2.add(
        f64x2.mul(f64x2.sub(vvxi, gather(vx, j0, j1)), exk),
        f64x2.mul(f64x2.sub(vvyi, gather(vy, j0, j1)), eyk),
      );
      vdiv = f64x2.add(vdiv, f64x2.mul(uj, dwv));
      const lim = f64x2.min(f64x2.max(f64x2.mul(uj, vls), zero), one);
      const d = f64x2.mul(f64x2.mul(f64x2.mul(vrhoC, uj), lim), dwv);
      vsx = f64x2.add(vsx, f64x2.mul(d, exk));
      vsy = f64x2.add(vsy, f64x2.mul(d, eyk));
    }
    let div = hsum(vdiv);
    let sx = hsum(vsx);
    let sy = hsum(vsy);
    if (k < e) {
      const j = ix(nj, k);
      const exk = pf(ex, k);
      const eyk = pf(ey, k);
      const dwv = pf(dw, k) * f(vol, j);
      const uj = (vxi - f(vx, j)) * exk + (vyi - f(vy, j)) * eyk;
      div += uj * dwv;
      const lim = min(max(-uj * limiterScale, 0.0), 1.0);
      const d = rhoC * uj * lim * dwv;
      sx += d * exk;
      sy += d * eyk;
    }
    // Walls: two pairs per vector as well.
    let wdiv = zero;
    let wsx = zero;
    let wsy = zero;
    k = ix(cs, i);
    const ke = ix(ce, i);
    for (; k + 1 < ke; k += 2) {
      const j0 = ix(cj, k);
      const j1 = ix(cj, k + 1);
      const dwv = f64x2.mul(vload(cdw, k), gather(wallVol, j0, j1));
      const ux = f64x2.sub(vvxi, gather(wvx, j0, j1));
      const uy = f64x2.sub(vvyi, gather(wvy, j0, j1));
      const proj = f64x2.add(f64x2.mul(ux, vload(cex, k)), f64x2.mul(uy, vload(cey, k)));
      wdiv = f64x2.add(wdiv, f64x2.mul(f64x2.add(proj, proj), dwv));
      const nxk = gather(wnx, j0, j1);
      const nyk = gather(wny, j0, j1);
      const un = f64x2.add(f64x2.mul(ux, nxk), f64x2.mul(uy, nyk));
      const uj = f64x2.add(un, un);
      // Zero unless compressing (uj < 0), capped at 1: the scalar branch of the reference, branch-free.
      const lim = f64x2.min(f64x2.max(f64x2.mul(uj, vls), zero), one);
      const d = f64x2.mul(f64x2.mul(f64x2.mul(vrhoC, uj), lim), dwv);
      wsx = f64x2.add(wsx, f64x2.mul(d, nxk));
      wsy = f64x2.add(wsy, f64x2.mul(d, nyk));
    }
    div += hsum(wdiv);
    sx += hsum(wsx);
    sy += hsum(wsy);
    if (k < ke) {
      const j = ix(cj, k);
      const dwv = pf(cdw, k) * f(wallVol, j);
      const ux = vxi - f(wvx, j);
      const uy = vyi - f(wvy, j);
      div += 2 * (ux * pf(cex, k) + uy * pf(cey, k)) * dwv;
      const nxk = f(wnx, j);
      const nyk = f(wny, j);
      const uj = 2 * (ux * nxk + uy * nyk);
      if (uj < 0) {
        const lim = -uj * limiterScale;
        const d = rhoC * uj * (lim < 1 ? lim : 1) * dwv;
        sx += d * nxk;
        sy += d * nyk;
      }
    }
    const rhoI = f(rhoHalf, i);
    const rate = f(drhoHalf, i) + div * rhoI;
    st(drho, i, rate);
    st(rho, i, rhoI + rate * halfDt);
    const invRho = 1 / rhoI;
    const u = vxi + sx * invRho * dt;
    const v = vyi + sy * invRho * dt;
    st(vxNext, i, u);
    st(vyNext, i, v);
    const s = u * u + v * v;
    if (s > vmax2) vmax2 = s;
  }
  return vmax2;
}

/** `FluidPasses.densityStep` in 3D (as `densityStep2d`, with z). Returns the range's maximum speed². */
export function densityStep3d(
  vx: usize,
  vy: usize,
  vz: usize,
  rho: usize,
  drho: usize,
  vol: usize,
  rhoHalf: usize,
  drhoHalf: usize,
  vxNext: usize,
  vyNext: usize,
  vzNext: usize,
  start: usize,
  end: usize,
  nj: usize,
  dw: usize,
  ex: usize,
  ey: usize,
  ez: usize,
  cs: usize,
  ce: usize,
  cj: usize,
  cdw: usize,
  cex: usize,
  cey: usize,
  cez: usize,
  wallVol: usize,
  wvx: usize,
  wvy: usize,
  wvz: usize,
  wnx: usize,
  wny: usize,
  wnz: usize,
  rhoC: f64,
  limiterScale: f64,
  dt: f64,
  i0: i32,
  i1: i32,
): f64 {
  const halfDt = 0.5 * dt;
  const zero = f64x2.splat(0);
  const one = f64x2.splat(1);
  const vls = f64x2.splat(-limiterScale);
  const vrhoC = f64x2.splat(rhoC);
  let vmax2: f64 = 0;
  for (let i = i0; i < i1; i++) {
    const vxi = f(vx, i);
    const vyi = f(vy, i);
    const vzi = f(vz, i);
    const vvxi = f64x2.splat(vxi);
    const vvyi = f64x2.splat(vyi);
    const vvzi = f64x2.splat(vzi);
    let vdiv = zero;
    let vsx = zero;
    let vsy = zero;
    let vsz = zero;
    let k = ix(start, i);
    const e = ix(end, i);
    for (; k + 1 < e; k += 2) {
      const j0 = ix(nj, k);
      const j1 = ix(nj, k + 1);
      const exk = vload(ex, k);
      const eyk = vload(ey, k);
      const ezk = vload(ez, k);
      const dwv = f64x2.mul(vload(dw, k), gather(vol, j0, j1));
      const uj = f64x2.add(
        f64x2.add(
          f64x2.mul(f64x2.sub(vvxi, gather(vx, j0, j1)), exk),
          f64x2.mul(f64x2.sub(vvyi, gather(vy, j0, j1)), eyk),
        ),
        f64x2.mul(f64x2.sub(vvzi, gather(vz, j0, j1)), ezk),
      );
      vdiv = f64x2.add(vdiv, f64x2.mul(uj, dwv));
      const lim = f64x2.min(f64x2.max(f64x2.mul(uj, vls), zero), one);
      const d = f64x2.mul(f64x2.mul(f64x2.mul(vrhoC, uj), lim), dwv);
      vsx = f64x2.add(vsx, f64x2.mul(d, exk));
      vsy = f64x2.add(vsy, f64x2.mul(d, eyk));
      vsz = f64x2.add(vsz, f64x2.mul(d, ezk));
    }
    let div = hsum(vdiv);
    let sx = hsum(vsx);
    let sy = hsum(vsy);
    let sz = hsum(vsz);
    if (k < e) {
      const j = ix(nj, k);
      const exk = pf(ex, k);
      const eyk = pf(ey, k);
      const ezk = pf(ez, k);
      const dwv = pf(dw, k) * f(vol, j);
      const uj = (vxi - f(vx, j)) * exk + (vyi - f(vy, j)) * eyk + (vzi - f(vz, j)) * ezk;
      div += uj * dwv;
      const lim = min(max(-uj * limiterScale, 0.0), 1.0);
      const d = rhoC * uj * lim * dwv;
      sx += d * exk;
      sy += d * eyk;
      sz += d * ezk;
    }
    let wdiv = zero;
    let wsx = zero;
    let wsy = zero;
    let wsz = zero;
    k = ix(cs, i);
    const ke = ix(ce, i);
    for (; k + 1 < ke; k += 2) {
      const j0 = ix(cj, k);
      const j1 = ix(cj, k + 1);
      const dwv = f64x2.mul(vload(cdw, k), gather(wallVol, j0, j1));
      const ux = f64x2.sub(vvxi, gather(wvx, j0, j1));
      const uy = f64x2.sub(vvyi, gather(wvy, j0, j1));
      const uz = f64x2.sub(vvzi, gather(wvz, j0, j1));
      const proj = f64x2.add(
        f64x2.add(f64x2.mul(ux, vload(cex, k)), f64x2.mul(uy, vload(cey, k))),
        f64x2.mul(uz, vload(cez, k)),
      );
      wdiv = f64x2.add(wdiv, f64x2.mul(f64x2.add(proj, proj), dwv));
      const nxk = gather(wnx, j0, j1);
      const nyk = gather(wny, j0, j1);
      const nzk = gather(wnz, j0, j1);
      const un = f64x2.add(f64x2.add(f64x2.mul(ux, nxk), f64x2.mul(uy, nyk)), f64x2.mul(uz, nzk));
      const uj = f64x2.add(un, un);
      const lim = f64x2.min(f64x2.max(f64x2.mul(uj, vls), zero), one);
      const d = f64x2.mul(f64x2.mul(f64x2.mul(vrhoC, uj), lim), dwv);
      wsx = f64x2.add(wsx, f64x2.mul(d, nxk));
      wsy = f64x2.add(wsy, f64x2.mul(d, nyk));
      wsz = f64x2.add(wsz, f64x2.mul(d, nzk));
    }
    div += hsum(wdiv);
    sx += hsum(wsx);
    sy += hsum(wsy);
    sz += hsum(wsz);
    if (k < ke) {
      const j = ix(cj, k);
      const dwv = pf(cdw, k) * f(wallVol, j);
      const ux = vxi - f(wvx, j);
      const uy = vyi - f(wvy, j);
      const uz = vzi - f(wvz, j);
      div += 2 * (ux * pf(cex, k) + uy * pf(cey, k) + uz * pf(cez, k)) * dwv;
      const nxk = f(wnx, j);
      const nyk = f(wny, j);
      const nzk = f(wnz, j);
      const uj = 2 * (ux * nxk + uy * nyk + uz * nzk);
      if (uj < 0) {
        const lim = -uj * limiterScale;
        const d = rhoC * uj * (lim < 1 ? lim : 1) * dwv;
        sx += d * nxk;
        sy += d * nyk;
        sz += d * nzk;
      }
    }
    const rhoI = f(rhoHalf, i);
    const rate = f(drhoHalf, i) + div * rhoI;
    st(drho, i, rate);
    st(rho, i, rhoI + rate * halfDt);
    const invRho = 1 / rhoI;
    const u = vxi + sx * invRho * dt;
    const v = vyi + sy * invRho * dt;
    const w = vzi + sz * invRho * dt;
    st(vxNext, i, u);
    st(vyNext, i, v);
    st(vzNext, i, w);
    const s = u * u + v * v + w * w;
    if (s > vmax2) vmax2 = s;
  }
  return vmax2;
}

/**
 * `FluidPasses.pressureStep2d` after `pressureHalfStep` (not fused): pair pressure forces with the wall pressure
 * extrapolated from the fluid's acceleration, the velocity update, the second position half-step, and the
 * half-step density and pressure part of dρ/dt into the scratch.
 */
export function pressureForces2d(
  x: usize,
  y: usize,
  vx: usize,
  vy: usize,
  apx: usize,
  apy: usize,
  p: usize,
  vol: usize,
  rhoHalf: usize,
  drhoHalf: usize,
  start: usize,
  end: usize,
  nj: usize,
  dw: usize,
  ex: usize,
  ey: usize,
  cs: usize,
  ce: usize,
  cj: usize,
  cdw: usize,
  cr: usize,
  cex: usize,
  cey: usize,
  wallVol: usize,
  wax: usize,
  way: usize,
  invRhoC: f64,
  tensile: i32,
  dt: f64,
  i0: i32,
  i1: i32,
): void {
  const halfDt = 0.5 * dt;
  const zero = f64x2.splat(0);
  for (let i = i0; i < i1; i++) {
    const rhoI = f(rhoHalf, i);
    const pi = f(p, i);
    const vpi = f64x2.splat(pi);
    // Tensile-instability control: |p_i| in the pair sum (p_j − p_i where p_i < 0; `FluidPasses.pressureStep`).
    const qi = tensile && pi < 0 ? -pi : pi;
    const vqi = f64x2.splat(qi);
    let vsx = zero;
    let vsy = zero;
    let vdiss = zero;
    let k = ix(start, i);
    const e = ix(end, i);
    for (; k + 1 < e; k += 2) {
      const j0 = ix(nj, k);
      const j1 = ix(nj, k + 1);
      const pj = gather(p, j0, j1);
      const dwv = f64x2.mul(vload(dw, k), gather(vol, j0, j1));
      const s = f64x2.mul(f64x2.add(vqi, pj), dwv);
      vsx = f64x2.add(vsx, f64x2.mul(s, vload(ex, k)));
      vsy = f64x2.add(vsy, f64x2.mul(s, vload(ey, k)));
      vdiss = f64x2.add(vdiss, f64x2.mul(f64x2.sub(vpi, pj), dwv));
    }
    let sx = hsum(vsx);
    let sy = hsum(vsy);
    let diss = hsum(vdiss);
    if (k < e) {
      const j = ix(nj, k);
      const pj = f(p, j);
      const dwv = pf(dw, k) * f(vol, j);
      const s = (qi + pj) * dwv;
      sx += s * pf(ex, k);
      sy += s * pf(ey, k);
      diss += (pi - pj) * dwv;
    }
    const gx = f(apx, i);
    const gy = f(apy, i);
    const vgx = f64x2.splat(gx);
    const vgy = f64x2.splat(gy);
    const vrhoI = f64x2.splat(rhoI);
    let wsx = zero;
    let wsy = zero;
    let wdiss = zero;
    k = ix(cs, i);
    const ke = ix(ce, i);
    for (; k + 1 < ke; k += 2) {
      const j0 = ix(cj, k);
      const j1 = ix(cj, k + 1);
      const exk = vload(cex, k);
      const eyk = vload(cey, k);
      const face = f64x2.neg(
        f64x2.add(
          f64x2.mul(f64x2.sub(vgx, gather(wax, j0, j1)), exk),
          f64x2.mul(f64x2.sub(vgy, gather(way, j0, j1)), eyk),
        ),
      );
      const pw = f64x2.add(vpi, f64x2.mul(f64x2.mul(vrhoI, vload(cr, k)), f64x2.max(face, zero)));
      const dwv = f64x2.mul(vload(cdw, k), gather(wallVol, j0, j1));
      const s = f64x2.mul(f64x2.add(vqi, pw), dwv);
      wsx = f64x2.add(wsx, f64x2.mul(s, exk));
      wsy = f64x2.add(wsy, f64x2.mul(s, eyk));
      wdiss = f64x2.add(wdiss, f64x2.mul(f64x2.sub(vpi, pw), dwv));
    }
    sx += hsum(wsx);
    sy += hsum(wsy);
    diss += hsum(wdiss);
    if (k < ke) {
      const exk = pf(cex, k);
      const eyk = pf(cey, k);
      const jw = ix(cj, k);
      const face = -((gx - f(wax, jw)) * exk + (gy - f(way, jw)) * eyk);
      const pw = pi + rhoI * pf(cr, k) * (face > 0 ? face : 0);
      const dwv = pf(cdw, k) * f(wallVol, jw);
      const s = (qi + pw) * dwv;
      sx += s * exk;
      sy += s * eyk;
      diss += (pi - pw) * dwv;
    }
    const invRho = 1 / rhoI;
    st(drhoHalf, i, diss * invRhoC * rhoI);
    const u = f(vx, i) + (gx - sx * invRho) * dt;
    const v = f(vy, i) + (gy - sy * invRho) * dt;
    st(vx, i, u);
    st(vy, i, v);
    st(x, i, f(x, i) + u * halfDt);
    st(y, i, f(y, i) + v * halfDt);
  }
}

/** `pressureForces2d` in 3D (`FluidPasses.pressureStep`, not fused). */
export function pressureForces3d(
  x: usize,
  y: usize,
  z: usize,
  vx: usize,
  vy: usize,
  vz: usize,
  apx: usize,
  apy: usize,
  apz: usize,
  p: usize,
  vol: usize,
  rhoHalf: usize,
  drhoHalf: usize,
  start: usize,
  end: usize,
  nj: usize,
  dw: usize,
  ex: usize,
  ey: usize,
  ez: usize,
  cs: usize,
  ce: usize,
  cj: usize,
  cdw: usize,
  cr: usize,
  cex: usize,
  cey: usize,
  cez: usize,
  wallVol: usize,
  wax: usize,
  way: usize,
  waz: usize,
  invRhoC: f64,
  tensile: i32,
  dt: f64,
  i0: i32,
  i1: i32,
): void {
  const halfDt = 0.5 * dt;
  const zero = f64x2.splat(0);
  for (let i = i0; i < i1; i++) {
    const rhoI = f(rhoHalf, i);
    const pi = f(p, i);
    const vpi = f64x2.splat(pi);
    // Tensile-instability control: |p_i| in the pair sum (p_j − p_i where p_i < 0; `FluidPasses.pressureStep`).
    const qi = tensile && pi < 0 ? -pi : pi;
    const vqi = f64x2.splat(qi);
    let vsx = zero;
    let vsy = zero;
    let vsz = zero;
    let vdiss = zero;
    let k = ix(start, i);
    const e = ix(end, i);
    for (; k + 1 < e; k += 2) {
      const j0 = ix(nj, k);
      const j1 = ix(nj, k + 1);
      const pj = gather(p, j0, j1);
      const dwv = f64x2.mul(vload(dw, k), gather(vol, j0, j1));
      const s = f64x2.mul(f64x2.add(vqi, pj), dwv);
      vsx = f64x2.add(vsx, f64x2.mul(s, vload(ex, k)));
      vsy = f64x2.add(vsy, f64x2.mul(s, vload(ey, k)));
      vsz = f64x2.add(vsz, f64x2.mul(s, vload(ez, k)));
      vdiss = f64x2.add(vdiss, f64x2.mul(f64x2.sub(vpi, pj), dwv));
    }
    let sx = hsum(vsx);
    let sy = hsum(vsy);
    let sz = hsum(vsz);
    let diss = hsum(vdiss);
    if (k < e) {
      const j = ix(nj, k);
      const pj = f(p, j);
      const dwv = pf(dw, k) * f(vol, j);
      const s = (qi + pj) * dwv;
      sx += s * pf(ex, k);
      sy += s * pf(ey, k);
      sz += s * pf(ez, k);
      diss += (pi - pj) * dwv;
    }
    const gx = f(apx, i);
    const gy = f(apy, i);
    const gz = f(apz, i);
    const vgx = f64x2.splat(gx);
    const vgy = f64x2.splat(gy);
    const vgz = f64x2.splat(gz);
    const vrhoI = f64x2.splat(rhoI);
    let wsx = zero;
    let wsy = zero;
    let wsz = zero;
    let wdiss = zero;
    k = ix(cs, i);
    const ke = ix(ce, i);
    for (; k + 1 < ke; k += 2) {
      const j0 = ix(cj, k);
      const j1 = ix(cj, k + 1);
      const exk = vload(cex, k);
      const eyk = vload(cey, k);
      const ezk = vload(cez, k);
      const face = f64x2.neg(
        f64x2.add(
          f64x2.add(
            f64x2.mul(f64x2.sub(vgx, gather(wax, j0, j1)), exk),
            f64x2.mul(f64x2.sub(vgy, gather(way, j0, j1)), eyk),
          ),
          f64x2.mul(f64x2.sub(vgz, gather(waz, j0, j1)), ezk),
        ),
      );
      const pw = f64x2.add(vpi, f64x2.mul(f64x2.mul(vrhoI, vload(cr, k)), f64x2.max(face, zero)));
      const dwv = f64x2.mul(vload(cdw, k), gather(wallVol, j0, j1));
      const s = f64x2.mul(f64x2.add(vqi, pw), dwv);
      wsx = f64x2.add(wsx, f64x2.mul(s, exk));
      wsy = f64x2.add(wsy, f64x2.mul(s, eyk));
      wsz = f64x2.add(wsz, f64x2.mul(s, ezk));
      wdiss = f64x2.add(wdiss, f64x2.mul(f64x2.sub(vpi, pw), dwv));
    }
    sx += hsum(wsx);
    sy += hsum(wsy);
    sz += hsum(wsz);
    diss += hsum(wdiss);
    if (k < ke) {
      const exk = pf(cex, k);
      const eyk = pf(cey, k);
      const ezk = pf(cez, k);
      const jw = ix(cj, k);
      const face = -((gx - f(wax, jw)) * exk + (gy - f(way, jw)) * eyk + (gz - f(waz, jw)) * ezk);
      const pw = pi + rhoI * pf(cr, k) * (face > 0 ? face : 0);
      const dwv = pf(cdw, k) * f(wallVol, jw);
      const s = (qi + pw) * dwv;
      sx += s * exk;
      sy += s * eyk;
      sz += s * ezk;
      diss += (pi - pw) * dwv;
    }
    const invRho = 1 / rhoI;
    st(drhoHalf, i, diss * invRhoC * rhoI);
    const u = f(vx, i) + (gx - sx * invRho) * dt;
    const v = f(vy, i) + (gy - sy * invRho) * dt;
    const w = f(vz, i) + (gz - sz * invRho) * dt;
    st(vx, i, u);
    st(vy, i, v);
    st(vz, i, w);
    st(x, i, f(x, i) + u * halfDt);
    st(y, i, f(y, i) + v * halfDt);
    st(z, i, f(z, i) + w * halfDt);
  }
}

/** `CellLinkedList.cellX` (and Y, Z): the cell coordinate of v along an axis, clamped or wrapped. */
function cellOf(v: f64, lower: f64, inv: f64, n: i32, periodic: i32): i32 {
  // Clamped in floating point first: a particle far outside the domain must not trap the conversion to i32.
  const c = Math.floor((v - lower) * inv);
  if (periodic) {
    const m = c - Math.floor(c / n) * n;
    return m >= 0 && m < n ? <i32>m : 0;
  }
  return c >= 0 ? (c < n ? <i32>c : n - 1) : 0;
}

/**
 * `buildNeighbours` (neighbours.ts) for the rows [i0, i1) of a threaded build: the pairs of each target particle
 * with the source particles of the 3 × 3 (× 3) cells around it, in the same cell and list order as the reference,
 * with the same arithmetic (bit-identical rows), written from pair k0 on. Returns the end of the pairs written, or
 * −1 when they would pass kLimit (the caller grows the lists). In 2D (nz = 1) z is zero and ez is written as zero.
 */
export function buildNeighbours(
  x: usize,
  y: usize,
  z: usize,
  xs: usize,
  ys: usize,
  zs: usize,
  head: usize,
  next: usize,
  start: usize,
  end: usize,
  nj: usize,
  w: usize,
  dw: usize,
  r: usize,
  ex: usize,
  ey: usize,
  ez: usize,
  nx: i32,
  ny: i32,
  nz: i32,
  lowerX: f64,
  lowerY: f64,
  lowerZ: f64,
  invSx: f64,
  invSy: f64,
  invSz: f64,
  px: i32,
  py: i32,
  pz: i32,
  lx: f64,
  ly: f64,
  lz: f64,
  cut2: f64,
  invH: f64,
  alpha: f64,
  dwFactor: f64,
  self: i32,
  i0: i32,
  i1: i32,
  k0: i32,
  kLimit: i32,
): i32 {
  const hlx = 0.5 * lx;
  const hly = 0.5 * ly;
  const hlz = 0.5 * lz;
  const nxy = nx * ny;
  const is3d = nz > 1;
  let k = k0;
  for (let i = i0; i < i1; i++) {
    store<i32>(start + ((<usize>i) << 2), k);
    const xi = f(x, i);
    const yi = f(y, i);
    const zi = f(z, i);
    const cx = cellOf(xi, lowerX, invSx, nx, px);
    const cy = cellOf(yi, lowerY, invSy, ny, py);
    const cz = is3d ? cellOf(zi, lowerZ, invSz, nz, pz) : 0;
    const z0 = is3d ? -1 : 0;
    const z1 = is3d ? 1 : 0;
    for (let dz = z0; dz <= z1; dz++) {
      let kz = cz + dz;
      if (kz < 0 || kz >= nz) {
        if (!pz) continue;
        kz = (kz + nz) % nz;
      }
      for (let dy = -1; dy <= 1; dy++) {
        let ky = cy + dy;
        if (ky < 0 || ky >= ny) {
          if (!py) continue;
          ky = (ky + ny) % ny;
        }
        for (let dx = -1; dx <= 1; dx++) {
          let kx = cx + dx;
          if (kx < 0 || kx >= nx) {
            if (!px) continue;
            kx = (kx + nx) % nx;
          }
          let j = ix(head, kx + nx * ky + nxy * kz);
          while (j >= 0) {
            let rx = xi - f(xs, j);
            let ry = yi - f(ys, j);
            let rz = zi - f(zs, j);
            if (px) rx = rx > hlx ? rx - lx : rx < -hlx ? rx + lx : rx;
            if (py) ry = ry > hly ? ry - ly : ry < -hly ? ry + ly : ry;
            if (pz) rz = rz > hlz ? rz - lz : rz < -hlz ? rz + lz : rz;
            const r2 = rx * rx + ry * ry + rz * rz;
            if (r2 < cut2 && r2 > 0 && !(self && j == i)) {
              if (k >= kLimit) return -1;
              const rr = Math.sqrt(r2);
              const inv = 1 / rr;
              // Wendland C2: W = α a⁴ (1 + 2q), dW/dr = −5 α/h · q a³, a = 1 − q/2.
              const q = rr * invH;
              const a = 1 - 0.5 * q;
              const a3 = a * a * a;
              store<i32>(nj + ((<usize>k) << 2), j);
              pst(w, k, alpha * a3 * a * (1 + 2 * q));
              pst(dw, k, dwFactor * q * a3);
              pst(r, k, rr);
              pst(ex, k, rx * inv);
              pst(ey, k, ry * inv);
              pst(ez, k, rz * inv);
              k++;
            }
            j = ix(next, j);
          }
        }
      }
    }
    store<i32>(end + ((<usize>i) << 2), k);
  }
  return k;
}

/**
 * `FluidPasses.densitySummation` (any dimension): ρ by kernel summation over fluid and wall neighbours (the
 * free-surface variant if `freeSurface`), then p and V. Returns the range's maximum speed².
 */
export function densitySummation(
  rho: usize,
  p: usize,
  mass: usize,
  vol: usize,
  vx: usize,
  vy: usize,
  vz: usize,
  start: usize,
  end: usize,
  nj: usize,
  w: usize,
  cs: usize,
  ce: usize,
  cw: usize,
  cj: usize,
  wallVol: usize,
  w0: f64,
  rho0: f64,
  c2: f64,
  scale: f64,
  freeSurface: i32,
  i0: i32,
  i1: i32,
): f64 {
  let vmax2: f64 = 0;
  const zero = f64x2.splat(0);
  for (let i = i0; i < i1; i++) {
    const mi = f(mass, i);
    const vmi = f64x2.splat(mi);
    let vsigma = zero;
    let k = ix(start, i);
    const e = ix(end, i);
    for (; k + 1 < e; k += 2) {
      const m = gather(mass, ix(nj, k), ix(nj, k + 1));
      vsigma = f64x2.add(vsigma, f64x2.div(f64x2.mul(vload(w, k), m), vmi));
    }
    let sigma = w0 + hsum(vsigma);
    if (k < e) sigma += (pf(w, k) * f(mass, ix(nj, k))) / mi;
    const cend = ix(ce, i);
    k = ix(cs, i);
    if (cend > k) {
      let vs = zero;
      for (; k + 1 < cend; k += 2) {
        vs = f64x2.add(vs, f64x2.mul(vload(cw, k), gather(wallVol, ix(cj, k), ix(cj, k + 1))));
      }
      let s = hsum(vs);
      if (k < cend) s += pf(cw, k) * f(wallVol, ix(cj, k));
      sigma += (s * rho0) / mi;
    }
    const sum = sigma * scale;
    const old = f(rho, i);
    const r = freeSurface ? sum + (max(0.0, rho0 - sum) * rho0) / old : sum;
    st(rho, i, r);
    st(p, i, c2 * (r - rho0));
    st(vol, i, mi / r);
    const u = f(vx, i);
    const v = f(vy, i);
    const ww = f(vz, i);
    const s2 = u * u + v * v + ww * ww;
    if (s2 > vmax2) vmax2 = s2;
  }
  return vmax2;
}

/**
 * `FluidPasses.pressureStep` with `fused` (any dimension; 2D passes zero z fields): the half-step of ρ, p, V and x
 * of each particle and, per pair, its neighbour's half-step p and V from the neighbour's ρ and dρ/dt with the same
 * arithmetic as the half-step pass, so the results equal the two-pass form (`pressureForces2d/3d` after the
 * half-step) bit for bit; one barrier less per acoustic step, a division more per pair.
 */
export function pressureStepFused(
  x: usize,
  y: usize,
  z: usize,
  vx: usize,
  vy: usize,
  vz: usize,
  apx: usize,
  apy: usize,
  apz: usize,
  rho: usize,
  drho: usize,
  p: usize,
  mass: usize,
  vol: usize,
  rhoHalf: usize,
  drhoHalf: usize,
  start: usize,
  end: usize,
  nj: usize,
  dw: usize,
  ex: usize,
  ey: usize,
  ez: usize,
  cs: usize,
  ce: usize,
  cj: usize,
  cdw: usize,
  cr: usize,
  cex: usize,
  cey: usize,
  cez: usize,
  wallVol: usize,
  wax: usize,
  way: usize,
  waz: usize,
  rho0: f64,
  c2: f64,
  invRhoC: f64,
  tensile: i32,
  dt: f64,
  i0: i32,
  i1: i32,
): void {
  const halfDt = 0.5 * dt;
  const zero = f64x2.splat(0);
  const vhalfDt = f64x2.splat(halfDt);
  const vc2 = f64x2.splat(c2);
  const vrho0 = f64x2.splat(rho0);
  for (let i = i0; i < i1; i++) {
    const rhoI = f(rho, i) + f(drho, i) * halfDt;
    const pi = c2 * (rhoI - rho0);
    st(p, i, pi);
    st(vol, i, f(mass, i) / rhoI);
    const x0 = f(x, i) + f(vx, i) * halfDt;
    const y0 = f(y, i) + f(vy, i) * halfDt;
    const z0 = f(z, i) + f(vz, i) * halfDt;
    const vpi = f64x2.splat(pi);
    // Tensile-instability control: |p_i| in the pair sum (p_j − p_i where p_i < 0; `FluidPasses.pressureStep`).
    const qi = tensile && pi < 0 ? -pi : pi;
    const vqi = f64x2.splat(qi);
    let vsx = zero;
    let vsy = zero;
    let vsz = zero;
    let vdiss = zero;
    let k = ix(start, i);
    const e = ix(end, i);
    for (; k + 1 < e; k += 2) {
      const j0 = ix(nj, k);
      const j1 = ix(nj, k + 1);
      const rj = f64x2.add(gather(rho, j0, j1), f64x2.mul(gather(drho, j0, j1), vhalfDt));
      const pj = f64x2.mul(vc2, f64x2.sub(rj, vrho0));
      const dwv = f64x2.mul(vload(dw, k), f64x2.div(gather(mass, j0, j1), rj));
      const s = f64x2.mul(f64x2.add(vqi, pj), dwv);
      vsx = f64x2.add(vsx, f64x2.mul(s, vload(ex, k)));
      vsy = f64x2.add(vsy, f64x2.mul(s, vload(ey, k)));
      vsz = f64x2.add(vsz, f64x2.mul(s, vload(ez, k)));
      vdiss = f64x2.add(vdiss, f64x2.mul(f64x2.sub(vpi, pj), dwv));
    }
    let sx = hsum(vsx);
    let sy = hsum(vsy);
    let sz = hsum(vsz);
    let diss = hsum(vdiss);
    if (k < e) {
      const j = ix(nj, k);
      const rj = f(rho, j) + f(drho, j) * halfDt;
      const pj = c2 * (rj - rho0);
      const dwv = pf(dw, k) * (f(mass, j) / rj);
      const s = (qi + pj) * dwv;
      sx += s * pf(ex, k);
      sy += s * pf(ey, k);
      sz += s * pf(ez, k);
      diss += (pi - pj) * dwv;
    }
    const gx = f(apx, i);
    const gy = f(apy, i);
    const gz = f(apz, i);
    const vgx = f64x2.splat(gx);
    const vgy = f64x2.splat(gy);
    const vgz = f64x2.splat(gz);
    const vrhoI = f64x2.splat(rhoI);
    let wsx = zero;
    let wsy = zero;
    let wsz = zero;
    let wdiss = zero;
    k = ix(cs, i);
    const ke = ix(ce, i);
    for (; k + 1 < ke; k += 2) {
      const j0 = ix(cj, k);
      const j1 = ix(cj, k + 1);
      const exk = vload(cex, k);
      const eyk = vload(cey, k);
      const ezk = vload(cez, k);
      const face = f64x2.neg(
        f64x2.add(
          f64x2.add(
            f64x2.mul(f64x2.sub(vgx, gather(wax, j0, j1)), exk),
            f64x2.mul(f64x2.sub(vgy, gather(way, j0, j1)), eyk),
          ),
          f64x2.mul(f64x2.sub(vgz, gather(waz, j0, j1)), ezk),
        ),
      );
      const pw = f64x2.add(vpi, f64x2.mul(f64x2.mul(vrhoI, vload(cr, k)), f64x2.max(face, zero)));
      const dwv = f64x2.mul(vload(cdw, k), gather(wallVol, j0, j1));
      const s = f64x2.mul(f64x2.add(vqi, pw), dwv);
      wsx = f64x2.add(wsx, f64x2.mul(s, exk));
      wsy = f64x2.add(wsy, f64x2.mul(s, eyk));
      wsz = f64x2.add(wsz, f64x2.mul(s, ezk));
      wdiss = f64x2.add(wdiss, f64x2.mul(f64x2.sub(vpi, pw), dwv));
    }
    sx += hsum(wsx);
    sy += hsum(wsy);
    sz += hsum(wsz);
    diss += hsum(wdiss);
    if (k < ke) {
      const exk = pf(cex, k);
      const eyk = pf(cey, k);
      const ezk = pf(cez, k);
      const jw = ix(cj, k);
      const face = -((gx - f(wax, jw)) * exk + (gy - f(way, jw)) * eyk + (gz - f(waz, jw)) * ezk);
      const pw = pi + rhoI * pf(cr, k) * (face > 0 ? face : 0);
      const dwv = pf(cdw, k) * f(wallVol, jw);
      const s = (qi + pw) * dwv;
      sx += s * exk;
      sy += s * eyk;
      sz += s * ezk;
      diss += (pi - pw) * dwv;
    }
    const invRho = 1 / rhoI;
    st(rhoHalf, i, rhoI);
    st(drhoHalf, i, diss * invRhoC * rhoI);
    const u = f(vx, i) + (gx - sx * invRho) * dt;
    const v = f(vy, i) + (gy - sy * invRho) * dt;
    const w = f(vz, i) + (gz - sz * invRho) * dt;
    st(vx, i, u);
    st(vy, i, v);
    st(vz, i, w);
    st(x, i, x0 + u * halfDt);
    st(y, i, y0 + v * halfDt);
    st(z, i, z0 + w * halfDt);
  }
}
