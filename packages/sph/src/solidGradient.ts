import { invert3, setIdentity } from './mat3';
import type { NeighbourList } from './neighbours';
import { sharedFloat64, type Dimension } from './particles';

/**
 * Consistency order of the solid's reference gradient operator: 1 = exact for linear fields (SPHinXsys's
 * kernel-gradient correction B), 2 = exact for quadratic fields (a weighted least-squares Taylor fit).
 */
export type GradientOrder = 1 | 2;

/**
 * Pair weights of a gradient operator in the reference configuration, one vector per pair k of row i
 * (neighbour j): ∇u(x_i) ≈ Σ_j (u_j − u_i) ⊗ g_ij. Also the transposed weights h_ij = (V_j / V_i) g_ji, which
 * the force of the discrete strain energy needs (see `ElasticSolid`), and the row sums G_i = Σ_j g_ij.
 */
export interface PairGradients {
  gx: Float64Array;
  gy: Float64Array;
  gz: Float64Array;
  hx: Float64Array;
  hy: Float64Array;
  hz: Float64Array;
  /** Row sums G_i, 3 per particle. */
  rowSum: Float64Array;
  /** Kernel-gradient correction matrices B_i (first order), 9 per particle. */
  B: Float64Array;
  /** Particles that use the first-order weights in a second-order operator (too few neighbours for the fit). */
  fallbacks: number;
  /**
   * max_i Σ_j |g_ij| / Σ_j |g¹_ij| with g¹ the first-order weights: how much stiffer the stiffest stencil is than
   * SPHinXsys's. One-sided quadratic fits at surfaces have about twice the weights, so the acoustic time step must
   * shrink by this factor (1 for order 1).
   */
  stencilFactor: number;
}

/**
 * Builds the gradient weights of `list` (reference neighbours of `count` particles with volumes `vol`).
 * First order: g_ij = V_j dW_ij B_i e_ij with B_i = (−Σ_j V_j r_ij dW_ij e_ij ⊗ e_ij)⁻¹ (SPHinXsys).
 * Second order: with Δ = (x_j − x_i)/h, the basis q(Δ) = [Δ, quadratic monomials of Δ] and the weight
 * ω_ij = −V_j dW_ij / r_ij (which gives back the first-order weights for the linear basis alone),
 * g_ij = rows 0…dim−1 of (Σ_j ω q qᵀ)⁻¹ · ω_ij q(Δ_ij) / h. The fit reproduces the gradient of any quadratic field,
 * so surface particles, whose neighbourhood is one-sided, see the exact strain of a bent plate.
 */
export function pairGradients(
  list: NeighbourList,
  count: number,
  vol: Float64Array,
  dim: Dimension,
  h: number,
  order: GradientOrder,
): PairGradients {
  const cap = list.capacity;
  // Shared: the solid's passes read them from worker threads.
  const out: PairGradients = {
    gx: sharedFloat64(cap),
    gy: sharedFloat64(cap),
    gz: sharedFloat64(cap),
    hx: sharedFloat64(cap),
    hy: sharedFloat64(cap),
    hz: sharedFloat64(cap),
    rowSum: sharedFloat64(3 * count),
    B: sharedFloat64(9 * count),
    fallbacks: 0,
    stencilFactor: 1,
  };
  correctionMatrices(list, count, vol, dim, out.B);
  const { start, end, j: nj } = list;
  const { gx, gy, gz, rowSum } = out;
  const fit = order === 2 ? new QuadraticFit(dim) : undefined;
  for (let i = 0; i < count; i++) {
    firstOrderWeights(list, i, vol, out);
    if (fit === undefined) continue;
    let first = 0;
    for (let k = start[i]!; k < end[i]!; k++) first += Math.hypot(gx[k]!, gy[k]!, gz[k]!);
    // A quadratic fit needs neighbours on enough sides: corners (7 of a full 2D stencil's 20) keep first order.
    if (end[i]! - start[i]! < 2 * fit.size || !fit.weights(list, i, vol, h, out)) {
      out.fallbacks++;
      continue;
    }
    let second = 0;
    for (let k = start[i]!; k < end[i]!; k++) second += Math.hypot(gx[k]!, gy[k]!, gz[k]!);
    out.stencilFactor = Math.max(out.stencilFactor, second / first);
  }
  for (let i = 0; i < count; i++) {
    for (let k = start[i]!; k < end[i]!; k++) {
      rowSum[3 * i] = rowSum[3 * i]! + gx[k]!;
      rowSum[3 * i + 1] = rowSum[3 * i + 1]! + gy[k]!;
      rowSum[3 * i + 2] = rowSum[3 * i + 2]! + gz[k]!;
    }
  }
  const reverse = reversePairs(list, count);
  for (let i = 0; i < count; i++) {
    for (let k = start[i]!; k < end[i]!; k++) {
      const r = reverse[k]!;
      const s = vol[nj[k]!]! / vol[i]!;
      out.hx[k] = s * gx[r]!;
      out.hy[k] = s * gy[r]!;
      out.hz[k] = s * gz[r]!;
    }
  }
  return out;
}

