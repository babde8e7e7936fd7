/**
 * Non-rigid coherent point drift (CPD; Myronenko & Song, "Point set registration: coherent point drift", IEEE TPAMI
 * 32(12), 2010, section 5 and Fig. 4): the moving points Y (M × 3) are the centroids of a Gaussian mixture that is
 * fitted to the fixed points X (N × 3) by EM, moved by a displacement field v(y) = G W that the Gaussian kernel
 * G_ij = exp(−|y_i − y_j|² / 2β²) keeps smooth (motion coherence), with a uniform component of weight w for noise and
 * outliers. Written from the paper; no maintained JavaScript implementation exists (docs/decisions/cpd-correspondence.md).
 *
 * Like the authors' reference code, both sets are first normalised to zero mean and unit root-mean-square radius (so
 * β and λ are in units of the shape's size and a size difference needs no deformation), and the result is returned
 * in the fixed set's frame. The M-step's linear system (G + λσ² d(P1)⁻¹) W = d(P1)⁻¹ P X − Y is solved on a rank-K
 * approximation G ≈ Q B Qᵀ through the Woodbury identity (the paper's section 6 "fast" variant uses G's K leading
 * eigenvectors; a randomised range finder gives the same span without an M × M eigendecomposition), so an iteration
 * costs O(M N + M K²) and the set-up O(M² K), and G is never stored.
 */
import { farthestPointSample, farthestPointSampling } from './farthestPointSample';

/** Parameters of {@link coherentPointDrift}; defaults are the paper's / reference code's. */
export interface CpdOptions {
  /** Width of the smoothing kernel, in units of the normalised shape's size (default 2). */
  beta?: number;
  /** Weight of the smoothness (motion coherence) term (default 3). */
  lambda?: number;
  /** Weight of the uniform outlier component, 0 ≤ w < 1 (default 0.1). */
  w?: number;
  /** At most this many EM iterations (default 150). */
  maxIterations?: number;
  /** Stops when the negative log-likelihood changes by less than this share of itself (default 1e-6). */
  tolerance?: number;
  /** Rank K of the kernel's approximation G ≈ Q B Qᵀ (default 150; M, the number of moving points, at most). */
  rank?: number;
  /** First fit the best affine map by affine CPD (the paper's Fig. 3), then deform from there (default false). */
  affine?: boolean;
  /**
   * Further points of the moving set's frame moved by the fitted transform (the affine map, then the displacement
   * field v(y) = Σ_j G(y, y_j) w_j evaluated at them) without taking part in the fit: register a well-spread subset
   * and carry the rest of a dense mesh along (default none).
   */
  carry?: ArrayLike<number>;
  /**
   * Neglect a moving point's posterior for a fixed point farther than `cutoff` σ from it (its Gaussian term is below
   * e^{−cutoff²/2} of a coincident point's): the E-step then visits neighbours on a grid instead of all M × N pairs.
   * Default none (every pair, exact).
   */
  cutoff?: number;
  /**
   * Coarse-to-fine data: while σ is larger than the spacing of a well-spread subset of this many fixed points
   * (farthest-point sampling; its covering radius), the E-steps use only that subset, then all points (default none:
   * all points throughout). While σ is that large the mixture cannot resolve finer data, and the E-step's all-pairs
   * work is most of a registration's cost (docs/decisions/cpd-correspondence.md).
   */
  coarse?: number;
  /**
   * With `affine`: start the non-rigid stage at the σ² the affine stage ended with instead of the all-pairs variance
   * (default false, the paper's restart). The affine fit already explains the large-scale difference; re-annealing
   * from the whole shape's size only spends iterations on the all-pairs E-step.
   */
  continueVariance?: boolean;
  /**
   * Also stop each stage (on all fixed points) once no moving point moved farther than this in an iteration (units of the
   * normalised shape's size; default 0: the objective's tolerance alone decides).
   */
  motionTolerance?: number;
}

/** The registered moving points and how the fit went. */
export interface CpdResult {
  /** The moving points after registration, packed xyz, in the fixed set's frame and units. */
  positions: Float64Array;
  /** EM iterations run (the non-rigid stage's). */
  iterations: number;
  /** EM iterations of the affine stage (0 without `affine`). */
  affineIterations: number;
  /** Final variance of the mixture's components, in the fixed set's units squared. */
  sigma2: number;
  /** Whether the tolerance was met before the iteration limit. */
  converged: boolean;
  /** The `carry` points after the fitted transform, in the fixed set's frame (empty without `carry`). */
  carried: Float64Array;
}

/** Largest moving set accepted: the set-up's kernel products cost M² K (seconds at 3,000 points). Decimate first. */
export const CPD_MAX_MOVING_POINTS = 3000;

