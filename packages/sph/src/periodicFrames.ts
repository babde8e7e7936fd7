/**
 * Periodic interpolation in time between frames of a deforming mesh (a patient's cine frames over the heart cycle):
 * every frame has the same vertices in the same order, frame k is reached at time t_k within the period T, and the
 * motion repeats with period T. Each vertex coordinate is interpolated on its own, piecewise linearly or by a periodic
 * cubic spline (C², natural in the sense that the spline's second derivative is periodic too), so positions, velocities
 * (the time derivative) and accelerations come from one function. See docs/decisions/sph-moving-walls.md.
 */

/** How vertex positions are interpolated between frames. */
export type FrameInterpolation = 'linear' | 'cubic';

/** Frames of a mesh over one period (SI units). */
export interface FrameSequence {
  /** Vertex positions of each frame, x, y, z per vertex, m; every frame has the same vertex count and order. */
  positions: readonly Float64Array[];
  /** Time of each frame within the period, s: 0 = t₀ < t₁ < … < t_{K−1} < period. */
  times: readonly number[];
  /** Period, s: frame 0 is reached again at `period`. */
  period: number;
  /**
   * 'cubic' (default): a periodic cubic spline through the frames, continuous up to the acceleration; 'linear':
   * piecewise linear, the velocity constant between frames and the acceleration zero (impulses at the frames).
   */
  interpolation?: FrameInterpolation;
}

/** Checks a frame sequence; throws a RangeError that says what is wrong. */
function checkFrames(f: FrameSequence): void {
  const k = f.positions.length;
  if (k < 2) throw new RangeError('a moving mesh needs at least two frames');
  if (f.times.length !== k) throw new RangeError(`${k} frames need ${k} times (got ${f.times.length})`);
  if (!(f.period > 0) || !Number.isFinite(f.period)) throw new RangeError('the period must be positive');
  if (f.times[0] !== 0) throw new RangeError('the first frame must be at time 0');
  for (let i = 1; i < k; i++) {
    if (!(f.times[i]! > f.times[i - 1]!)) throw new RangeError('the frame times must rise strictly');
  }
  if (!(f.times[k - 1]! < f.period)) throw new RangeError('every frame time must lie before the period');
  const n = f.positions[0]!.length;
  if (n === 0 || n % 3 !== 0) throw new RangeError('a frame needs x, y, z for each vertex');
  f.positions.forEach((p, i) => {
    if (p.length !== n) {
      throw new RangeError(
        `frame ${i + 1} has ${p.length / 3} vertices, frame 1 has ${n / 3}: the frames must correspond`,
      );
    }
  });
}

/** Inverse of a small dense square matrix (Gauss–Jordan with partial pivoting), row-major. */
function invert(a: Float64Array, n: number): Float64Array {
  const m = Float64Array.from(a);
  const inv = new Float64Array(n * n);
  for (let i = 0; i < n; i++) inv[i * n + i] = 1;
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r * n + c]!) > Math.abs(m[pivot * n + c]!)) pivot = r;
    if (pivot !== c) {
      for (let j = 0; j < n; j++) {
        [m[c * n + j], m[pivot * n + j]] = [m[pivot * n + j]!, m[c * n + j]!];
        [inv[c * n + j], inv[pivot * n + j]] = [inv[pivot * n + j]!, inv[c * n + j]!];
      }
    }
    const d = m[c * n + c]!;
    for (let j = 0; j < n; j++) {
      m[c * n + j] = m[c * n + j]! / d;
      inv[c * n + j] = inv[c * n + j]! / d;
    }
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r * n + c]!;
      if (f === 0) continue;
      for (let j = 0; j < n; j++) {
        m[r * n + j] = m[r * n + j]! - f * m[c * n + j]!;
        inv[r * n + j] = inv[r * n + j]! - f * inv[c * n + j]!;
      }
    }
  }
  return inv;
}

/**
 * A mesh moving periodically through its frames. `evaluate` gives every vertex's position, velocity and acceleration
 * at any time (read modulo the period).
 */
export class PeriodicFrames {
  /** Number of values per frame (3 per vertex). */
  readonly size: number;
  readonly period: number;
  readonly interpolation: FrameInterpolation;
  private readonly y: readonly Float64Array[];
  /** Knot times t₀ … t_{K−1}, then t_K = period. */
  private readonly t: Float64Array;
  /** Second derivatives of the spline at each frame (cubic only), m/s². */
  private readonly m: readonly Float64Array[];