/** B_i = (−Σ_j V_j r_ij dW_ij e_ij ⊗ e_ij)⁻¹ into `B` (identity if singular). */
function correctionMatrices(list: NeighbourList, count: number, vol: Float64Array, dim: Dimension, B: Float64Array) {
  const { start, end, j: nj, dw, r, ex, ey, ez } = list;
  const m = new Float64Array(9);
  const e = [0, 0, 0];
  for (let i = 0; i < count; i++) {
    m.fill(0);
    for (let k = start[i]!; k < end[i]!; k++) {
      const c = -r[k]! * dw[k]! * vol[nj[k]!]!;
      e[0] = ex[k]!;
      e[1] = ey[k]!;
      e[2] = ez[k]!;
      for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) m[3 * a + b] = m[3 * a + b]! + c * e[a]! * e[b]!;
    }
    if (dim === 2) m[8] = 1;
    if (invert3(m, 0, B, 9 * i) === 0) setIdentity(B, 9 * i);
  }
}

/** g_ij = V_j dW_ij B_i e_ij for the pairs of row i. */
function firstOrderWeights(list: NeighbourList, i: number, vol: Float64Array, out: PairGradients): void {
  const { start, end, j: nj, dw, ex, ey, ez } = list;
  const B = out.B;
  const o = 9 * i;
  for (let k = start[i]!; k < end[i]!; k++) {
    const f = dw[k]! * vol[nj[k]!]!;
    const e0 = f * ex[k]!;
    const e1 = f * ey[k]!;
    const e2 = f * ez[k]!;
    out.gx[k] = B[o]! * e0 + B[o + 1]! * e1 + B[o + 2]! * e2;
    out.gy[k] = B[o + 3]! * e0 + B[o + 4]! * e1 + B[o + 5]! * e2;
    out.gz[k] = B[o + 6]! * e0 + B[o + 7]! * e1 + B[o + 8]! * e2;
  }
}

/** The weighted least-squares fit of a quadratic polynomial over one particle's reference neighbours. */
class QuadraticFit {
  private readonly dim: Dimension;
  /** Basis size: 5 in 2D, 9 in 3D. */
  readonly size: number;
  private readonly n: number;
  private readonly m: Float64Array;
  private readonly q: Float64Array;
  /** Rows 0…dim−1 of the inverse moment matrix. */
  private readonly rows: Float64Array;
  private readonly lu: Float64Array;
  private readonly piv: Int32Array;

  constructor(dim: Dimension) {
    this.dim = dim;
    this.n = dim === 2 ? 5 : 9;
    this.size = this.n;
    this.m = new Float64Array(this.n * this.n);
    this.q = new Float64Array(this.n);
    this.rows = new Float64Array(dim * this.n);
    this.lu = new Float64Array(this.n * this.n);
    this.piv = new Int32Array(this.n);
  }

  /** The basis at Δ = (dx, dy, dz) (in units of h) into `q`. */
  private basis(dx: number, dy: number, dz: number): void {
    const q = this.q;
    if (this.dim === 2) {
      q[0] = dx;
      q[1] = dy;
      q[2] = 0.5 * dx * dx;
      q[3] = dx * dy;
      q[4] = 0.5 * dy * dy;
    } else {
      q[0] = dx;
      q[1] = dy;
      q[2] = dz;
      q[3] = 0.5 * dx * dx;
      q[4] = 0.5 * dy * dy;
      q[5] = 0.5 * dz * dz;
      q[6] = dx * dy;
      q[7] = dx * dz;
      q[8] = dy * dz;
    }
  }