/** Refusals of {@link coherentPointDrift}: input that cannot be registered. */
export class CpdInputError extends Error {
  override readonly name = 'CpdInputError';
}

interface Normalised {
  points: Float64Array;
  mean: [number, number, number];
  scale: number;
}

/** Zero mean, unit root-mean-square distance from the mean (the reference code's `cpd_normalize`). */
function normalise(points: ArrayLike<number>): Normalised {
  const n = points.length / 3;
  const mean: [number, number, number] = [0, 0, 0];
  for (let i = 0; i < n; i++) for (let a = 0; a < 3; a++) mean[a]! += (points[i * 3 + a] as number) / n;
  let sum = 0;
  const out = new Float64Array(n * 3);
  for (let i = 0; i < n; i++)
    for (let a = 0; a < 3; a++) {
      const d = (points[i * 3 + a] as number) - mean[a]!;
      out[i * 3 + a] = d;
      sum += d * d;
    }
  const scale = Math.sqrt(sum / n);
  if (!(scale > 1e-12 * Math.max(1, Math.hypot(...mean)))) throw new CpdInputError('The points all lie at one place.');
  for (let i = 0; i < out.length; i++) out[i] = out[i]! / scale;
  return { points: out, mean, scale };
}

function checkPoints(points: ArrayLike<number>, what: string): void {
  if (points.length % 3 !== 0 || points.length < 12)
    throw new CpdInputError(`The ${what} points need at least four xyz triples.`);
  for (let i = 0; i < points.length; i++)
    if (!Number.isFinite(points[i])) throw new CpdInputError(`A ${what} point is not a finite number.`);
}

/**
 * Registers `moving` onto `fixed` (both packed xyz) and returns where each moving point lands. Deterministic:
 * no random numbers, so the same input gives the same output.
 * @throws CpdInputError for fewer than four points, non-finite coordinates, a degenerate set, or more than
 *   {@link CPD_MAX_MOVING_POINTS} moving points.
 */