  constructor(f: FrameSequence) {
    checkFrames(f);
    const k = f.positions.length;
    this.size = f.positions[0]!.length;
    this.period = f.period;
    this.interpolation = f.interpolation ?? 'cubic';
    this.y = f.positions;
    this.t = Float64Array.from([...f.times, f.period]);
    this.m = this.interpolation === 'cubic' ? this.secondDerivatives(k) : [];
  }

  /**
   * The periodic spline's second derivatives M_i: h_{i−1} M_{i−1} + 2(h_{i−1} + h_i) M_i + h_i M_{i+1} =
   * 6 [(y_{i+1} − y_i)/h_i − (y_i − y_{i−1})/h_{i−1}], indices modulo K (a cyclic tridiagonal system, the same for
   * every coordinate: inverted once, K is small).
   */
  private secondDerivatives(k: number): Float64Array[] {
    const h = (i: number): number => this.t[(((i % k) + k) % k) + 1]! - this.t[((i % k) + k) % k]!;
    const a = new Float64Array(k * k);
    for (let i = 0; i < k; i++) {
      a[i * k + ((i - 1 + k) % k)] = a[i * k + ((i - 1 + k) % k)]! + h(i - 1);
      a[i * k + i] = a[i * k + i]! + 2 * (h(i - 1) + h(i));
      a[i * k + ((i + 1) % k)] = a[i * k + ((i + 1) % k)]! + h(i);
    }
    const inv = invert(a, k);
    const rhs = Array.from({ length: k }, (_, i) => {
      const ym = this.y[(i - 1 + k) % k]!;
      const y0 = this.y[i]!;
      const yp = this.y[(i + 1) % k]!;
      const hm = h(i - 1);
      const hp = h(i);
      const d = new Float64Array(this.size);
      for (let c = 0; c < this.size; c++) d[c] = 6 * ((yp[c]! - y0[c]!) / hp - (y0[c]! - ym[c]!) / hm);
      return d;
    });
    return Array.from({ length: k }, (_, i) => {
      const out = new Float64Array(this.size);
      for (let j = 0; j < k; j++) {
        const w = inv[i * k + j]!;
        if (w === 0) continue;
        const d = rhs[j]!;
        for (let c = 0; c < this.size; c++) out[c] = out[c]! + w * d[c]!;
      }
      return out;
    });
  }

  /**
   * Positions (m) at time `time` (s, any value: read modulo the period) into `position`, and, when given, velocities
   * (m/s) into `velocity` and accelerations (m/s²) into `acceleration` (each of `size` values).
   */
  evaluate(time: number, position: Float64Array, velocity?: Float64Array, acceleration?: Float64Array): void {
    const k = this.y.length;
    const tau = time - Math.floor(time / this.period) * this.period;
    let i = 0;
    while (i < k - 1 && tau >= this.t[i + 1]!) i++;
    const j = (i + 1) % k;
    const h = this.t[i + 1]! - this.t[i]!;
    const b = tau - this.t[i]!;
    const a = h - b;
    const y0 = this.y[i]!;
    const y1 = this.y[j]!;
    if (this.interpolation === 'linear') {
      for (let c = 0; c < this.size; c++) {
        position[c] = (a * y0[c]! + b * y1[c]!) / h;
        if (velocity) velocity[c] = (y1[c]! - y0[c]!) / h;
        if (acceleration) acceleration[c] = 0;
      }
      return;
    }
    const m0 = this.m[i]!;
    const m1 = this.m[j]!;
    const a3 = (a * a * a) / (6 * h);
    const b3 = (b * b * b) / (6 * h);
    const a2 = (a * a) / (2 * h);
    const b2 = (b * b) / (2 * h);
    for (let c = 0; c < this.size; c++) {
      const p0 = m0[c]!;
      const p1 = m1[c]!;
      position[c] = p0 * a3 + p1 * b3 + (y0[c]! / h - (p0 * h) / 6) * a + (y1[c]! / h - (p1 * h) / 6) * b;
      if (velocity) velocity[c] = -p0 * a2 + p1 * b2 + (y1[c]! - y0[c]!) / h - ((p1 - p0) * h) / 6;
      if (acceleration) acceleration[c] = (p0 * a + p1 * b) / h;
    }
  }
}