  /** Writes the second-order weights of row i; false (nothing written) if the moment matrix is singular. */
  weights(list: NeighbourList, i: number, vol: Float64Array, h: number, out: PairGradients): boolean {
    const { start, end, j: nj, dw, r, ex, ey, ez } = list;
    const { n, m, q } = this;
    m.fill(0);
    for (let k = start[i]!; k < end[i]!; k++) {
      const rh = r[k]! / h;
      // Δ = (x_j − x_i)/h = −r e/h.
      this.basis(-rh * ex[k]!, -rh * ey[k]!, -rh * ez[k]!);
      const w = (-dw[k]! * vol[nj[k]!]!) / r[k]!;
      for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) m[a * n + b] = m[a * n + b]! + w * q[a]! * q[b]!;
    }
    if (!this.invertRows()) return false;
    const rows = this.rows;
    const g = [out.gx, out.gy, out.gz];
    for (let k = start[i]!; k < end[i]!; k++) {
      const rh = r[k]! / h;
      this.basis(-rh * ex[k]!, -rh * ey[k]!, -rh * ez[k]!);
      const w = (-dw[k]! * vol[nj[k]!]!) / (r[k]! * h);
      for (let a = 0; a < 3; a++) {
        let s = 0;
        if (a < this.dim) for (let b = 0; b < n; b++) s += rows[a * n + b]! * q[b]!;
        g[a]![k] = w * s;
      }
    }
    return true;
  }

  /**
   * Rows 0…dim−1 of m⁻¹ (m is symmetric, so they are the solutions of m y = e_a) by LU with partial pivoting.
   * False when a pivot is below 1e-10 of the largest diagonal entry: too few neighbours for a quadratic fit.
   */
  private invertRows(): boolean {
    const { n, m, lu, piv, rows } = this;
    lu.set(m);
    let scale = 0;
    for (let a = 0; a < n; a++) scale = Math.max(scale, Math.abs(m[a * n + a]!));
    for (let c = 0; c < n; c++) {
      let p = c;
      for (let r = c + 1; r < n; r++) if (Math.abs(lu[r * n + c]!) > Math.abs(lu[p * n + c]!)) p = r;
      if (!(Math.abs(lu[p * n + c]!) > 1e-10 * scale)) return false;
      piv[c] = p;
      if (p !== c) {
        for (let b = 0; b < n; b++) {
          const t = lu[c * n + b]!;
          lu[c * n + b] = lu[p * n + b]!;
          lu[p * n + b] = t;
        }
      }
      const d = lu[c * n + c]!;
      for (let r = c + 1; r < n; r++) {
        const f = lu[r * n + c]! / d;
        lu[r * n + c] = f;
        for (let b = c + 1; b < n; b++) lu[r * n + b] = lu[r * n + b]! - f * lu[c * n + b]!;
      }
    }
    const y = this.q;
    for (let a = 0; a < this.dim; a++) {
      y.fill(0);
      y[a] = 1;
      for (let c = 0; c < n; c++) {
        const p = piv[c]!;
        const t = y[c]!;
        y[c] = y[p]!;
        y[p] = t;
      }
      for (let r = 1; r < n; r++) for (let b = 0; b < r; b++) y[r] = y[r]! - lu[r * n + b]! * y[b]!;
      for (let r = n - 1; r >= 0; r--) {
        let s = y[r]!;
        for (let b = r + 1; b < n; b++) s -= lu[r * n + b]! * y[b]!;
        y[r] = s / lu[r * n + r]!;
      }
      rows.set(y, a * n);
    }
    return true;
  }
}

/**
 * For every pair k (row i, neighbour j) the index of the pair (row j, neighbour i). Each row's pairs are sorted
 * by neighbour index; visiting i in ascending order then meets row j's entry for i exactly at row j's cursor.
 * Throws if the lists are not symmetric.
 */
function reversePairs(list: NeighbourList, count: number): Int32Array {
  const { start, end, j: nj } = list;
  const sorted = new Int32Array(list.capacity);
  for (let i = 0; i < count; i++) {
    const s = start[i]!;
    const row = Array.from({ length: end[i]! - s }, (_, k) => s + k).sort((a, b) => nj[a]! - nj[b]!);
    sorted.set(row, s);
  }
  const cursor = Int32Array.from(start.subarray(0, count));
  const reverse = new Int32Array(list.capacity);
  for (let i = 0; i < count; i++) {
    for (let k = start[i]!; k < end[i]!; k++) {
      const j = nj[k]!;
      const r = sorted[cursor[j]!]!;
      if (cursor[j]! >= end[j]! || nj[r] !== i) throw new Error('pairGradients: neighbour lists are not symmetric');
      cursor[j] = cursor[j]! + 1;
      reverse[k] = r;
    }
  }
  return reverse;
}