export function coherentPointDrift(
  moving: ArrayLike<number>,
  fixed: ArrayLike<number>,
  options: CpdOptions = {},
): CpdResult {
  checkPoints(moving, 'moving');
  checkPoints(fixed, 'fixed');
  const M = moving.length / 3;
  const N = fixed.length / 3;
  if (M > CPD_MAX_MOVING_POINTS)
    throw new CpdInputError(
      `${M} moving points are more than the ${CPD_MAX_MOVING_POINTS} registration takes; decimate the mesh first.`,
    );
  const beta = options.beta ?? 2;
  const lambda = options.lambda ?? 3;
  const w = options.w ?? 0.1;
  const maxIterations = options.maxIterations ?? 150;
  const tolerance = options.tolerance ?? 1e-6;
  const cutoff = options.cutoff ?? Number.POSITIVE_INFINITY;
  const motionTolerance = options.motionTolerance ?? 0;
  const coarse = options.coarse ?? Number.POSITIVE_INFINITY;
  if (!(beta > 0) || !(lambda > 0) || !(w >= 0 && w < 1) || !(cutoff > 0))
    throw new CpdInputError('CPD needs beta > 0, lambda > 0, 0 ≤ w < 1 and cutoff > 0.');
  if (!(coarse >= 4) || !(motionTolerance >= 0))
    throw new CpdInputError('CPD needs at least four coarse points and a motion tolerance ≥ 0.');
  const carry = options.carry ?? [];
  if (carry.length > 0) checkPoints(carry, 'carried');

  const x = normalise(fixed);
  const X = x.points;
  const y = normalise(moving);
  // Carried points in the moving set's normalised frame.
  const C = new Float64Array(carry.length);
  for (let i = 0; i < C.length; i++) C[i] = ((carry[i] as number) - y.mean[i % 3]!) / y.scale;
  const subset = coarse < N ? coarseSubset(X, coarse) : undefined;
  const data = (): CoarseToFine => new CoarseToFine(X, M, cutoff, subset);
  // With `affine`, the moving points first take the best affine map (their own EM run), then deform from there.
  const affine = options.affine
    ? affineStage(data(), y.points, w, maxIterations, tolerance, motionTolerance, C)
    : { T: y.points, sigma2: 0, iterations: 0 };
  const Y = affine.T;

  // Low-rank Gaussian kernel of the moving points: G ≈ Q B Qᵀ (Q orthonormal, M × K).
  const rank = Math.min(M, Math.max(1, Math.floor(options.rank ?? 150)));
  const { Q, B } = lowRankKernel(Y, M, beta, rank);
  const K = rank;
  const T = Float64Array.from(Y);
  const W = new Float64Array(M * 3);
  const stages = data();
  let sigma2 = options.continueVariance && options.affine ? affine.sigma2 : initialVariance(X, Y);
  let previous = Number.POSITIVE_INFINITY;
  let iterations = 0;
  let converged = false;

  while (iterations < maxIterations) {
    iterations++;
    const e = stages.at(sigma2);
    if (stages.changed) previous = Number.POSITIVE_INFINITY; // another data set: another objective
    const { logSum, Np } = e.step(T, sigma2, w);
    const { P1, Pt1, PX, X: D } = e;
    const N = D.length / 3;

    // Negative log-likelihood with the coherence term (the paper's objective, constants dropped).
    let regulariser = 0;
    const GW = kernelTimes(Q, B, W, M, K);
    for (let i = 0; i < W.length; i++) regulariser += W[i]! * GW[i]!;
    const objective = -logSum + (Np * 3 * Math.log(sigma2)) / 2 + (lambda / 2) * regulariser;
    if (stages.converged(objective, previous, tolerance) && !stages.refine()) {
      converged = true;
      break;
    }
    previous = objective;

    // M-step: W = (G + λσ² d(P1)⁻¹)⁻¹ (d(P1)⁻¹ P X − Y) by Woodbury on G ≈ Q B Qᵀ, with A⁻¹ = d(P1) / λσ²:
    // W = A⁻¹F − A⁻¹ Q (I + B S)⁻¹ B Qᵀ A⁻¹F, S = Qᵀ A⁻¹ Q. Then T = Y + G W.
    const ls2 = lambda * sigma2;
    const a = new Float64Array(M);
    const f = new Float64Array(M * 3);
    for (let m = 0; m < M; m++) {
      a[m] = P1[m]! / ls2;
      for (let c = 0; c < 3; c++) f[m * 3 + c] = (PX[m * 3 + c]! - P1[m]! * Y[m * 3 + c]!) / ls2;
    }
    const S = new Float64Array(K * K);
    for (let m = 0; m < M; m++) {
      const am = a[m]!;
      if (am === 0) continue;
      const row = m * K;
      for (let i = 0; i < K; i++) {
        const qi = Q[row + i]! * am;
        if (qi === 0) continue;
        for (let j = i; j < K; j++) S[i * K + j] = S[i * K + j]! + qi * Q[row + j]!;
      }
    }
    for (let i = 0; i < K; i++) for (let j = 0; j < i; j++) S[i * K + j] = S[j * K + i]!;
    const R = transposeTimes(Q, f, M, K);
    const system = new Float64Array(K * K);
    for (let i = 0; i < K; i++)
      for (let j = 0; j < K; j++) {
        let sum = i === j ? 1 : 0;
        for (let l = 0; l < K; l++) sum += B[i * K + l]! * S[l * K + j]!;
        system[i * K + j] = sum;
      }
    const Z = solveLinear(system, times(B, R, K, K), K);
    const QZ = times(Q, Z, M, K);
    for (let m = 0; m < M; m++) for (let c = 0; c < 3; c++) W[m * 3 + c] = f[m * 3 + c]! - a[m]! * QZ[m * 3 + c]!;
    const move = kernelTimes(Q, B, W, M, K);
    const before = Float64Array.from(T);
    for (let i = 0; i < T.length; i++) T[i] = Y[i]! + move[i]!;
    const largestMove2 = largestSquaredMove(before, T);

    let xPx = 0;
    for (let n = 0; n < N; n++) {
      const i = n * 3;
      xPx += Pt1[n]! * (D[i]! * D[i]! + D[i + 1]! * D[i + 1]! + D[i + 2]! * D[i + 2]!);
    }
    let cross = 0;
    let tPt = 0;
    for (let m = 0; m < M; m++) {
      const i = m * 3;
      cross += PX[i]! * T[i]! + PX[i + 1]! * T[i + 1]! + PX[i + 2]! * T[i + 2]!;
      tPt += P1[m]! * (T[i]! * T[i]! + T[i + 1]! * T[i + 1]! + T[i + 2]! * T[i + 2]!);
    }
    sigma2 = (xPx - 2 * cross + tPt) / (Np * 3);
    if (!(sigma2 > 1e-12)) sigma2 = 1e-12;
    if (stages.onAllPoints && largestMove2 < motionTolerance * motionTolerance) {
      converged = true;
      break;
    }
  }

  // Carried points: the Nyström extension of the low-rank field. G Q ≈ Q B extends Q to a point c as
  // G(c, Y) Q B⁻¹, so v(c) = G(c, Y) Q B⁻¹ B Qᵀ W = G(c, Y) (Q Qᵀ W): W's part outside Q's span, which the
  // low-rank kernel does not see, must not move carried points either.
  const projected = times(Q, transposeTimes(Q, W, M, K), M, K);
  const twoBeta2 = 2 * beta * beta;
  for (let i = 0; i < C.length; i += 3) {
    let dx = 0;
    let dy = 0;
    let dz = 0;
    for (let j = 0; j < M; j++) {
      const g = Math.exp(
        -((C[i]! - Y[j * 3]!) ** 2 + (C[i + 1]! - Y[j * 3 + 1]!) ** 2 + (C[i + 2]! - Y[j * 3 + 2]!) ** 2) / twoBeta2,
      );
      dx += g * projected[j * 3]!;
      dy += g * projected[j * 3 + 1]!;
      dz += g * projected[j * 3 + 2]!;
    }
    C[i] = C[i]! + dx;
    C[i + 1] = C[i + 1]! + dy;
    C[i + 2] = C[i + 2]! + dz;
  }
  // Back to the fixed set's frame.
  const toFixed = (points: Float64Array): Float64Array => points.map((v, i) => v * x.scale + x.mean[i % 3]!);
  return {
    positions: toFixed(T),
    iterations,
    affineIterations: affine.iterations,
    sigma2: sigma2 * x.scale * x.scale,
    converged,
    carried: toFixed(C),
  };
}

/**
 * G ≈ Q B Qᵀ for the Gaussian kernel of the points Y (M × 3), Q with K orthonormal columns spanning G's leading
 * eigenvectors: columns of G at K farthest-point-sampled points (Nyström's choice, deterministic) refined by two
 * power iterations (Halko, Martinsson & Tropp 2011, algorithm 4.3), then B = Qᵀ G Q. With K = M it is exact. G is
 * never stored: its entries are recomputed (M² per product).
 */
function lowRankKernel(Y: Float64Array, M: number, beta: number, K: number): { Q: Float64Array; B: Float64Array } {
  const twoBeta2 = 2 * beta * beta;
  /** G · V for V of M rows × cols columns (row-major). */
  const kernel = (V: Float64Array, cols: number): Float64Array => {
    const out = new Float64Array(M * cols);
    const g = new Float64Array(M);
    for (let i = 0; i < M; i++) {
      const xi = Y[i * 3]!;
      const yi = Y[i * 3 + 1]!;
      const zi = Y[i * 3 + 2]!;
      for (let j = 0; j < M; j++) {
        const dx = xi - Y[j * 3]!;
        const dy = yi - Y[j * 3 + 1]!;
        const dz = zi - Y[j * 3 + 2]!;
        g[j] = Math.exp(-(dx * dx + dy * dy + dz * dz) / twoBeta2);
      }
      const row = i * cols;
      for (let j = 0; j < M; j++) {
        const gij = g[j]!;
        if (gij < 1e-16) continue;
        const vrow = j * cols;
        for (let c = 0; c < cols; c++) out[row + c] = out[row + c]! + gij * V[vrow + c]!;
      }
    }
    return out;
  };
  // K well-spread points (farthest-point sampling); their indicator columns.
  const picked = farthestPointSample(Y, K);
  let Q: Float64Array = new Float64Array(M * K);
  picked.forEach((j, k) => (Q[j * K + k] = 1));
  for (let pass = 0; pass < 3; pass++) {
    Q = kernel(Q, K);
    orthonormalise(Q, M, K);
  }
  const B = transposeTimes(Q, kernel(Q, K), M, K);
  // Symmetrise rounding.
  for (let i = 0; i < K; i++)
    for (let j = 0; j < i; j++) {
      const v = (B[i * K + j]! + B[j * K + i]!) / 2;
      B[i * K + j] = v;
      B[j * K + i] = v;
    }
  return { Q, B };
}

/** Modified Gram–Schmidt, twice, on the K columns of the M × K row-major matrix (a column that vanishes stays 0). */
function orthonormalise(Q: Float64Array, M: number, K: number): void {
  for (let round = 0; round < 2; round++)
    for (let k = 0; k < K; k++) {
      for (let j = 0; j < k; j++) {
        let dot = 0;
        for (let m = 0; m < M; m++) dot += Q[m * K + j]! * Q[m * K + k]!;
        for (let m = 0; m < M; m++) Q[m * K + k] = Q[m * K + k]! - dot * Q[m * K + j]!;
      }
      let norm = 0;
      for (let m = 0; m < M; m++) norm += Q[m * K + k]! ** 2;
      norm = Math.sqrt(norm);
      const scale = norm > 1e-300 ? 1 / norm : 0;
      for (let m = 0; m < M; m++) Q[m * K + k] = Q[m * K + k]! * scale;
    }
}

/** Aᵀ · V for A of rows × K and V of rows × cols (row-major): K × cols. */
function transposeTimes(A: Float64Array, V: Float64Array, rows: number, K: number): Float64Array {
  const cols = V.length / rows;
  const out = new Float64Array(K * cols);
  for (let m = 0; m < rows; m++)
    for (let i = 0; i < K; i++) {
      const aim = A[m * K + i]!;
      if (aim === 0) continue;
      for (let c = 0; c < cols; c++) out[i * cols + c] = out[i * cols + c]! + aim * V[m * cols + c]!;
    }
  return out;
}

/** A · V for A of rows × K and V of K × cols (row-major): rows × cols. */
function times(A: Float64Array, V: Float64Array, rows: number, K: number): Float64Array {
  const cols = V.length / K;
  const out = new Float64Array(rows * cols);
  for (let m = 0; m < rows; m++)
    for (let i = 0; i < K; i++) {
      const ami = A[m * K + i]!;
      if (ami === 0) continue;
      for (let c = 0; c < cols; c++) out[m * cols + c] = out[m * cols + c]! + ami * V[i * cols + c]!;
    }
  return out;
}

/** (Q B Qᵀ) · V, V of M rows × 3. */
function kernelTimes(Q: Float64Array, B: Float64Array, V: Float64Array, M: number, K: number): Float64Array {
  return times(Q, times(B, transposeTimes(Q, V, M, K), K, K), M, K);
}

/** Solves A X = R (A: K × K, R: K × cols) by Gaussian elimination with partial pivoting; A and R are overwritten. */
function solveLinear(A: Float64Array, R: Float64Array, K: number): Float64Array {
  const cols = R.length / K;
  for (let col = 0; col < K; col++) {
    let pivot = col;
    for (let r = col + 1; r < K; r++) if (Math.abs(A[r * K + col]!) > Math.abs(A[pivot * K + col]!)) pivot = r;
    if (pivot !== col) {
      for (let c = 0; c < K; c++) [A[col * K + c], A[pivot * K + c]] = [A[pivot * K + c]!, A[col * K + c]!];
      for (let c = 0; c < cols; c++)
        [R[col * cols + c], R[pivot * cols + c]] = [R[pivot * cols + c]!, R[col * cols + c]!];
    }
    const d = A[col * K + col]!;
    if (Math.abs(d) < 1e-300) continue;
    for (let r = col + 1; r < K; r++) {
      const factor = A[r * K + col]! / d;
      if (factor === 0) continue;
      for (let c = col; c < K; c++) A[r * K + c] = A[r * K + c]! - factor * A[col * K + c]!;
      for (let c = 0; c < cols; c++) R[r * cols + c] = R[r * cols + c]! - factor * R[col * cols + c]!;
    }
  }
  for (let row = K - 1; row >= 0; row--) {
    const d = A[row * K + row]!;
    for (let c = 0; c < cols; c++) {
      let sum = R[row * cols + c]!;
      for (let k = row + 1; k < K; k++) sum -= A[row * K + k]! * R[k * cols + c]!;
      R[row * cols + c] = Math.abs(d) < 1e-300 ? 0 : sum / d;
    }
  }
  return R;
}

/**
 * σ² to start from: the mean squared distance over all pairs, Σ|x − y|² / (3 M N) with
 * Σ|x − y|² = M Σ|x|² + N Σ|y|² − 2 (Σx)·(Σy).
 */
function initialVariance(X: Float64Array, Y: Float64Array): number {
  const N = X.length / 3;
  const M = Y.length / 3;
  const sx = [0, 0, 0];
  const sy = [0, 0, 0];
  let sumX2 = 0;
  let sumY2 = 0;
  for (let i = 0; i < X.length; i++) {
    sumX2 += X[i]! * X[i]!;
    sx[i % 3]! += X[i]!;
  }
  for (let i = 0; i < Y.length; i++) {
    sumY2 += Y[i]! * Y[i]!;
    sy[i % 3]! += Y[i]!;
  }
  const cross = sx[0]! * sy[0]! + sx[1]! * sy[1]! + sx[2]! * sy[2]!;
  return (M * sumX2 + N * sumY2 - 2 * cross) / (3 * M * N);
}

/**
 * The E-step: posteriors column by column (P is never stored), giving P1 = P·1, Pᵀ1 and P·X. With a finite cutoff
 * and a σ small against the shape, each fixed point visits only the moving points in the grid cells within cutoff·σ.
 */
class Expectation {
  readonly P1: Float64Array;
  readonly Pt1: Float64Array;
  readonly PX: Float64Array;
  private readonly k: Float64Array;
  private readonly near: Uint32Array;
  private readonly grid: MovingGrid;

  constructor(
    readonly X: Float64Array,
    private readonly M: number,
    private readonly cutoff = Number.POSITIVE_INFINITY,
  ) {
    this.P1 = new Float64Array(M);
    this.Pt1 = new Float64Array(X.length / 3);
    this.PX = new Float64Array(M * 3);
    this.k = new Float64Array(M);
    this.near = Uint32Array.from({ length: M }, (_, m) => m);
    this.grid = new MovingGrid(M);
  }

  /** Fills P1, Pᵀ1, PX for the current positions T; returns Σ log of the mixture's densities' sums and Np = Σ P1. */
  step(T: Float64Array, sigma2: number, w: number): { logSum: number; Np: number } {
    const { X, M, P1, Pt1, PX, k, near, grid } = this;
    const N = X.length / 3;
    P1.fill(0);
    PX.fill(0);
    const outlier = ((Math.pow(2 * Math.PI * sigma2, 1.5) * w) / (1 - w)) * (M / N);
    const twoSigma2 = 2 * sigma2;
    const radius = this.cutoff * Math.sqrt(sigma2);
    const gridded = grid.build(T, radius);
    const radius2 = radius * radius;
    let logSum = 0;
    for (let n = 0; n < N; n++) {
      const xn0 = X[n * 3]!;
      const xn1 = X[n * 3 + 1]!;
      const xn2 = X[n * 3 + 2]!;
      const count = gridded ? grid.gather(xn0, xn1, xn2, near) : M;
      let den = outlier;
      for (let i = 0; i < count; i++) {
        const m = near[i]!;
        const d0 = xn0 - T[m * 3]!;
        const d1 = xn1 - T[m * 3 + 1]!;
        const d2 = xn2 - T[m * 3 + 2]!;
        const d = d0 * d0 + d1 * d1 + d2 * d2;
        const e = gridded && d > radius2 ? 0 : Math.exp(-d / twoSigma2);
        k[i] = e;
        den += e;
      }
      if (!(den > 0)) den = Number.MIN_VALUE;
      logSum += Math.log(den);
      let column = 0;
      for (let i = 0; i < count; i++) {
        const p = k[i]! / den;
        if (p === 0) continue;
        const m = near[i]!;
        column += p;
        P1[m] = P1[m]! + p;
        PX[m * 3] = PX[m * 3]! + p * xn0;
        PX[m * 3 + 1] = PX[m * 3 + 1]! + p * xn1;
        PX[m * 3 + 2] = PX[m * 3 + 2]! + p * xn2;
      }
      Pt1[n] = column;
    }
    let Np = 0;
    for (let m = 0; m < M; m++) Np += P1[m]!;
    return { logSum, Np };
  }
}

/**
 * The coarse subset serves while σ exceeds this many covering radii (its points are one to two covering radii
 * apart), or until its run changes the objective by less than this factor times the tolerance.
 */
const COARSE_SPACINGS = 2;
const COARSE_TOLERANCE_FACTOR = 100;

/** A well-spread subset of the fixed points and its spacing (the covering radius of farthest-point sampling). */
function coarseSubset(X: Float64Array, count: number): { points: Float64Array; spacing: number } {
  const { indices, coverRadius } = farthestPointSampling(X, count);
  const points = new Float64Array(indices.length * 3);
  indices.forEach((v, k) => points.set(X.subarray(v * 3, v * 3 + 3), k * 3));
  return { points, spacing: coverRadius };
}

/**
 * The data one EM run's E-steps use: the coarse subset while σ exceeds its spacing (or until the run converges on
 * it), then all fixed points, for good.
 */
class CoarseToFine {
  /** Whether the last {@link at} gave other data than the one before (so another objective). */
  changed = false;
  private coarse: Expectation | undefined;
  private fine: Expectation | undefined;
  private last: Expectation | undefined;

  constructor(
    /** All fixed points. */
    readonly all: Float64Array,
    private readonly M: number,
    private readonly cutoff: number,
    private readonly subset: { points: Float64Array; spacing: number } | undefined,
  ) {
    if (subset) this.coarse = new Expectation(subset.points, M, cutoff);
  }

  /** The E-step for the current σ². */
  at(sigma2: number): Expectation {
    if (this.coarse && !(sigma2 > (COARSE_SPACINGS * this.subset!.spacing) ** 2)) this.coarse = undefined;
    const next = this.coarse ?? (this.fine ??= new Expectation(this.all, this.M, this.cutoff));
    this.changed = this.last !== undefined && next !== this.last;
    this.last = next;
    return next;
  }

  /** Whether the E-steps use all fixed points now. */
  get onAllPoints(): boolean {
    return this.coarse === undefined;
  }

  /** Whether a run has converged: on the subset a looser tolerance does (it only has to bring σ down). */
  converged(objective: number, previous: number, tolerance: number): boolean {
    const factor = this.coarse ? COARSE_TOLERANCE_FACTOR : 1;
    return Math.abs(objective - previous) <= factor * tolerance * Math.abs(objective);
  }

  /** Moves on to all points if still on the subset: true if it did (the run goes on), false if already there. */
  refine(): boolean {
    if (!this.coarse) return false;
    this.coarse = undefined;
    return true;
  }
}

/**
 * A uniform grid of cell `radius` over the moving points, rebuilt each E-step (they move): a query visits the 27 cells
 * around a point. Not used while the radius is so large that the grid would have fewer than 4 cells a side (the
 * all-pairs loop is then as fast).
 */
class MovingGrid {
  private readonly order: Uint32Array;
  private cellStart = new Uint32Array(1);
  private cellOf: Uint32Array;
  private origin = [0, 0, 0];
  private cell = 1;
  private dims = [1, 1, 1];

  constructor(M: number) {
    this.order = new Uint32Array(M);
    this.cellOf = new Uint32Array(M);
  }

  /** Files the points T into cells of side `radius`; false (no grid) when that would be too coarse to help. */
  build(T: Float64Array, radius: number): boolean {
    if (!Number.isFinite(radius)) return false;
    const M = T.length / 3;
    const min = [Infinity, Infinity, Infinity];
    const max = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < T.length; i++) {
      const a = i % 3;
      if (T[i]! < min[a]!) min[a] = T[i]!;
      if (T[i]! > max[a]!) max[a] = T[i]!;
    }
    const dims = [0, 1, 2].map((a) => Math.min(64, Math.floor((max[a]! - min[a]!) / radius) + 1));
    if (Math.max(...dims) < 4) return false;
    // Cells at least `radius` wide (a coarser cap keeps every neighbour within the 27 cells).
    const cell = Math.max(radius, ...[0, 1, 2].map((a) => (max[a]! - min[a]! + 1e-12) / dims[a]!));
    this.origin = min;
    this.cell = cell;
    this.dims = dims;
    const cells = dims[0]! * dims[1]! * dims[2]!;
    const start = new Uint32Array(cells + 1);
    for (let m = 0; m < M; m++) {
      const c = this.cellIndex(T[m * 3]!, T[m * 3 + 1]!, T[m * 3 + 2]!);
      this.cellOf[m] = c;
      start[c + 1] = start[c + 1]! + 1;
    }
    for (let c = 0; c < cells; c++) start[c + 1] = start[c + 1]! + start[c]!;
    const fill = start.slice(0, cells);
    for (let m = 0; m < M; m++) {
      const c = this.cellOf[m]!;
      this.order[fill[c]!] = m;
      fill[c] = fill[c]! + 1;
    }
    this.cellStart = start;
    return true;
  }

  /** Writes the moving points of the 27 cells around (x, y, z) into `out`; returns how many. */
  gather(x: number, y: number, z: number, out: Uint32Array): number {
    const [nx, ny, nz] = this.dims as [number, number, number];
    const i = this.axisCell(x, 0);
    const j = this.axisCell(y, 1);
    const k = this.axisCell(z, 2);
    let count = 0;
    for (let c = Math.max(0, k - 1); c <= Math.min(nz - 1, k + 1); c++)
      for (let b = Math.max(0, j - 1); b <= Math.min(ny - 1, j + 1); b++) {
        const row = (c * ny + b) * nx;
        const from = this.cellStart[row + Math.max(0, i - 1)]!;
        const to = this.cellStart[row + Math.min(nx - 1, i + 1) + 1]!;
        for (let s = from; s < to; s++) out[count++] = this.order[s]!;
      }
    return count;
  }

  private axisCell(v: number, a: number): number {
    return Math.min(this.dims[a]! - 1, Math.max(0, Math.floor((v - this.origin[a]!) / this.cell)));
  }

  private cellIndex(x: number, y: number, z: number): number {
    return (this.axisCell(z, 2) * this.dims[1]! + this.axisCell(y, 1)) * this.dims[0]! + this.axisCell(x, 0);
  }
}

/**
 * Affine CPD (Myronenko & Song 2010, Fig. 3): T = Y Bᵀ + t with B = (X̂ᵀ Pᵀ Ŷ)(Ŷᵀ d(P1) Ŷ)⁻¹, t = μx − B μy.
 * Returns the moving points after the fitted affine map (normalised frame); the carried points take the same map in
 * place.
 */
function affineStage(
  stages: CoarseToFine,
  Y: Float64Array,
  w: number,
  maxIterations: number,
  tolerance: number,
  motionTolerance: number,
  carried: Float64Array,
): { T: Float64Array; sigma2: number; iterations: number } {
  const M = Y.length / 3;
  const T = Float64Array.from(Y);
  const map: { B: Float64Array; t: number[] } = { B: Float64Array.from([1, 0, 0, 0, 1, 0, 0, 0, 1]), t: [0, 0, 0] };
  let sigma2 = initialVariance(stages.all, Y);
  let previous = Number.POSITIVE_INFINITY;
  let iterations = 0;
  while (iterations < maxIterations) {
    iterations++;
    const e = stages.at(sigma2);
    const X = e.X;
    const N = X.length / 3;
    if (stages.changed) previous = Number.POSITIVE_INFINITY; // another data set: another objective
    const { logSum, Np } = e.step(T, sigma2, w);
    const objective = -logSum + (Np * 3 * Math.log(sigma2)) / 2;
    if (stages.converged(objective, previous, tolerance) && !stages.refine()) break;
    previous = objective;
    const { P1, Pt1, PX } = e;
    const mx = [0, 0, 0];
    const my = [0, 0, 0];
    for (let n = 0; n < N; n++) for (let a = 0; a < 3; a++) mx[a]! += (Pt1[n]! * X[n * 3 + a]!) / Np;
    for (let m = 0; m < M; m++) for (let a = 0; a < 3; a++) my[a]! += (P1[m]! * Y[m * 3 + a]!) / Np;
    // A = Σ_m (PX_m − P1_m μx) ŷ_mᵀ and C = Σ_m P1_m ŷ_m ŷ_mᵀ (3 × 3, row-major).
    const A = new Float64Array(9);
    const C = new Float64Array(9);
    for (let m = 0; m < M; m++) {
      const p = P1[m]!;
      for (let r = 0; r < 3; r++) {
        const u = PX[m * 3 + r]! - p * mx[r]!;
        const yr = Y[m * 3 + r]! - my[r]!;
        for (let c = 0; c < 3; c++) {
          const yc = Y[m * 3 + c]! - my[c]!;
          A[r * 3 + c] = A[r * 3 + c]! + u * yc;
          C[r * 3 + c] = C[r * 3 + c]! + p * yr * yc;
        }
      }
    }
    const Bt = solveLinear(Float64Array.from(C), transpose3(A), 3); // C Bᵀ = Aᵀ (C symmetric)
    const Bm = transpose3(Bt);
    const t = [0, 1, 2].map((r) => mx[r]! - (Bm[r * 3]! * my[0]! + Bm[r * 3 + 1]! * my[1]! + Bm[r * 3 + 2]! * my[2]!));
    const before = Float64Array.from(T);
    applyAffine(Bm, t, Y, T);
    const largestMove2 = largestSquaredMove(before, T);
    map.B = Bm;
    map.t = t;
    // σ² = (tr(X̂ᵀ d(Pᵀ1) X̂) − tr(A Bᵀ)) / (3 Np).
    let xx = 0;
    for (let n = 0; n < N; n++) for (let a = 0; a < 3; a++) xx += Pt1[n]! * (X[n * 3 + a]! - mx[a]!) ** 2;
    let ab = 0;
    for (let i = 0; i < 9; i++) ab += A[i]! * Bm[i]!;
    sigma2 = (xx - ab) / (3 * Np);
    if (!(sigma2 > 1e-12)) sigma2 = 1e-12;
    if (stages.onAllPoints && largestMove2 < motionTolerance * motionTolerance) break;
  }
  applyAffine(map.B, map.t, Float64Array.from(carried), carried);
  return { T, sigma2, iterations };
}

/** The largest squared distance between corresponding points of two packed xyz sets. */
function largestSquaredMove(before: Float64Array, after: Float64Array): number {
  let largest = 0;
  for (let i = 0; i < after.length; i += 3) {
    const d2 =
      (after[i]! - before[i]!) ** 2 + (after[i + 1]! - before[i + 1]!) ** 2 + (after[i + 2]! - before[i + 2]!) ** 2;
    if (d2 > largest) largest = d2;
  }
  return largest;
}

/** out = B p + t for every point p of `points` (B 3 × 3 row-major). */
function applyAffine(B: Float64Array, t: readonly number[], points: Float64Array, out: Float64Array): void {
  for (let m = 0; m < points.length; m += 3)
    for (let r = 0; r < 3; r++)
      out[m + r] = B[r * 3]! * points[m]! + B[r * 3 + 1]! * points[m + 1]! + B[r * 3 + 2]! * points[m + 2]! + t[r]!;
}

function transpose3(a: Float64Array): Float64Array {
  return Float64Array.from([a[0]!, a[3]!, a[6]!, a[1]!, a[4]!, a[7]!, a[2]!, a[5]!, a[8]!]);
}
